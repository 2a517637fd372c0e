// Open to first message: a first-time visitor clicks the closed bubble, and we time from the
// click event to the first painted frame that shows a message of messaging:general (six
// seeded messages): token fetch, WebSocket connect, channel query and render, against the
// local backend (in-process, in-memory, on a free port). Our widget and the stream-chat-react
// peer are measured alternately, each load in a fresh browser context, CPU not throttled.
import type { Browser, Page } from 'playwright-core';
import { startBenchServer } from './backend';
import { freshPage, launchChromium, type BenchWindow } from './browser';
import { FIRST_MESSAGE, LAUNCHER, prepareSite } from './pages';
import { median, percentile } from './stats';
import type { BenchRow } from './types';

const WARMUP = 2;
const REPEATS = 10;
const BUDGET_MS = 300;

type Kind = 'ours' | 'peer';

/** Clicks the element at `path` (one selector per shadow root) and waits for the mark. */
async function clickAndWait(page: Page, path: string[], mark: string, timeoutMs: number): Promise<number> {
  await page.locator(path.join(' ')).click();
  const painted = await page.evaluate(
    ([name, timeout]) => (window as unknown as BenchWindow).__bench.wait(name as string, timeout as number),
    [mark, timeoutMs] as const,
  );
  const clicked = await page.evaluate(() => (window as unknown as BenchWindow).__bench.clicks[0] ?? Number.NaN);
  return painted - clicked;
}

async function openOnce(browser: Browser, url: string, kind: Kind): Promise<number> {
  const { context, page } = await freshPage(browser, { marks: { bubble: LAUNCHER[kind] } });
  try {
    await page.goto(url, { waitUntil: 'load' });
    await page.evaluate(() => (window as unknown as BenchWindow).__bench.wait('bubble', 20_000));
    await page.waitForTimeout(200);
    await page.evaluate((path) => void (window as unknown as BenchWindow).__bench.mark('message', path), FIRST_MESSAGE[kind]);
    return await clickAndWait(page, LAUNCHER[kind], 'message', 15_000);
  } finally {
    await context.close();
  }
}

export default async function openToMessage(): Promise<BenchRow[]> {
  const site = await prepareSite(['general']);
  const [server, browser] = await Promise.all([startBenchServer(site.root), launchChromium()]);
  try {
    const urls: Record<Kind, string> = { ours: `${server.url}${site.pages.widget('general')}`, peer: `${server.url}${site.pages.peer('general')}` };
    const samples: Record<Kind, number[]> = { ours: [], peer: [] };
    for (let i = 0; i < WARMUP + REPEATS; i++) {
      const order: Kind[] = i % 2 ? ['peer', 'ours'] : ['ours', 'peer'];
      for (const kind of order) {
        const ms = await openOnce(browser, urls[kind], kind);
        if (i >= WARMUP) samples[kind].push(ms);
      }
    }
    const round = (ms: number) => Math.round(ms * 10) / 10;
    const spread = (kind: Kind) => `${round(Math.min(...samples[kind]))}–${round(Math.max(...samples[kind]))}`;
    return [
      {
        name: 'open to first message: click → first message painted (median)',
        unit: 'ms',
        budget: BUDGET_MS,
        measured: round(median(samples.ours)),
        peer: round(median(samples.peer)),
        note: `${REPEATS} fresh first-time visitors after ${WARMUP} warm-up, no throttling; range ours ${spread('ours')} ms, peer ${spread('peer')} ms`,
      },
      {
        name: 'open to first message (p90)',
        unit: 'ms',
        measured: round(percentile(samples.ours, 90)),
        peer: round(percentile(samples.peer, 90)),
        note: 'token endpoint, WebSocket /connect, channel query with watch, render',
      },
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}
