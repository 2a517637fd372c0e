// The cost of the chat to the page that hosts it for a returning visitor, a browser that chatted
// on the site before, in Chromium with the CPU slowed down 4x as in host-page.ts. Our widget
// knows such a browser by the flag it keeps in localStorage (`chat-widget:<apiKey>:session`,
// src/browser/visitor-storage.ts) and connects for the unread count on its bubble, from a worker
// (src/element/badge-host.ts), whose socket Playwright reports as the page's; the peer is
// stream-chat-react as GetStream's quick start has a site use it (`connectAtLoad`, peer-app.tsx):
// it connects at load on every page view, for the unread count on its launcher.
//
// Every load is two page views of one fresh browser context, the second one traced: the first
// (untraced) view is of the very page the second loads, so every kind arrives with what Chromium
// kept of a view of its own page (HTTP cache, compiled code) and only the page and its storage
// differ (so no figure here is host-page.ts's, whose visitors arrive with nothing).
// For our returning kinds the flag is set between the two views, in the first view's
// localStorage under the api key its element was served with; for our first-time kinds it is
// not, and a first view that stored it itself fails the run (the "first-time" figures would
// be a returning visitor's). Those are then visitors who saw the site's pages before but never
// chatted: the fair base for "what a returning visitor adds", with the script already cached
// for both. The peer needs nothing stored; the plain page is viewed twice the same way.
//
// The window is the traced page's renderer main thread's top-level tasks from its commit until
// 4 s after its load event (the page's performance.now(), the clock of host-page.ts's bubble
// mark), for the connection and whatever follows it; the page itself waits that long before
// the trace stops. Each kind's figure is the median over the repeats of its difference from the
// plain page loaded in the same repeat, in a rotating order. Requests and WebSockets are those of
// the traced view, counted from its commit.
import type { Browser, Page } from 'playwright-core';
import { startBenchServer } from './backend';
import { freshPage, launchChromium } from './browser';
import { LOADER_SCRIPT, PEER_SCRIPT, prepareSite, WIDGET_SCRIPT } from './pages';
import { median, spread } from './stats';
import { mainThreadWork, NAVIGATION_CATEGORIES, parse, type MainThreadWork } from './trace';
import type { BenchRow } from './types';

const WARMUP = 1;
const REPEATS = 10;
const CPU_THROTTLING = 4;
/** The window's end after the load event: past our widget's idle-time storage read and the connection it starts. */
const AFTER_LOAD_MS = 4000;
/** Ours, returning, at most this share of the peer's added time in the same run. */
const BUDGET_SHARE_OF_PEER = 0.15;
/** Ours, returning, at most this many times our first-time visitor's added time in the same run. */
const BUDGET_TIMES_FIRST = 1.5;

type Kind = 'plain' | 'ours-first' | 'loader-first' | 'ours-returning' | 'loader-returning' | 'peer-returning';
const KINDS: Kind[] = ['plain', 'ours-first', 'loader-first', 'ours-returning', 'loader-returning', 'peer-returning'];
type Load = MainThreadWork & { loadEventMs: number; sockets: number; extraRequests: string[] };

/** The first view's storage for our kinds: sets the widget's "chatted here before" flag or, first-time, makes sure nothing set it. */
async function prepareStorage(page: Page, kind: Kind) {
  if (kind === 'plain' || kind === 'peer-returning') return;
  const returning = kind.endsWith('-returning');
  const before = await page.evaluate((set) => {
    // The api key as served: the backend puts its own in place of the page's placeholder.
    const key = `chat-widget:${document.querySelector('chat-widget')?.getAttribute('api-key') ?? ''}:session`;
    const stored = localStorage.getItem(key);
    if (set) localStorage.setItem(key, '1');
    return stored;
  }, returning);
  if (!returning && before !== null) throw new Error(`${kind}: the first view stored the session flag (${before}); the visitor would not be first-time`);
}

async function loadOnce(browser: Browser, origin: string, kind: Kind, path: string): Promise<Load> {
  const { context, page } = await freshPage(browser, { cpuThrottling: CPU_THROTTLING });
  const url = `${origin}${path}`;
  const script = kind.startsWith('ours') ? WIDGET_SCRIPT : kind.startsWith('loader') ? LOADER_SCRIPT : kind === 'peer-returning' ? PEER_SCRIPT : undefined;
  try {
    await page.goto(url, { waitUntil: 'load' });
    await prepareStorage(page, kind);

    // From the traced view's commit on: what the first view still had in flight is not this load's.
    let committed = false;
    let sockets = 0;
    const requests: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) committed = true;
    });
    page.on('request', (request) => {
      if (committed) requests.push(request.url());
    });
    page.on('websocket', (socket) => {
      if (!committed) return;
      sockets++;
      requests.push(socket.url());
    });

    await browser.startTracing(page, { categories: NAVIGATION_CATEGORIES });
    let trace: Buffer;
    let untilMs = Number.NaN;
    let loadEventMs = Number.NaN;
    try {
      await page.goto(url, { waitUntil: 'load' });
      // In the page, so the window's end is in its own clock: loadEventEnd is set once the load handlers have run.
      [loadEventMs, untilMs] = await page.evaluate(async (afterLoadMs) => {
        const navigation = () => performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        while (navigation().loadEventEnd === 0) await new Promise((resolve) => setTimeout(resolve, 10));
        const loaded = navigation().loadEventEnd;
        // A little past the end, so a task begun just before it has ended, and is in the trace, when tracing stops.
        await new Promise((resolve) => setTimeout(resolve, loaded + afterLoadMs + 100 - performance.now()));
        return [loaded, loaded + afterLoadMs];
      }, AFTER_LOAD_MS);
    } finally {
      trace = await browser.stopTracing();
    }
    const work = mainThreadWork(parse(trace), url, undefined, untilMs);
    const own = new Set([url, ...(script ? [`${origin}${script}`] : [])]);
    // By path alone: the queries carry ids and tokens that differ on every load.
    const extraRequests = requests.filter((u) => !own.has(u)).map((u) => `${u.startsWith('ws') ? 'WebSocket ' : ''}${new URL(u).pathname}`);
    return { ...work, loadEventMs, sockets, extraRequests };
  } finally {
    await context.close();
  }
}

export default async function returningVisitor(): Promise<BenchRow[]> {
  const site = await prepareSite(['general']);
  const [server, browser] = await Promise.all([startBenchServer(site.root), launchChromium()]);
  try {
    const paths: Record<Kind, string> = {
      plain: site.pages.plain,
      'ours-first': site.pages.widget('general'),
      'loader-first': site.pages.loader('general'),
      'ours-returning': site.pages.widget('general'),
      'loader-returning': site.pages.loader('general'),
      'peer-returning': site.pages.peerAtLoad('general'),
    };
    const loads = Object.fromEntries(KINDS.map((kind) => [kind, [] as Load[]])) as Record<Kind, Load[]>;
    for (let i = 0; i < WARMUP + REPEATS; i++) {
      const order = [...KINDS.slice(i % KINDS.length), ...KINDS.slice(0, i % KINDS.length)];
      const repeat = {} as Record<Kind, Load>;
      for (const kind of order) repeat[kind] = await loadOnce(browser, server.url, kind, paths[kind]);
      if (i >= WARMUP) for (const kind of KINDS) loads[kind].push(repeat[kind]);
    }

    // Paired: each page against the plain page of the same repeat.
    const differences = (kind: Kind, field: 'busyMs' | 'cpuMs') => loads[kind].map((load, i) => load[field] - (loads.plain[i]?.[field] ?? Number.NaN));
    const added = (kind: Kind, field: 'busyMs' | 'cpuMs' = 'busyMs') => median(differences(kind, field));
    const ms = (n: number) => Math.round(n * 10) / 10;
    const signed = (n: number) => `${n < 0 ? '' : '+'}${ms(n)}`;
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
    const socketCounts = (kind: Kind) => loads[kind].map((load) => load.sockets);
    const sockets = (kind: Kind) => `${median(socketCounts(kind))} (most ${Math.max(...socketCounts(kind))})`;
    const requests = (kind: Kind) => {
      const counts = loads[kind].map((load) => load.extraRequests.length);
      const seen = [...new Set(loads[kind].flatMap((load) => load.extraRequests))];
      return `${median(counts)} per load (most ${Math.max(...counts)})${seen.length ? `: ${seen.join(', ')}` : ''}`;
    };
    const throttled = `${CPU_THROTTLING}x CPU`;
    const counted = `tasks from commit to ${AFTER_LOAD_MS / 1000} s after the load event, wall time, minus the plain page's; median of ${REPEATS} paired loads after ${WARMUP} warm-up`;
    const plain = `plain page alone: ${ms(median(loads.plain.map((load) => load.busyMs)))} ms, load event at ${ms(median(loads.plain.map((load) => load.loadEventMs)))} ms`;
    const peer = added('peer-returning');
    const label = { ours: 'single file', loader: 'loader' } as const;

    const returningRows = (['loader', 'ours'] as const).map((ours): BenchRow => {
      const returning = `${ours}-returning` as const;
      const first = `${ours}-first` as const;
      return {
        name: `host page, returning visitor: added main-thread time, ${label[ours]} (${throttled})`,
        unit: 'ms',
        budget: ms(BUDGET_SHARE_OF_PEER * peer),
        measured: ms(added(returning)),
        peer: ms(peer),
        note:
          `budget ${BUDGET_SHARE_OF_PEER} x the peer's median in this run; ${counted} (spread ${spread(differences(returning, 'busyMs'))}, peer ${spread(differences('peer-returning', 'busyMs'))}); ` +
          `thread time ${signed(added(returning, 'cpuMs'))} ms, peer ${signed(added('peer-returning', 'cpuMs'))} ms; ` +
          `WebSockets per load ${sockets(returning)}, peer ${sockets('peer-returning')}; ` +
          `${ratio(added(returning), peer)} the peer's, ${ratio(added(returning), added(first))} our first-time visitor's; requests beyond the page and script: ${requests(returning)}; ${plain}`,
      };
    });
    const firstRows = (['loader', 'ours'] as const).map((ours): BenchRow => {
      const first = `${ours}-first` as const;
      return {
        name: `host page, returning visitor: first-time visitor, ${AFTER_LOAD_MS / 1000} s window, ${label[ours]} (${throttled})`,
        unit: 'ms',
        measured: ms(added(first)),
        peer: ms(peer),
        note: `the same window; a visitor who saw the page before but never chatted, the base of the ratio rows (spread ${spread(differences(first, 'busyMs'))}); thread time ${signed(added(first, 'cpuMs'))} ms; WebSockets per load ${sockets(first)}; requests beyond the page and script: ${requests(first)}; peer: it connects at load for every visitor`,
      };
    });
    const againstFirstRows = (['loader', 'ours'] as const).map((ours): BenchRow => {
      const returning = added(`${ours}-returning`);
      const first = added(`${ours}-first`);
      return {
        name: `host page, returning visitor: ${label[ours]}, returning / first-time visitor`,
        unit: 'x',
        budget: BUDGET_TIMES_FIRST,
        // A first-time visitor not above the plain page gives no base: the row cannot pass.
        measured: first > 0 ? Math.round((returning / first) * 100) / 100 : Number.NaN,
        note: `median added ms, returning ${signed(returning)} / first-time ${signed(first)}, same window and run${first <= 0 ? '; the first-time median is not above the plain page, so the ratio means nothing' : ''}`,
      };
    });
    const ourSockets = [...socketCounts('ours-returning'), ...socketCounts('loader-returning')];
    return [
      ...returningRows,
      ...firstRows,
      ...againstFirstRows,
      {
        name: 'host page, returning visitor: WebSockets per load',
        unit: 'count',
        measured: median(ourSockets),
        peer: median(socketCounts('peer-returning')),
        note: `median over the traced loads; ours (single file and loader, returning) most ${Math.max(...ourSockets)}, peer most ${Math.max(...socketCounts('peer-returning'))}; the peer's requests beyond the page and script: ${requests('peer-returning')}`,
      },
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}
