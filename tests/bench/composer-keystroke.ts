// Typing with the mention list open: the main-thread work one keystroke costs in a
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
//
// Honest figures: the machine is shared, so its load can change between two runs.
// Ours and the floor are measured in PAIRS back-to-back runs, in alternating order (ours then
// floor, floor then ours, …), each in a fresh browser context; every figure is the median over
// the pairs, with its spread (min–max), and the budgeted ratio is taken within each pair.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startServer, type RunningServer } from '../../src/server/index';
import { BENCH_LIMITS } from './backend';
import { openStore } from '../../src/server/store/store';
import { median, percentile, spread } from './stats';
import type { BenchRow } from './types';
import { TRACE_CATEGORIES, workBetweenStamps, type WindowWork } from './trace';
import { benchContext, writeWidgetSite } from './widget-site';

const API_KEY = 'bench-keystroke-key';
const API_SECRET = 'bench-keystroke-secret-long-enough-for-hs256';
const USERS = 10_000;
const TEXT_LENGTH = 2_000;
/** Paired runs (ours and the floor back to back); at least five. */
const PAIRS = 5;
/** Per run: keys typed before measuring, keys measured, and idle windows (half after each kind of key). */
const WARM_UP = 4;
const KEYSTROKES = 24;
const IDLE_WINDOWS = 10;
/** The SDK sends typing.stop a second after the last keystroke, on a 500 ms clock. */
const TYPING_STOP_MS = 2_000;
const BUDGET_P95_MS = 16;
/** Budget: main-thread p95 at most 1.2x the floor page's in the same run (here: the same pair). */
const BUDGET_P95_RATIO = 1.2;
/** The whole benchmark, seeding included, gives up after this long (run.ts gives it 6 minutes). */
const CAP_MS = 5.5 * 60_000;
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
  return { net, samples: net.length, p50: median(net), p95: percentile(net, 95), idle: median([...idleOf.values()]) };
}

type Net = ReturnType<typeof netOfIdle>;
type Measured = { run: PageRun; cpu: Net; wall: Net };

function measure(run: PageRun): Measured {
  return { run, cpu: netOfIdle(run.windows, 'cpuMs'), wall: netOfIdle(run.windows, 'wallMs') };
}

export default async function composerKeystroke(): Promise<BenchRow[]> {
  const deadline = Date.now() + CAP_MS;
  const loadStart = loadavg()[0] ?? Number.NaN;
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
    const pages = { ours: `${url}/bench.html`, floor: `${url}/keystroke-floor.html` } as const;
    const pairs: Array<{ ours: Measured; floor: Measured }> = [];
    const all = async () => {
      for (let i = 0; i < PAIRS; i++) {
        const started = Date.now();
        // Alternate the order, so neither side always runs first (warmer caches, a load that rises or falls).
        const order = i % 2 === 0 ? (['ours', 'floor'] as const) : (['floor', 'ours'] as const);
        const pair: Partial<{ ours: Measured; floor: Measured }> = {};
        for (const side of order) pair[side] = measure(await typeAndTrace(launched, pages[side], deadline));
        pairs.push(pair as { ours: Measured; floor: Measured });
        process.stderr.write(`  keystroke pair ${i + 1}/${PAIRS} (${order.join(', ')}): ${Math.round((Date.now() - started) / 1000)} s, load ${(loadavg()[0] ?? Number.NaN).toFixed(2)}\n`);
      }
    };
    await withCap(all(), Math.max(1, deadline - Date.now()));
    const loadEnd = loadavg()[0] ?? Number.NaN;
    const round = (n: number) => Math.round(n * 100) / 100;
    type Side = 'ours' | 'floor';
    type Stat = 'p50' | 'p95';
    const values = (side: Side, metric: 'cpu' | 'wall', stat: Stat) => pairs.map((pair) => pair[side][metric][stat]);
    const mid = (side: Side, metric: 'cpu' | 'wall', stat: Stat) => round(median(values(side, metric, stat)));
    const ratios = (metric: 'cpu' | 'wall', stat: Stat) => pairs.map((pair) => pair.ours[metric][stat] / pair.floor[metric][stat]);
    const spreads = (metric: 'cpu' | 'wall', stat: Stat) =>
      `spread over the ${pairs.length} pairs: ours ${spread(values('ours', metric, stat))} ms, floor ${spread(values('floor', metric, stat))} ms, per-pair ratio ${spread(ratios(metric, stat))}`;
    const searches = (side: Side) => pairs.reduce((total, pair) => total + pair[side].run.searches, 0);
    const last = pairs[pairs.length - 1]!;
    const keysPerRun = WARM_UP + KEYSTROKES;
    const method =
      `median of ${pairs.length} paired runs, each pair ours and the floor back to back in alternating order (ours first in the odd pairs, the floor first in the even ones), each run a fresh context; ` +
      `load average ${loadStart.toFixed(2)} at the start, ${loadEnd.toFixed(2)} at the end; ` +
      `per run ${KEYSTROKES} keystrokes (its p95 is the key at rank ${Math.ceil(0.95 * KEYSTROKES)} of ${KEYSTROKES}) after ${WARM_UP} warm-up, alternating "e" and Backspace after "@us" in a ${last.ours.run.length}-character text; ` +
      `renderer main-thread top-level tasks in a Chromium trace from the key until its debounced member search (${searches('ours')}/${keysPerRun * pairs.length} came back) ` +
      `was painted + 2 frames + 50 ms, typing.start events included, less the median of ${IDLE_WINDOWS} as long windows per run with the same harness calls and no key ` +
      `(thread ${round(median(pairs.map((pair) => pair.ours.cpu.idle)))} ms, wall ${round(median(pairs.map((pair) => pair.ours.wall.idle)))} ms, medians over the pairs); 1x CPU; ${last.ours.run.options} options shown at the end; ` +
      `peer = keystroke-floor.html, the same requests and list by hand with no framework or SDK (${searches('floor')}/${keysPerRun * pairs.length} searches, ${last.floor.run.options} options); ` +
      spreads('cpu', 'p50');
    const name = 'keystroke with @mention list open over 10,000 users: main-thread';
    const p95Ratios = ratios('cpu', 'p95');
    // All pairs' keys together, as a check on the per-pair figures (not the row's value).
    const pooled = (side: Side) => percentile(pairs.flatMap((pair) => pair[side].cpu.net), 95);
    return [
      { name: `${name} thread time p50`, unit: 'ms', measured: mid('ours', 'cpu', 'p50'), peer: mid('floor', 'cpu', 'p50'), note: method },
      {
        name: `${name} thread time p95`,
        unit: 'ms',
        measured: mid('ours', 'cpu', 'p95'),
        peer: mid('floor', 'cpu', 'p95'),
        budget: BUDGET_P95_MS,
        note: `${spreads('cpu', 'p95')}; the budget is on the work the main thread does (its CPU time); wall time below adds the time it waited descheduled on this shared 2-core machine`,
      },
      {
        name: `${name} thread time p95 / floor's in the same pair`,
        unit: 'x',
        measured: round(median(p95Ratios)),
        budget: BUDGET_P95_RATIO,
        note: `median of the ${pairs.length} per-pair ratios (spread ${spread(p95Ratios)}; in order ${p95Ratios.map((ratio) => ratio.toFixed(2)).join(', ')}); p50 per-pair ratio median ${round(median(ratios('cpu', 'p50')))} (spread ${spread(ratios('cpu', 'p50'))}); all ${pairs.length * KEYSTROKES} keys of each side pooled: p95 ours ${round(pooled('ours'))} ms, floor ${round(pooled('floor'))} ms (${(pooled('ours') / pooled('floor')).toFixed(2)}x)`,
      },
      { name: `${name} wall time p50`, unit: 'ms', measured: mid('ours', 'wall', 'p50'), peer: mid('floor', 'wall', 'p50'), note: `the same tasks, wall time (DevTools' task durations); ${spreads('wall', 'p50')}` },
      {
        name: `${name} wall time p95`,
        unit: 'ms',
        measured: mid('ours', 'wall', 'p95'),
        peer: mid('floor', 'wall', 'p95'),
        note: `${spreads('wall', 'p95')}; not budgeted: on this 2-core machine the main thread waits its turn with Chromium's other threads, the backend and the harness, which the floor page pays too`,
      },
    ];
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}
