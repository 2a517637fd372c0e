// Chromium for the browser benchmarks: Debian's build through playwright-core, headless, with
// no background traffic, and helpers that every browser benchmark measures with, so our
// widget and the peer are always measured the same way.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/**
 * A fresh context (empty cache and storage: a first-time visitor) with one page, the marks
 * below installed (and `marks` started: name → element path), and the CPU slowed down
 * `cpuThrottling` times through the DevTools protocol (Emulation.setCPUThrottlingRate).
 */
export async function freshPage(
  browser: Browser,
  { cpuThrottling = 1, marks = {} }: { cpuThrottling?: number; marks?: Record<string, string[]> } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // tsx compiles this file with esbuild's keepNames, which wraps named inner functions in
  // `__name(…)`; functions sent to the page (evaluate, init scripts) need it defined there.
  const start = Object.entries(marks).map(([name, path]) => `window.__bench.mark(${JSON.stringify(name)}, ${JSON.stringify(path)});`);
  await context.addInitScript({
    content: ['globalThis.__name ??= (f) => f;', `(${installMarks.toString()})();`, ...start].join('\n'),
  });
  const page = await context.newPage();
  if (cpuThrottling !== 1) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuThrottling });
  }
  return { context, page };
}

/**
 * Runs in the page before its own scripts and defines `window.__bench`:
 * - `mark(name, path)` watches, frame by frame, for the element at `path` (CSS selectors, one
 *   per shadow root to descend) to be laid out with a size, and resolves with the time the
 *   frame showing it was painted (requestAnimationFrame, then a message posted from it, which
 *   runs after that frame's paint), in ms since navigation start. It polls only from
 *   DOMContentLoaded (deferred and module scripts have run by then) until found, so it adds
 *   a frame or two of work to the page, not a poll for the whole load.
 * - `wait(name, timeoutMs)` resolves with that time, or NaN after the timeout.
 * - `clicks`: the time stamps of every click on the page (capture phase, before any handler).
 */
export function installMarks() {
  const times: Record<string, Promise<number>> = {};
  const watching = new Map<string, { path: string[]; resolve: (at: number) => void }>();
  const clicks: number[] = [];
  window.addEventListener('click', (event) => clicks.push(event.timeStamp), { capture: true });
  const find = (path: string[]): Element | null => {
    let scope: ParentNode | null = document;
    let found: Element | null = null;
    for (const selector of path) {
      found = scope?.querySelector(selector) ?? null;
      if (!found) return null;
      scope = found.shadowRoot ?? found;
    }
    return found;
  };
  const channel = new MessageChannel();
  const painted: Array<() => void> = [];
  channel.port1.onmessage = () => painted.shift()?.();
  let polling = false;
  const frame = () => {
    for (const [name, mark] of watching) {
      const box = find(mark.path)?.getBoundingClientRect();
      if (!box || box.width === 0 || box.height === 0) continue;
      watching.delete(name);
      painted.push(() => mark.resolve(performance.now()));
      channel.port2.postMessage(null);
    }
    polling = watching.size > 0;
    if (polling) requestAnimationFrame(frame);
  };
  const poll = () => {
    if (polling || watching.size === 0 || document.readyState === 'loading') return;
    polling = true;
    requestAnimationFrame(frame);
  };
  document.addEventListener('DOMContentLoaded', poll);
  const bench = {
    clicks,
    mark(name: string, path: string[]): Promise<number> {
      times[name] = new Promise<number>((resolve) => watching.set(name, { path, resolve }));
      poll();
      return times[name];
    },
    wait(name: string, timeoutMs: number): Promise<number> {
      const timeout = new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), timeoutMs));
      return Promise.race([times[name] ?? Promise.resolve(Number.NaN), timeout]);
    },
  };
  (window as unknown as BenchWindow).__bench = bench;
}

export type BenchWindow = {
  __bench: {
    clicks: number[];
    mark(name: string, path: string[]): Promise<number>;
    wait(name: string, timeoutMs: number): Promise<number>;
  };
};
