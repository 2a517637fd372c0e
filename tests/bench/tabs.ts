// Sockets for three tabs: a returning visitor (alice, who opened the chat once) has the demo page
// open in three tabs of one browser. Ours shares one realtime connection among them (a Web Lock
// picks the tab that holds the socket; BroadcastChannel carries its events to the others), so we
// count the chat WebSockets Chromium opens, after proving every tab live: Bob's one message
// raises each tab's badge to 1. The peer (stream-chat-react) has no badge and connects on the
// launcher's click, so its tabs are opened and proven live by the message in each panel.
// Then the holding tab closes, and we time until another tab's socket has its first frame.
import { StreamChat } from 'stream-chat';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { API_KEY, API_SECRET, startBenchServer } from './backend';
import { launchChromium } from './browser';
import { LAUNCHER, prepareSite } from './pages';
import { median, spread } from './stats';
import type { BenchRow } from './types';

const REPEATS = 5;
const TABS = 3;
const BUDGET_SOCKETS = 1;
const BUDGET_TAKEOVER_MS = 2000;
const LIVE_TIMEOUT_MS = 10_000;

type Socket = { page: Page; created: number; firstFrame: Promise<number>; closed: boolean };

/** A browser context whose pages' chat sockets are recorded as they open. */
async function visitorBrowser(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 860 } });
  await context.addInitScript(() => addEventListener('chat-widget-ready', () => ((window as { chatReady?: boolean }).chatReady = true)));
  const sockets: Socket[] = [];
  async function tab(url: string): Promise<Page> {
    const page = await context.newPage();
    page.on('websocket', (socket) => {
      if (!socket.url().includes('/connect?')) return;
      const created = performance.now();
      const firstFrame = new Promise<number>((resolve) => socket.once('framereceived', () => resolve(performance.now())));
      const entry: Socket = { page, created, firstFrame, closed: false };
      sockets.push(entry);
      socket.on('close', () => (entry.closed = true));
    });
    await page.goto(url);
    return page;
  }
  return { context, sockets, tab };
}

/** Polls `read` until it gives `want`; false if it has not by the timeout. */
async function until<T>(read: () => Promise<T>, want: T, timeoutMs = LIVE_TIMEOUT_MS): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await read().catch(() => undefined)) === want) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

const badge = (page: Page) => page.locator('chat-widget [part~="badge"]').textContent({ timeout: 500 });

type Round = { opened: number; live: boolean; takeoverMs: number; createdMs: number };

async function oursOnce(browser: Browser, url: string, owner: StreamChat, round: number): Promise<Round> {
  const { context, sockets, tab } = await visitorBrowser(browser);
  try {
    const first = await tab(`${url}/?user=alice`);
    // Once opened and closed, the widget is a returning visitor's, which connects at page load.
    await first.locator('chat-widget [part~="launcher"]').click();
    await first.locator('chat-widget [part~="message-list"]').waitFor();
    await first.locator('chat-widget [part~="launcher"]').click();
    const general = owner.channel('messaging', 'general');
    await general.markRead({ user_id: 'alice' });
    const pages = [first];
    while (pages.length < TABS) pages.push(await tab(`${url}/?user=alice`));
    // Connected, not only showing the badge this browser kept: the widget says so when its session is.
    const ready = await Promise.all(pages.slice(1).map((page) => until(() => page.evaluate(() => (window as { chatReady?: boolean }).chatReady === true), true)));
    await general.sendMessage({ text: `One for every tab, round ${round}, ${Date.now()}`, user_id: 'bob' });
    const live = ready.every(Boolean) && (await Promise.all(pages.map((page) => until(() => badge(page), '1')))).every(Boolean);
    const opened = sockets.length;

    // The holder goes; the lock passes to a waiting tab, which opens its own socket.
    const holder = sockets.find((socket) => !socket.closed)?.page;
    const takeover = await timeTakeover(context, sockets, holder);
    return { opened, live, ...takeover };
  } finally {
    await context.close();
  }
}

async function timeTakeover(context: BrowserContext, sockets: Socket[], holder: Page | undefined) {
  if (!holder) return { takeoverMs: Number.NaN, createdMs: Number.NaN };
  const before = sockets.length;
  const closing = performance.now();
  await holder.close();
  const deadline = Date.now() + 10_000;
  while (sockets.length === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  const next = sockets[before];
  if (!next || next.page === holder || !context.pages().includes(next.page)) return { takeoverMs: Number.NaN, createdMs: Number.NaN };
  const framed = await Promise.race([next.firstFrame, new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), 10_000))]);
  return { takeoverMs: framed - closing, createdMs: next.created - closing };
}

/** The peer: each tab opens its panel (it connects on that click), and Bob's message shows in all three. */
async function peerOnce(browser: Browser, url: string, owner: StreamChat, round: number): Promise<Round> {
  const { context, sockets, tab } = await visitorBrowser(browser);
  try {
    const pages: Page[] = [];
    while (pages.length < TABS) {
      const page = await tab(url);
      await page.locator(LAUNCHER.peer.join(' ')).click();
      await page.locator('.str-chat__message-list').waitFor();
      pages.push(page);
    }
    const text = `One for every peer tab, round ${round}, ${Date.now()}`;
    await owner.channel('messaging', 'general').sendMessage({ text, user_id: 'bob' });
    const shown = (page: Page) => page.locator('.str-chat__message', { hasText: text }).count();
    const live = (await Promise.all(pages.map((page) => until(() => shown(page), 1)))).every(Boolean);
    return { opened: sockets.length, live, takeoverMs: Number.NaN, createdMs: Number.NaN };
  } finally {
    await context.close();
  }
}

export default async function tabs(): Promise<BenchRow[]> {
  // Ours on the demo page (served from the project), the peer on the prepared site: two backends.
  const site = await prepareSite(['general']);
  const [browser, server, peerServer] = await Promise.all([launchChromium(), startBenchServer(process.cwd()), startBenchServer(site.root)]);
  const owner = new StreamChat(API_KEY, API_SECRET, { baseURL: server.url });
  const peerOwner = new StreamChat(API_KEY, API_SECRET, { baseURL: peerServer.url });
  try {
    const ours: Round[] = [];
    const peer: Round[] = [];
    for (let round = 0; round < REPEATS; round += 1) {
      ours.push(await oursOnce(browser, server.url, owner, round));
      peer.push(await peerOnce(browser, `${peerServer.url}${site.pages.peer('general')}`, peerOwner, round));
    }
    // A tab that never showed Bob's message may simply have had no socket: such a count proves nothing.
    const sockets = (rounds: Round[]) => (rounds.every((r) => r.live) ? Math.max(...rounds.map((r) => r.opened)) : Number.POSITIVE_INFINITY);
    const counts = (rounds: Round[]) => rounds.map((r) => r.opened).join(', ');
    const dead = (rounds: Round[]) => rounds.filter((r) => !r.live).length;
    const takeovers = ours.map((r) => r.takeoverMs);
    const finite = takeovers.filter(Number.isFinite);
    return [
      {
        name: 'sockets for three tabs of one visitor',
        unit: 'count',
        measured: sockets(ours),
        budget: BUDGET_SOCKETS,
        peer: sockets(peer),
        note:
          `most over ${REPEATS} browsers (ours ${counts(ours)}; peer ${counts(peer)}); chat WebSockets opened once every tab showed Bob's message ` +
          `(ours: badge 1 on the demo page as a returning visitor; peer: in each tab's open panel, as it connects on the click)` +
          (dead(ours) + dead(peer) ? `; tabs not live in ${dead(ours)} of ours, ${dead(peer)} of the peer's browsers` : ''),
      },
      {
        name: 'sockets for three tabs: holding tab closed → next socket open (median)',
        unit: 'ms',
        measured: finite.length === takeovers.length ? Math.round(median(finite)) : Number.POSITIVE_INFINITY,
        budget: BUDGET_TAKEOVER_MS,
        note: `from page.close() to the new socket's first frame, ${finite.length} of ${REPEATS} rounds, range ${spread(finite)} ms; socket created after ${Math.round(median(ours.map((r) => r.createdMs).filter(Number.isFinite)))} ms (median)`,
      },
    ];
  } finally {
    await browser.close();
    await server.close();
    await peerServer.close();
  }
}
