// Typing with the mention list open (issue 3): the main-thread work one keystroke costs in a
// 2,000-character text whose `@us…` mention list searches a channel of 10,000 users. Chromium
// (no CPU throttling) against the local backend; users and channel are seeded through the store.
//
// Every user is a member of the channel: with fewer than 100 members the SDK searches the loaded
// members in memory, so only a channel this large makes the mention search go to the backend
// (GET /members with a name $autocomplete) and render its answers on each keystroke.
//
// A key's cost is the renderer main thread's top-level tasks in a Chromium trace from the key
// until its debounced search has come back and been painted, less the harness's own cost (the
// same calls over as long a window with no key). The same run is made on keystroke-floor.html,
// a framework-free page making the same requests, as the floor this machine allows.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startServer, type RunningServer } from '../../src/server/index';
import { BENCH_LIMITS } from './backend';
import { openStore } from '../../src/server/store/store';
import { median, percentile } from './stats';
import type { BenchRow } from './types';
import { TRACE_CATEGORIES, workBetweenStamps, type WindowWork } from './trace';
import { benchContext, writeWidgetSite } from './widget-site';

const API_KEY = 'bench-keystroke-key';
const API_SECRET = 'bench-keystroke-secret-long-enough-for-hs256';
const USERS = 10_000;
const TEXT_LENGTH = 2_000;
const WARM_UP = 10;
const KEYSTROKES = 100;
const IDLE_WINDOWS = 40;
/** The SDK sends typing.stop a second after the last keystroke, on a 500 ms clock. */
const TYPING_STOP_MS = 2_000;
const BUDGET_P95_MS = 16;
/** The whole benchmark, seeding included, gives up after this long. */
const CAP_MS = 5 * 60_000;
/** How long a keystroke's debounced search may take to come back before we stop waiting. */
const SEARCH_WAIT_MS = 2_000;

const FIRST = ['Usha', 'Anna', 'Usman', 'Bruno', 'Chen', 'Dana', 'Ursula', 'Elif', 'Farah', 'Goran', 'Hana', 'Ivo', 'Uschi', 'Jonas', 'Kemal', 'Lena', 'Mateo', 'Nia', 'Omar', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tomás'];
const LAST = ['Useem', 'Abbott', 'Baker', 'Usher', 'Castillo', 'Dubois', 'Eriksen', 'User', 'Fischer', 'García', 'Hughes', 'Ito', 'Jensen', 'Kowalski', 'Usui', 'Larsen', 'Müller', 'Nakamura', 'Okafor', 'Petrov', 'Rossi', 'Silva', 'Tanaka', 'Novak', 'Wright'];

function seed(path: string) {
  const store = openStore(path);
  try {
    const now = new Date().toISOString();
    const ids: string[] = [];
    store.transaction(() => {
      store.users.upsert({ id: 'alice', name: 'Alice Johnson' });
      for (let i = 1; i <= USERS; i++) {
        const id = `user-${String(i).padStart(5, '0')}`;
        ids.push(id);
        store.users.upsert({ id, name: `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]} ${i}` });
      }
    });
    const cid = 'messaging:bench';
    store.channels.create({ type: 'messaging', id: 'bench', name: 'bench', custom: {}, createdById: 'alice', now });
    store.channels.addMembers(cid, ['alice'], 'owner', now);
    store.transaction(() => {
      store.channels.addMembers(cid, ids, 'member', now);
    });
    store.reads.start(cid, ['alice', ...ids.slice(0, 3)], now);
  } finally {
    store.close();
  }
}

/** About TEXT_LENGTH characters of prose, ending in ` @us` so the mention list opens. */
function longText(): string {
  const words = ['the', 'quick', 'review', 'of', 'yesterday’s', 'release', 'notes', 'shows', 'that', 'we', 'still', 'need', 'a', 'fix', 'for', 'sync'];
  const tail = ' @us';
  let text = '';
  for (let i = 0; text.length < TEXT_LENGTH - tail.length; i++) text += (i ? ' ' : '') + words[(i * 5) % words.length];
  return text.slice(0, TEXT_LENGTH - tail.length) + tail;
}

/** Two animation frames, then 50 ms more for anything the frame scheduled. */
const settle = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50)))),
  );

function withCap<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not finish within ${ms / 60_000} minutes`)), ms);
  });
  return Promise.race([work, cap]).finally(() => clearTimeout(timer));
}

type PageRun = { windows: WindowWork[]; searches: number; options: number; length: number };

/** Types on the page at `url` under a trace: every key's window, then idle windows as long. */
async function typeAndTrace(browser: Browser, url: string, deadline: number): Promise<PageRun> {
  const context = await benchContext(browser);
  const page = await context.newPage();
  await page.goto(url);
  const input = page.locator('chat-widget [part~="composer-input"]');
  await input.waitFor({ timeout: 20_000 });
  await input.fill(longText());
  await input.press('End');
  await page.locator('chat-widget [role="option"]').first().waitFor({ timeout: 20_000 });
  await settle(page);

  const stamp = (label: string) => page.evaluate((text) => console.timeStamp(text), label);
  const isSearch = (address: string) => /\/(members|users)\?/.test(address);
  let searches = 0;
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  let trace: Buffer;
  try {
    const lengths: Array<{ key: string; ms: number }> = [];
    for (let i = 0; i < WARM_UP + KEYSTROKES; i++) {
      if (Date.now() > deadline) throw new Error(`ran out of time after ${i} keystrokes on ${url}`);
      // Alternate: `@us` + `e` → `@use`, then Backspace → `@us`; the list stays open.
      const key = i % 2 === 0 ? 'e' : 'Backspace';
      const searched = page
        .waitForResponse((response) => isSearch(response.url()), { timeout: SEARCH_WAIT_MS })
        .then(() => true, () => false);
      const started = performance.now();
      await stamp(i >= WARM_UP ? `key ${key}` : 'warm-up');
      if (key === 'Backspace') await page.keyboard.press(key);
      else await page.keyboard.type(key);
      if (await searched) searches++;
      await settle(page);
      if (i >= WARM_UP) lengths.push({ key, ms: performance.now() - started });
    }
    // The harness's own cost and the page's idle work: windows as long as the keys' ones,
    // with the same calls and no key, once the SDK has sent its typing.stop.
    await stamp('typing stops');
    await page.waitForTimeout(TYPING_STOP_MS);
    for (const { key, ms } of lengths.slice(0, IDLE_WINDOWS)) {
      await stamp(`idle ${key}`);
      await page.waitForTimeout(Math.max(0, ms - 60));
      await settle(page);
    }
    await stamp('end');
  } finally {
    trace = await browser.stopTracing();
  }
  // For a closer look (chrome://tracing, DevTools): BENCH_TRACE_DIR keeps each page's trace.
  if (process.env.BENCH_TRACE_DIR) writeFileSync(join(process.env.BENCH_TRACE_DIR, `keystroke-${new URL(url).pathname.slice(1)}.json`), trace);
  const options = await page.locator('chat-widget [role="option"]').count();
  const length = (await input.inputValue()).length;
  await context.close();
  return { windows: workBetweenStamps(trace), searches, options, length };
}

/** Each key's window less the median idle window that followed keys of the same kind. */
function netOfIdle(windows: WindowWork[], metric: 'wallMs' | 'cpuMs') {
  const idleOf = new Map<string, number>();
  for (const key of ['e', 'Backspace']) idleOf.set(key, median(windows.filter((w) => w.label === `idle ${key}`).map((w) => w[metric])));
  const net = windows
    .filter((w) => w.label.startsWith('key '))
    .map((w) => Math.max(0, w[metric] - idleOf.get(w.label.slice(4))!));
  return { samples: net.length, p50: median(net), p95: percentile(net, 95), idle: median([...idleOf.values()]) };
}

export default async function composerKeystroke(): Promise<BenchRow[]> {
  const deadline = Date.now() + CAP_MS;
  const dir = mkdtempSync(join(tmpdir(), 'chat-widget-bench-keystroke-'));
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  try {
    const path = join(dir, 'chat.db');
    seed(path);
    writeWidgetSite(dir, [{ name: 'bench', channel: 'messaging:bench', open: true }]);
    copyFileSync(resolve('tests/bench/keystroke-floor.html'), join(dir, 'demo', 'keystroke-floor.html'));
    const { url } = (server = await startServer({ port: 0, dbPath: path, apiKey: API_KEY, apiSecret: API_SECRET, devMode: true, staticRoot: dir, quiet: true, limits: BENCH_LIMITS }));
    const launched = (browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    }));
    const both = async () => ({
      widget: await typeAndTrace(launched, `${url}/bench.html`, deadline),
      floor: await typeAndTrace(launched, `${url}/keystroke-floor.html`, deadline),
    });
    const { widget, floor } = await withCap(both(), Math.max(1, deadline - Date.now()));
    const round = (n: number) => Math.round(n * 100) / 100;
    const cpu = netOfIdle(widget.windows, 'cpuMs');
    const wall = netOfIdle(widget.windows, 'wallMs');
    const floorCpu = netOfIdle(floor.windows, 'cpuMs');
    const floorWall = netOfIdle(floor.windows, 'wallMs');
    const method =
      `${cpu.samples} keystrokes after ${WARM_UP} warm-up, alternating "e" and Backspace after "@us" in a ${widget.length}-character text; ` +
      `renderer main-thread top-level tasks in a Chromium trace from the key until its debounced member search (${widget.searches}/${WARM_UP + KEYSTROKES} came back) ` +
      `was painted + 2 frames + 50 ms, typing.start events included, less the median of as long a window with the same harness calls and no key ` +
      `(thread ${round(cpu.idle)} ms, wall ${round(wall.idle)} ms); 1x CPU; ${widget.options} options shown at the end; ` +
      `peer = keystroke-floor.html, the same requests and list by hand with no framework or SDK (${floor.searches}/${WARM_UP + KEYSTROKES} searches, ${floor.options} options)`;
    const name = 'keystroke with @mention list open over 10,000 users: main-thread';
    return [
      { name: `${name} thread time p50`, unit: 'ms', measured: round(cpu.p50), peer: round(floorCpu.p50), note: method },
      {
        name: `${name} thread time p95`,
        unit: 'ms',
        measured: round(cpu.p95),
        peer: round(floorCpu.p95),
        budget: BUDGET_P95_MS,
        note: 'the budget is on the work the main thread does (its CPU time); wall time below adds the time it waited descheduled on this shared 2-core machine',
      },
      { name: `${name} wall time p50`, unit: 'ms', measured: round(wall.p50), peer: round(floorWall.p50), note: 'the same tasks, wall time (DevTools\' task durations)' },
      { name: `${name} wall time p95`, unit: 'ms', measured: round(wall.p95), peer: round(floorWall.p95), note: 'not budgeted: on this 2-core machine the main thread waits its turn with Chromium\'s other threads, the backend and the harness, which the floor page pays too' },
    ];
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}
