// The cost of the chat to the page that hosts it, in Chromium with the CPU slowed down 4x
// (Emulation.setCPUThrottlingRate). Each repeat loads, each in a fresh browser context (a
// first-time visitor: empty cache and storage), the plain page, the same page with our widget
// and a closed bubble (the single file, and the loader that fetches it), and the same
// page with the stream-chat-react peer and its closed launcher, in a rotating order. A Chromium trace of each load gives the renderer main
// thread's top-level tasks from the page's commit until one second after the bubble is painted
// (after its footer, for the plain page); the figures are medians over the repeats of each
// page's difference from the plain page loaded in the same repeat. `--host-settle-ms=N` also
// counts the tasks until N ms after the bubble, for work a page defers past that second.
import type { Browser } from 'playwright-core';
import { startBenchServer } from './backend';
import { freshPage, launchChromium, type BenchWindow } from './browser';
import { LAUNCHER, LOADER_SCRIPT, PEER_SCRIPT, PLAIN_MARK, prepareSite, WIDGET_SCRIPT } from './pages';
import { median, spread } from './stats';
import { mainThreadWork, NAVIGATION_CATEGORIES, parse, type MainThreadWork } from './trace';
import type { BenchRow } from './types';

const WARMUP = 1;
const REPEATS = 10;
const CPU_THROTTLING = 4;
const SETTLE_MS = 1000;
/** A longer window, when asked for (`--host-settle-ms=5000`): what the page does after the first second. */
const LONG_SETTLE_MS = Number(process.argv.find((arg) => arg.startsWith('--host-settle-ms='))?.split('=')[1] ?? process.env.HOST_SETTLE_MS ?? SETTLE_MS);
const BUDGET_ADDED_MAIN_THREAD_MS = 30;
const BUDGET_EXTRA_REQUESTS = 0;

type Kind = 'plain' | 'ours' | 'loader' | 'peer';
const SCRIPT = { ours: WIDGET_SCRIPT, loader: LOADER_SCRIPT, peer: PEER_SCRIPT };
type Load = MainThreadWork & { settled: MainThreadWork; bubbleMs: number; loadEventMs: number; extraRequests: string[] };

async function loadOnce(browser: Browser, origin: string, kind: Kind, path: string): Promise<Load> {
  // The plain page gets the same harness (a mark, and the wait for it): only the page differs.
  const marks: Record<string, string[]> = { bubble: kind === 'plain' ? PLAIN_MARK : LAUNCHER[kind] };
  const { context, page } = await freshPage(browser, { cpuThrottling: CPU_THROTTLING, marks });
  const url = `${origin}${path}`;
  const scriptPath = kind === 'plain' ? WIDGET_SCRIPT : SCRIPT[kind];
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('websocket', (socket) => requests.push(socket.url()));
  try {
    await browser.startTracing(page, { categories: NAVIGATION_CATEGORIES });
    let trace: Buffer;
    let bubbleMs = Number.NaN;
    try {
      await page.goto(url, { waitUntil: 'load' });
      bubbleMs = await page.evaluate(() => (window as unknown as BenchWindow).__bench.wait('bubble', 20_000));
      await page.waitForTimeout(Math.max(SETTLE_MS, LONG_SETTLE_MS) + 100);
    } finally {
      trace = await browser.stopTracing();
    }
    const loadEventMs = await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd);
    // Each page's window ends the same time after its own mark, however late tracing stopped.
    const events = parse(trace);
    const script = kind === 'plain' ? undefined : { url: `${origin}${scriptPath}`, module: kind === 'peer' };
    const until = (settleMs: number) => (Number.isNaN(bubbleMs) ? undefined : bubbleMs + settleMs);
    const work = mainThreadWork(events, url, script, until(SETTLE_MS));
    const settled = mainThreadWork(events, url, script, until(LONG_SETTLE_MS));
    const extraRequests = requests.filter((u) => u !== url && u !== `${origin}${scriptPath}`).map((u) => u.replace(origin, ''));
    return { ...work, settled, bubbleMs, loadEventMs, extraRequests };
  } finally {
    await context.close();
  }
}

export default async function hostPage(): Promise<BenchRow[]> {
  const site = await prepareSite(['general']);
  const [server, browser] = await Promise.all([startBenchServer(site.root), launchChromium()]);
  try {
    const paths: Record<Kind, string> = {
      plain: site.pages.plain,
      ours: site.pages.widget('general'),
      loader: site.pages.loader('general'),
      peer: site.pages.peer('general'),
    };
    const kinds: Kind[] = ['plain', 'ours', 'loader', 'peer'];
    const loads: Record<Kind, Load[]> = { plain: [], ours: [], loader: [], peer: [] };
    for (let i = 0; i < WARMUP + REPEATS; i++) {
      const order = [...kinds.slice(i % kinds.length), ...kinds.slice(0, i % kinds.length)];
      const repeat = {} as Record<Kind, Load>;
      for (const kind of order) repeat[kind] = await loadOnce(browser, server.url, kind, paths[kind]);
      if (i >= WARMUP) for (const kind of kinds) loads[kind].push(repeat[kind]);
    }

    // Paired: each page against the plain page of the same repeat.
    const differences = (kind: Kind, field: keyof MainThreadWork) =>
      loads[kind].map((load, i) => load[field] - (loads.plain[i]?.[field] ?? Number.NaN));
    const added = (kind: Kind, field: keyof MainThreadWork) => median(differences(kind, field));
    /** The paired differences' range: how far one load strays from the median. */
    const range = (kind: Kind, field: keyof MainThreadWork) => spread(differences(kind, field));
    const addedSettled = (kind: Kind, field: keyof MainThreadWork) =>
      median(loads[kind].map((load, i) => load.settled[field] - (loads.plain[i]?.settled[field] ?? Number.NaN)));
    const mid = (kind: Kind, field: keyof Load) => median(loads[kind].map((load) => load[field] as number));
    const ms = (n: number) => Math.round(n * 10) / 10;
    const signed = (n: number) => `${n < 0 ? '' : '+'}${ms(n)}`;
    const throttled = `${CPU_THROTTLING}x CPU`;
    const plain = `plain page alone: ${ms(mid('plain', 'busyMs'))} ms of main-thread tasks, load event at ${ms(mid('plain', 'loadEventMs'))} ms`;
    const extra = (kind: Kind) => {
      const seen = [...new Set(loads[kind].flatMap((load) => load.extraRequests))];
      return seen.length ? seen.join(', ') : 'none';
    };
    const maxExtra = (kind: Kind) => Math.max(...loads[kind].map((load) => load.extraRequests.length));

    return [
      {
        name: `host page: added main-thread time, closed bubble (${throttled})`,
        unit: 'ms',
        budget: BUDGET_ADDED_MAIN_THREAD_MS,
        measured: ms(added('ours', 'busyMs')),
        peer: ms(added('peer', 'busyMs')),
        note: `sum of top-level tasks (wall time) minus the plain page's, median of ${REPEATS} paired loads after ${WARMUP} warm-up (spread ${range('ours', 'busyMs')}, peer ${range('peer', 'busyMs')}); in thread time ours ${signed(added('ours', 'cpuMs'))} ms, peer ${signed(added('peer', 'cpuMs'))} ms; ${plain}`,
      },
      {
        name: `host page: added main-thread time, closed bubble, loader, the README's first snippet (${throttled})`,
        unit: 'ms',
        budget: BUDGET_ADDED_MAIN_THREAD_MS,
        measured: ms(added('loader', 'busyMs')),
        peer: ms(added('peer', 'busyMs')),
        note: `dist/chat-widget.loader.js, measured as the row above (spread ${range('loader', 'busyMs')}); in thread time ${signed(added('loader', 'cpuMs'))} ms (spread ${range('loader', 'cpuMs')}); script evaluation ${ms(mid('loader', 'scriptMs'))} ms; bubble painted at ${ms(mid('loader', 'bubbleMs'))} ms; longest task ${ms(mid('loader', 'longestMs'))} ms; requests before interaction: ${extra('loader')}`,
      },
      ...(LONG_SETTLE_MS > SETTLE_MS
        ? (['ours', 'loader'] as const).map((kind) => ({
            name: `host page: added main-thread time until ${LONG_SETTLE_MS / 1000} s after the bubble, ${kind === 'ours' ? 'single file' : 'loader'} (${throttled})`,
            unit: 'ms',
            measured: ms(addedSettled(kind, 'busyMs')),
            peer: ms(addedSettled('peer', 'busyMs')),
            note: `the same loads, counted ${LONG_SETTLE_MS} ms after each page's mark instead of ${SETTLE_MS}; in thread time ${signed(addedSettled(kind, 'cpuMs'))} ms; after the first second: ${signed(addedSettled(kind, 'busyMs') - added(kind, 'busyMs'))} ms (medians of differences, so not exactly the difference of the rows)`,
          }))
        : []),
      {
        name: `host page: added total blocking time (${throttled})`,
        unit: 'ms',
        measured: ms(added('ours', 'blockingMs')),
        peer: ms(added('peer', 'blockingMs')),
        note: `long tasks' time over 50 ms; longest task ours ${ms(mid('ours', 'longestMs'))} ms, peer ${ms(mid('peer', 'longestMs'))} ms, plain ${ms(mid('plain', 'longestMs'))} ms`,
      },
      {
        name: `host page: script evaluation on the main thread (${throttled})`,
        unit: 'ms',
        measured: ms(mid('ours', 'scriptMs')),
        peer: ms(mid('peer', 'scriptMs')),
        note: 'ours: EvaluateScript of chat-widget.js (defer); peer: compile and evaluation of its ES module',
      },
      {
        name: `host page: bubble visible after navigation start (${throttled})`,
        unit: 'ms',
        measured: ms(mid('ours', 'bubbleMs')),
        peer: ms(mid('peer', 'bubbleMs')),
        note: `first painted frame with the launcher laid out; plain page load event at ${ms(mid('plain', 'loadEventMs'))} ms`,
      },
      {
        name: 'host page: requests before interaction beyond the script',
        unit: 'count',
        budget: BUDGET_EXTRA_REQUESTS,
        measured: maxExtra('ours'),
        peer: maxExtra('peer'),
        note: `first-time visitor, most over the loads (HTTP and WebSocket); ours: ${extra('ours')}; peer: ${extra('peer')}`,
      },
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}
