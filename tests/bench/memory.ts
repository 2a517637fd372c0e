// Memory: the JS heap of a page after a first-time visitor opens a channel with 10,000
// messages and scrolls the message list to its top. The channel is seeded through the
// backend's REST API (a server-side stream-chat client sends every message, as alice and bob
// in turn). Each load is a fresh context. "Scrolling to the top" is a reader going back
// through the history: the list is put at scrollTop 0, and when that brings a page of older
// messages (seen in the channel query responses) it is put there again, until the first
// message is loaded, a scroll loads nothing, or 25 s are up. Then a forced garbage collection
// (HeapProfiler.collectGarbage) and Runtime.getHeapUsage's usedSize.
import type { Browser, Page } from 'playwright-core';
import { StreamChat } from 'stream-chat';
import { API_KEY, API_SECRET, startBenchServer } from './backend';
import { freshPage, launchChromium, type BenchWindow } from './browser';
import { FIRST_MESSAGE, LAUNCHER, MESSAGE_SCROLLER, prepareSite } from './pages';
import { median, spread } from './stats';
import type { BenchRow } from './types';

const MESSAGES = 10_000;
const CHANNEL = 'history';
const WARMUP = 1;
/** Budget: every browser row is the median of at least five paired runs, with its spread. */
const REPEATS = 5;
const SCROLL_WAIT_MS = 500;
/** How long scrolling to the top may take in a measured run, and in the warm-up run. */
const SCROLL_LIMIT_MS = 25_000;
const WARMUP_SCROLL_LIMIT_MS = 3_000;
/** A scroll that loads nothing within this long means the top (or no paging). */
const STEP_TIMEOUT_MS = 2_000;
const SEND_CONCURRENCY = 16;

type Kind = 'ours' | 'peer';
type Sample = { closedMb: number; heapMb: number; loaded: number; rendered: number; domNodes: number; scrolls: number; scrollMs: number };

async function seedHistory(baseURL: string): Promise<number> {
  const started = performance.now();
  const server = new StreamChat(API_KEY, API_SECRET, { baseURL, timeout: 30_000 });
  const channel = server.channel('messaging', CHANNEL, { members: ['alice', 'bob'], created_by_id: 'alice' } as never);
  await channel.create();
  let next = 0;
  const worker = async () => {
    while (next < MESSAGES) {
      const i = next++;
      await channel.sendMessage({ id: `history-${i}`, text: `Message ${i + 1} of the long history: ${'lorem ipsum '.repeat(1 + (i % 5))}`, user_id: i % 2 ? 'bob' : 'alice' } as never);
    }
  };
  await Promise.all(Array.from({ length: SEND_CONCURRENCY }, worker));
  return performance.now() - started;
}

/** How many elements match the last selector inside the element path before it. */
function countIn(page: Page, path: string[]): Promise<number> {
  return page.evaluate((selectors) => {
    let scope: ParentNode = document;
    for (const selector of selectors.slice(0, -1)) {
      const found = scope.querySelector(selector);
      if (!found) return 0;
      scope = found.shadowRoot ?? found;
    }
    return scope.querySelectorAll(selectors[selectors.length - 1] ?? '*').length;
  }, path);
}

/** Every element of the document and of the open shadow roots in it. */
function domNodes(page: Page): Promise<number> {
  return page.evaluate(() => {
    let count = 0;
    const walk = (root: ParentNode) => {
      for (const element of root.querySelectorAll('*')) {
        count++;
        if (element.shadowRoot) walk(element.shadowRoot);
      }
    };
    walk(document);
    return count;
  });
}

/** Scrolls the list down a little and back to scrollTop 0: two scroll events even at the top. */
function nudgeToTop(page: Page, scroller: string[]): Promise<void> {
  return page.evaluate(async (selectors) => {
    let scope: ParentNode = document;
    let list: Element | null = null;
    for (const selector of selectors) {
      list = scope.querySelector(selector);
      if (!list) throw new Error(`no ${selector} to scroll`);
      scope = list.shadowRoot ?? list;
    }
    const el = list as Element;
    el.scrollTop = Math.min(100, el.scrollHeight);
    await new Promise((resolve) => requestAnimationFrame(resolve));
    el.scrollTop = 0;
  }, scroller);
}

/** Message ids the page received from channel queries (`/channels/…/query` responses). */
function trackLoadedMessages(page: Page): { ids: Set<string>; grown(than: number, timeoutMs: number): Promise<boolean> } {
  const ids = new Set<string>();
  let waiter: (() => void) | undefined;
  page.on('response', (response) => {
    if (!/\/channels\/[^/]+\/[^/]+\/query/.test(new URL(response.url()).pathname)) return;
    response
      .json()
      .then((body: { messages?: Array<{ id: string }> }) => {
        for (const message of body.messages ?? []) ids.add(message.id);
        waiter?.();
      })
      .catch(() => undefined);
  });
  return {
    ids,
    grown: (than, timeoutMs) =>
      new Promise<boolean>((resolve) => {
        const done = () => {
          if (ids.size <= than) return;
          clearTimeout(timer);
          waiter = undefined;
          resolve(true);
        };
        const timer = setTimeout(() => {
          waiter = undefined;
          resolve(false);
        }, timeoutMs);
        waiter = done;
        done();
      }),
  };
}

async function heapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    return usedSize / 1024 / 1024;
  } finally {
    await cdp.detach();
  }
}

async function measureOnce(browser: Browser, url: string, kind: Kind, deadlineMs: number): Promise<Sample> {
  const { context, page } = await freshPage(browser, { marks: { bubble: LAUNCHER[kind] } });
  const loaded = trackLoadedMessages(page);
  try {
    await page.goto(url, { waitUntil: 'load' });
    await page.evaluate(() => (window as unknown as BenchWindow).__bench.wait('bubble', 20_000));
    await page.waitForTimeout(300);
    const closedMb = await heapMb(page);
    await page.evaluate((path) => void (window as unknown as BenchWindow).__bench.mark('message', path), FIRST_MESSAGE[kind]);
    await page.locator(LAUNCHER[kind].join(' ')).click();
    const painted = await page.evaluate(() => (window as unknown as BenchWindow).__bench.wait('message', 30_000));
    if (Number.isNaN(painted)) throw new Error(`${kind}: no message appeared`);
    await page.waitForTimeout(SCROLL_WAIT_MS);

    // Back through the history: to the top, wait for the page of older messages, again,
    // until the first message is loaded, a scroll brings nothing, or the time is up.
    const started = performance.now();
    let scrolls = 0;
    while (loaded.ids.size < MESSAGES && performance.now() - started < deadlineMs) {
      const before = loaded.ids.size;
      await nudgeToTop(page, MESSAGE_SCROLLER[kind]);
      scrolls++;
      if (!(await loaded.grown(before, STEP_TIMEOUT_MS))) break;
    }
    const scrollMs = performance.now() - started;
    await page.waitForTimeout(SCROLL_WAIT_MS);
    const rendered = await countIn(page, [...MESSAGE_SCROLLER[kind], FIRST_MESSAGE[kind].at(-1) ?? '*']);
    const heap = await heapMb(page);
    return { closedMb, heapMb: heap, loaded: loaded.ids.size, rendered, domNodes: await domNodes(page), scrolls, scrollMs };
  } finally {
    await context.close();
  }
}

export default async function memory(): Promise<BenchRow[]> {
  const site = await prepareSite([CHANNEL]);
  const [server, browser] = await Promise.all([startBenchServer(site.root), launchChromium()]);
  try {
    const seedMs = await seedHistory(server.url);
    const urls: Record<Kind, string> = { ours: `${server.url}${site.pages.widget(CHANNEL)}`, peer: `${server.url}${site.pages.peer(CHANNEL)}` };
    const samples: Record<Kind, Sample[]> = { ours: [], peer: [] };
    for (let i = 0; i < WARMUP + REPEATS; i++) {
      const order: Kind[] = i % 2 ? ['peer', 'ours'] : ['ours', 'peer'];
      for (const kind of order) {
        const sample = await measureOnce(browser, urls[kind], kind, i < WARMUP ? WARMUP_SCROLL_LIMIT_MS : SCROLL_LIMIT_MS);
        if (i >= WARMUP) samples[kind].push(sample);
      }
    }
    const mid = (kind: Kind, field: keyof Sample) => median(samples[kind].map((s) => s[field]));
    const range = (kind: Kind, field: keyof Sample) => spread(samples[kind].map((s) => s[field]));
    const one = (n: number) => Math.round(n * 10) / 10;
    const describe = (kind: Kind) =>
      `${kind} held ${mid(kind, 'loaded')} messages after ${mid(kind, 'scrolls')} scrolls to the top in ${one(mid(kind, 'scrollMs') / 1000)} s, rendering ${mid(kind, 'rendered')} message elements, ${mid(kind, 'domNodes')} DOM elements in all`;
    const short = (['ours', 'peer'] as const).filter((kind) => mid(kind, 'loaded') < MESSAGES);
    return [
      {
        name: 'memory: JS heap, 10,000-message channel opened and scrolled to its top',
        unit: 'MB',
        measured: one(mid('ours', 'heapMb')),
        peer: one(mid('peer', 'heapMb')),
        note: `after forced GC, median of ${REPEATS} paired runs after ${WARMUP} warm-up (spread ours ${range('ours', 'heapMb')}, peer ${range('peer', 'heapMb')}); ${describe('ours')}; ${describe('peer')}${short.length ? `; ${short.join(' and ')} did not reach the first message (a scroll loaded nothing more, or ${SCROLL_LIMIT_MS / 1000} s were up) and ${short.length > 1 ? 'are' : 'is'} measured there` : ''}`,
      },
      {
        name: 'memory: messages loaded when measured',
        unit: 'count',
        measured: mid('ours', 'loaded'),
        peer: mid('peer', 'loaded'),
        note: `distinct messages in the channel query responses, of ${MESSAGES} seeded over REST in ${one(seedMs / 1000)} s; each scroll to the top asks for one page of older ones`,
      },
      {
        name: 'memory: JS heap before opening (closed bubble)',
        unit: 'MB',
        measured: one(mid('ours', 'closedMb')),
        peer: one(mid('peer', 'closedMb')),
        note: `the same pages after load, before the click, after forced GC (spread ours ${range('ours', 'closedMb')}, peer ${range('peer', 'closedMb')})`,
      },
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}
