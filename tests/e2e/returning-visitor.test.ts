// A returning visitor's page (this browser chatted here before) with the chat closed: the bubble
// shows the unread count without the chat's runtime (the element's badge client), first the count
// this browser last showed, then the current one, then live; reaching for the bubble hands over
// to the chat with never two sockets open in the tab. On the loader's page (a CSP allowing only
// the page's own origin, where the script and the chat service are) and the single file's.
import type { BrowserContext, Page } from 'playwright-core';
import { StreamChat } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index';
import { collectErrors, eventually, ownedDemo, recordViolations, screenshot } from './browser';

const API_KEY = 'e2e-returning';
const API_SECRET = 'e2e-returning-secret-long-enough-for-hs256';

const demo = ownedDemo(API_KEY, API_SECRET);

// Without Web Locks (older browsers) each tab keeps its own connection: the handover alone keeps it to one socket.
// Emulated in the page only: the badge's worker keeps its locks (a worker script rewritten by a
// route loses its local address, and Chromium then refuses its connections to this backend).
const PAGES = [
  { name: 'loader', path: '/loader.html', withoutLocks: false },
  { name: 'single file', path: '/', withoutLocks: false },
  { name: 'single file, in a browser without Web Locks,', path: '/', withoutLocks: true },
];

const widget = (page: Page, part: string) => page.locator(`chat-widget [part~="${part}"]`);
const badge = (page: Page) => widget(page, 'badge').textContent({ timeout: 1000 }).catch(() => null);
const aliceSays = (text: string) => demo.owner.channel('messaging', 'general').sendMessage({ text, user_id: 'alice' });
const readAll = (user: string) => demo.owner.channel('messaging', 'general').markRead({ user_id: user });

type Watched = {
  /** Every value the badge took, in order (null: no badge). */
  badges: Array<string | null>;
  sockets: { open: number; max: number; total: number };
  runtime: boolean;
};

/** The sockets each page opened (the badge's worker's among them), and how many were open at once at most. */
const socketsOf = new WeakMap<Page, Watched['sockets']>();

/** Records, from the page's first script on, every value the launcher's badge takes. */
async function watch(context: BrowserContext) {
  await context.addInitScript(() => {
    const state = { badges: [] as Array<string | null> };
    (window as unknown as { watched: typeof state }).watched = state;
    setInterval(() => {
      const shown = document.querySelector('chat-widget')?.shadowRoot?.querySelector('[part~="badge"]')?.textContent ?? null;
      if (state.badges.at(-1) !== shown) state.badges.push(shown);
    }, 5);
  });
}

/** What the page showed and opened so far, and whether the chat's runtime ran (the mark it leaves on the performance timeline). */
const watched = async (page: Page): Promise<Watched> => ({
  ...(await page.evaluate(() => ({
    ...(window as unknown as { watched: Pick<Watched, 'badges'> }).watched,
    runtime: performance.getEntriesByName('chat-widget-runtime').length > 0,
  }))),
  sockets: { ...socketsOf.get(page)! },
});

/** Bob chats once on `path` (so this browser is a returning visitor's), reads everything, and leaves the page. */
async function bobChatsOnce(context: BrowserContext, path: string) {
  const page = await context.newPage();
  await page.goto(`${demo.server.url}${path}?user=bob`);
  await widget(page, 'launcher').click();
  await widget(page, 'message-list').waitFor();
  await readAll('bob');
  await widget(page, 'launcher').click();
  // Two messages while the chat is closed: the bubble shows 2, and the browser keeps that count.
  await aliceSays(`First while Bob is away ${Date.now()}`);
  await aliceSays(`Second while Bob is away ${Date.now()}`);
  await eventually(() => badge(page)).toBe('2');
  await page.close();
}

async function returningPage(context: BrowserContext, path: string) {
  const page = await context.newPage();
  const errors = collectErrors(page);
  const violations = await recordViolations(page);
  // Chromium's own count: a worker's socket is the page's too.
  const sockets = { open: 0, max: 0, total: 0 };
  socketsOf.set(page, sockets);
  page.on('websocket', (socket) => {
    sockets.total += 1;
    sockets.open += 1;
    sockets.max = Math.max(sockets.max, sockets.open);
    socket.on('close', () => (sockets.open -= 1));
  });
  await page.goto(`${demo.server.url}${path}?user=bob`);
  return { page, errors, violations };
}

describe.each(PAGES.map((page) => [page.name, page] as const))('a returning visitor on the %s page, the chat closed', (name, { path, withoutLocks }) => {
  const browserContext = async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1200, height: 800 } });
    if (withoutLocks) await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined }));
    return context;
  };

  it('sees the count from before the load, then the current one, then each new message within a second, without the chat', async () => {
    const context = await browserContext();
    try {
      await bobChatsOnce(context, path);
      await aliceSays(`Third, before the next page ${Date.now()}`);
      await watch(context);
      const { page, errors, violations } = await returningPage(context, path);
      await eventually(() => badge(page)).toBe('3');
      // The count this browser last showed came first (the current one needs the network).
      const before = await watched(page);
      expect(before.badges.filter((shown) => shown !== null)).toEqual(['2', '3']);

      const sent = Date.now();
      await aliceSays(`Fourth, live ${Date.now()}`);
      await page.waitForFunction(() => document.querySelector('chat-widget')?.shadowRoot?.querySelector('[part~="badge"]')?.textContent === '4');
      expect(Date.now() - sent).toBeLessThan(1000);
      expect(await widget(page, 'launcher').getAttribute('aria-label')).toBe('Open chat, 4 unread');

      const after = await watched(page);
      expect(after.runtime).toBe(false);
      expect(after.sockets).toMatchObject({ total: 1, max: 1 });
      expect(await page.evaluate(() => 'ChatWidget' in window)).toBe(path === '/');
      await screenshot(page, `returning-badge-${name.replace(/\W+/g, '-')}`);
      expect(errors).toEqual([]);
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('reaching for the bubble hands over to the chat, with one socket at any moment', async () => {
    const context = await browserContext();
    try {
      await bobChatsOnce(context, path);
      await watch(context);
      // Three moments: as soon as the bubble is there (the badge client still starting), once it
      // counts live, and a click with no pointer before it (the site's own button, the keyboard).
      for (const moment of ['at once', 'counting', 'click alone'] as const) {
        const { page, errors, violations } = await returningPage(context, path);
        await widget(page, 'launcher').waitFor();
        if (moment !== 'at once') await eventually(() => badge(page)).toBe('2');
        if (moment === 'click alone') await page.evaluate(() => (document.querySelector('chat-widget') as HTMLElement & { open(): void }).open());
        else {
          await widget(page, 'launcher').hover();
          await widget(page, 'launcher').click();
        }
        await widget(page, 'message-list').waitFor();
        const live = `Seen in the chat (${moment}) ${Date.now()}`;
        await aliceSays(live);
        await eventually(() => widget(page, 'message').filter({ hasText: live }).count()).toBe(1);
        const { sockets, runtime } = await watched(page);
        expect(runtime).toBe(true);
        expect(sockets.max, moment).toBe(1);
        expect(sockets.open, moment).toBe(1);
        expect(errors.filter((error) => !/WebSocket connection to/.test(error))).toEqual([]);
        expect(violations).toEqual([]);
        // Read in the chat: the next page starts from nothing unread.
        await eventually(() => badge(page)).toBe(null);
        await widget(page, 'launcher').click();
        await aliceSays(`Unread again ${Date.now()}`);
        await aliceSays(`And again ${Date.now()}`);
        await eventually(() => badge(page)).toBe('2');
        await page.close();
      }
    } finally {
      await context.close();
    }
  });
});

describe('a returning visitor whose socket is refused while the API answers', () => {
  // A backend that refuses every WebSocket upgrade, as a proxy that blocks them would (the badge's
  // socket is its worker's, which the page's routes do not see).
  const API_KEY_REFUSED = 'e2e-returning-refused';
  let server: RunningServer;
  let owner: StreamChat;
  beforeAll(async () => {
    server = await startServer({ port: 0, apiKey: API_KEY_REFUSED, apiSecret: API_SECRET, devMode: true, staticRoot: process.cwd(), seed: true, quiet: true, refuseWebSockets: true });
    owner = new StreamChat(API_KEY_REFUSED, API_SECRET, { baseURL: server.url });
  });
  afterAll(() => server?.close());

  it('gets the count from the chat itself, which polls instead', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1200, height: 800 } });
    try {
      // This browser chatted here before; two messages came since Bob last read.
      await context.addInitScript((key) => localStorage.setItem(`chat-widget:${key}:session`, '1'), API_KEY_REFUSED);
      const general = owner.channel('messaging', 'general');
      await general.markRead({ user_id: 'bob' });
      await general.sendMessage({ text: `First while Bob is away ${Date.now()}`, user_id: 'alice' });
      await general.sendMessage({ text: `Second while Bob is away ${Date.now()}`, user_id: 'alice' });
      const page = await context.newPage();
      const errors = collectErrors(page);
      let refusedBefore = -1;
      const attempts: string[] = [];
      page.on('websocket', (socket) => attempts.push(socket.url()));
      await page.goto(`${server.url}/?user=bob`);
      // The badge's sockets are refused three times while its API call answers: the chat itself starts for the count.
      await eventually(async () => {
        const ran = await page.evaluate(() => performance.getEntriesByName('chat-widget-runtime').length);
        if (ran && refusedBefore < 0) refusedBefore = attempts.length;
        return ran;
      }).toBe(1);
      // Not any failure of the badge's worker: its own three refused sockets came first.
      expect(refusedBefore).toBeGreaterThanOrEqual(3);
      await eventually(() => badge(page)).toBe('2');
      await general.sendMessage({ text: `Polled ${Date.now()}`, user_id: 'alice' });
      await expect.poll(() => badge(page), { timeout: 20_000 }).toBe('3');
      expect(await widget(page, 'panel').count()).toBe(0);
      expect(errors.filter((error) => !/WebSocket/.test(error))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
