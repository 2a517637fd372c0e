// Tabs of one visitor share one realtime connection: the tab holding a Web Lock has the socket,
// the others hear its events over BroadcastChannel. Counted by the sockets Chromium opens.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { collectErrors, eventually, ownedDemo, screenshot } from './browser';
import { controlNetwork, listedTexts } from './network';

const API_KEY = 'e2e-one-connection';
const API_SECRET = 'e2e-one-connection-secret-long-enough-for-hs256';

const demo = ownedDemo(API_KEY, API_SECRET);

const widget = (page: Page, part: string) => page.locator(`chat-widget [part~="${part}"]`);
const badge = (page: Page) => widget(page, 'badge').textContent({ timeout: 1000 }).catch(() => null);

type Tab = { page: Page; errors: string[] };

/**
 * The visitor's browser: its tabs and every chat connection any of them opened (a socket, or a
 * long-poll where the SDK fell back to one: on a busy machine a socket may be slow to open).
 */
async function browserOf(options: { withoutLocks?: boolean } = {}) {
  const context = await demo.browser.newContext({ viewport: { width: 1000, height: 760 } });
  if (options.withoutLocks) {
    await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined }));
  }
  const sockets: Array<{ page: Page; closed: boolean }> = [];
  const open = () => sockets.filter((entry) => !entry.closed);
  async function tab(): Promise<Tab> {
    const page = await context.newPage();
    const errors = collectErrors(page);
    page.on('websocket', (socket) => {
      if (!socket.url().includes('/connect?')) return;
      const entry = { page, closed: false };
      sockets.push(entry);
      socket.on('close', () => (entry.closed = true));
    });
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/longpoll') && url.searchParams.has('json')) sockets.push({ page, closed: false });
    });
    await page.goto(`${demo.server.url}/?user=alice`);
    return { page, errors };
  }
  return { context, sockets, open, tab };
}

/** Alice opens the chat once (so later pages are a returning visitor's, counting unread messages at load) and closes it. */
async function chatOnce(tab: Tab) {
  await widget(tab.page, 'launcher').click();
  await widget(tab.page, 'message-list').waitFor();
  await widget(tab.page, 'launcher').click();
}

/**
 * Alice as a returning visitor with nothing unread: the first tab opened the chat once (its chat
 * holds the connection), then `more` tabs load, whose closed bubbles count without the chat.
 */
async function returningVisitor(more: number, options: { withoutLocks?: boolean } = {}) {
  const browser = await browserOf(options);
  const first = await browser.tab();
  await chatOnce(first);
  await readAll();
  const tabs = [first];
  for (let n = 0; n < more; n += 1) tabs.push(await browser.tab());
  return { ...browser, tabs };
}

const bobSays = (text: string) => demo.owner.channel('messaging', 'general').sendMessage({ text, user_id: 'bob' });

/** Unread counts start from what Alice has read: the channel is marked read as the owner. */
const readAll = () => demo.owner.channel('messaging', 'general').markRead({ user_id: 'alice' });

/** Errors other than a closed tab's socket. */
const unexpected = (errors: string[]) => errors.filter((error) => !/WebSocket connection to/.test(error));

/**
 * Freezes a tab as the browser does a hidden one: the `freeze` event, then no script runs until
 * the returned function wakes it (its sockets stay open, their frames wait). Headless Chromium
 * shows every page, and the DevTools lifecycle call freezes only a hidden page, so the script is
 * held by the debugger instead: at a `debugger` statement it runs, not by `Debugger.pause`, which
 * waits for the page's next script and never comes on a tab that runs none meanwhile.
 */
async function freeze(page: Page, { hung = false } = {}): Promise<() => Promise<void>> {
  const debuggerSession = await page.context().newCDPSession(page);
  // Hung (a page's own script busy for long): held the same way, with no freeze said.
  if (!hung) await page.evaluate(() => document.dispatchEvent(new Event('freeze')));
  await debuggerSession.send('Debugger.enable');
  const paused = new Promise<void>((resolve) => debuggerSession.once('Debugger.paused', () => resolve()));
  // Answered only once resumed.
  void debuggerSession.send('Runtime.evaluate', { expression: 'debugger' }).catch(() => undefined);
  await paused;
  return async () => {
    await debuggerSession.send('Debugger.resume');
    await debuggerSession.send('Debugger.disable');
    if (!hung) await page.evaluate(() => document.dispatchEvent(new Event('resume')));
  };
}


describe('one connection per browser', () => {
  it('three tabs hold one socket, agree on the badge, and another tab takes over within 2 s when the holder closes', async () => {
    const { context, sockets, tabs } = await returningVisitor(2);
    const [first, second, third] = tabs as [Tab, Tab, Tab];
    try {

      await bobSays(`One for every tab ${Date.now()}`);
      for (const { page } of tabs) await eventually(() => badge(page)).toBe('1');
      expect(sockets.length).toBe(1);
      expect(sockets[0]?.page).toBe(first.page);

      // The second tab reads the conversation on the first tab's connection.
      await widget(second.page, 'launcher').click();
      await widget(second.page, 'message-list').waitFor();
      const live = `Seen live in the second tab ${Date.now()}`;
      await bobSays(live);
      await eventually(() => widget(second.page, 'message').filter({ hasText: live }).count()).toBe(1);
      // Read there, so read everywhere: the badge goes in the other tabs too.
      await eventually(() => badge(first.page)).toBe(null);
      await eventually(() => badge(third.page)).toBe(null);
      expect(sockets.length).toBe(1);

      // The holder goes: a message sent at once is not missed, and another tab holds a socket.
      const closedAt = Date.now();
      await first.page.close();
      const meanwhile = `Sent as the holder left ${Date.now()}`;
      await bobSays(meanwhile);
      await eventually(async () => sockets.length).toBe(2);
      const takenOver = Date.now() - closedAt;
      expect(takenOver).toBeLessThan(2000);
      expect([second.page, third.page]).toContain(sockets[1]?.page);

      await eventually(() => widget(second.page, 'message').filter({ hasText: meanwhile }).count()).toBe(1);
      const after = `After the change of holder ${Date.now()}`;
      await bobSays(after);
      await eventually(() => widget(second.page, 'message').filter({ hasText: after }).count()).toBe(1);
      await screenshot(second.page, 'one-connection-after-takeover');
      // With the panel closed, the next message raises the badge in both remaining tabs alike.
      await widget(second.page, 'launcher').click();
      await bobSays(`Unread in both tabs ${Date.now()}`);
      await eventually(() => badge(second.page)).toBe('1');
      await eventually(() => badge(third.page)).toBe('1');
      expect(sockets.length).toBe(2);
      expect(unexpected([...second.errors, ...third.errors])).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a frozen holder lets another tab take the connection, and follows it when it wakes', async () => {
    const { context, sockets, open, tabs } = await returningVisitor(1);
    const [first, second] = tabs as [Tab, Tab];
    try {
      await bobSays(`Before the freeze ${Date.now()}`);
      await eventually(() => badge(second.page)).toBe('1');
      expect(sockets.length).toBe(1);

      const frozenAt = Date.now();
      const wake = await freeze(first.page);
      await eventually(async () => sockets.filter((entry) => entry.page === second.page).length).toBe(1);
      expect(Date.now() - frozenAt).toBeLessThan(2000);
      await bobSays(`While the first tab sleeps ${Date.now()}`);
      await eventually(() => badge(second.page)).toBe('2');

      await wake();
      // Awake, the first tab closes its own socket and hears the second tab's.
      await eventually(async () => open().length).toBe(1);
      expect(open()[0]?.page).toBe(second.page);
      await bobSays(`After the wake ${Date.now()}`);
      await eventually(() => badge(first.page)).toBe('3');
      await eventually(() => badge(second.page)).toBe('3');
      expect(unexpected([...first.errors, ...second.errors])).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a frozen tab whose closed bubble holds the connection lets another take it, and follows it when it wakes', async () => {
    const { context, sockets, open, tab } = await browserOf();
    try {
      const chatted = await tab();
      await chatOnce(chatted);
      await readAll();
      await chatted.page.close();
      // The sockets of the tabs still open (a closed tab's may not report its close).
      const live = () => open().filter((entry) => !entry.page.isClosed()).map((entry) => entry.page);
      // Two closed bubbles: the first's badge worker holds the connection, the second follows it.
      const first = await tab();
      await eventually(async () => live().length).toBe(1);
      const second = await tab();
      await bobSays(`Before the freeze ${Date.now()}`);
      await eventually(() => badge(first.page)).toBe('1');
      await eventually(() => badge(second.page)).toBe('1');
      expect(live()).toEqual([first.page]);

      // Frozen, the first tab's worker is ended: its lock and socket go, and the second tab connects.
      const frozenAt = Date.now();
      const wake = await freeze(first.page);
      await eventually(async () => live()).toEqual([second.page]);
      expect(Date.now() - frozenAt).toBeLessThan(2000);
      await bobSays(`While the first tab sleeps ${Date.now()}`);
      await eventually(() => badge(second.page)).toBe('2');

      // Awake, the first tab's new worker follows the second tab's connection.
      await wake();
      await bobSays(`After the wake ${Date.now()}`);
      await eventually(() => badge(first.page)).toBe('3');
      await eventually(() => badge(second.page)).toBe('3');
      expect(live()).toEqual([second.page]);
      expect(await first.page.evaluate(() => performance.getEntriesByName('chat-widget-runtime').length)).toBe(0);
      expect(unexpected([...first.errors, ...second.errors])).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("a closed bubble whose holder hangs, unanswered for 20 s, counts on a socket of its own", async () => {
    const { context, sockets, tab } = await browserOf();
    try {
      // The first tab's chat (opened once, now closed) holds the connection, then its page hangs (no freeze said, no answer).
      const first = await tab();
      await chatOnce(first);
      await readAll();
      expect(sockets.length).toBe(1);
      const wake = await freeze(first.page, { hung: true });
      const asked = Date.now();
      const second = await tab();
      await expect.poll(async () => sockets.filter((entry) => entry.page === second.page).length, { timeout: 30_000 }).toBe(1);
      expect(Date.now() - asked).toBeGreaterThan(19_000);
      await bobSays(`While the holder hangs ${Date.now()}`);
      await eventually(() => badge(second.page)).toBe('1');
      // Awake and then gone, the first tab leaves the lock to the second, which keeps its socket.
      await wake();
      await first.page.close();
      await bobSays(`After the holder left ${Date.now()}`);
      await eventually(() => badge(second.page)).toBe('2');
      expect(sockets.filter((entry) => entry.page === second.page).length).toBe(1);
      expect(unexpected(second.errors)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('after an outage, a tab on the shared connection shows every message sent meanwhile', async () => {
    const { context, sockets, tab } = await browserOf();
    const network = await controlNetwork(context);
    try {
      const first = await tab();
      await chatOnce(first);
      const second = await tab();
      await widget(second.page, 'launcher').click();
      await widget(second.page, 'message-list').waitFor();
      const before = `Before the tunnel, in the second tab ${Date.now()}`;
      await bobSays(before);
      await eventually(() => widget(second.page, 'message').filter({ hasText: before }).count()).toBe(1);
      expect(sockets.length).toBe(1);

      await network.cut();
      await eventually(() => widget(second.page, 'offline-banner').count()).toBe(1);
      const missed = Array.from({ length: 40 }, (_, i) => `Missed by both tabs, ${i + 1} of 40 ${Date.now()}`);
      for (const text of missed) await bobSays(text);
      await eventually(async () => network.refused).toBeGreaterThanOrEqual(2);
      await network.restore();
      await eventually(() => widget(second.page, 'message').filter({ hasText: missed.at(-1) ?? '' }).count()).toBe(1);
      expect(await listedTexts(second.page, before)).toEqual([before, ...missed]);
      expect(await widget(second.page, 'offline-banner').count()).toBe(0);
      // Still one connection: the holder's, opened again.
      expect(sockets.filter((entry) => entry.page === second.page).length).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('a holding tab that cannot connect lets the next tab connect', async () => {
    const { context, sockets, tab } = await browserOf();
    try {
      const first = await tab();
      await chatOnce(first);
      await readAll();
      await first.page.close();
      // A tab whose own way to the chat is blocked (a proxy refusing its socket and its polls)
      // takes the lock first; the tab opened after it waits for its connection. Its badge's
      // worker script does not load, so the chat itself holds the lock, where the routes apply.
      const page = await context.newPage();
      await page.route(/chat-widget\.badge\.js/, (route) => route.abort('connectionrefused'));
      await page.routeWebSocket(/\/connect\?/, (ws) => void ws.close({ code: 1011, reason: 'blocked' }));
      await page.route(/\/longpoll/, (route) => route.abort('connectionrefused'));
      await page.goto(`${demo.server.url}/?user=alice`);
      // The chat, not the badge's worker, is this tab's holder.
      await eventually(() => page.evaluate(() => performance.getEntriesByName('chat-widget-runtime').length)).toBe(1);
      const second = await tab();
      await bobSays(`Reaches the tab that could connect ${Date.now()}`);
      await eventually(() => badge(second.page)).toBe('1');
      expect(sockets.filter((entry) => entry.page === second.page).length).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('a browser without Web Locks keeps one connection per tab', async () => {
    const { context, sockets, tabs } = await returningVisitor(1, { withoutLocks: true });
    const [first, second] = tabs as [Tab, Tab];
    try {
      await bobSays(`Each tab on its own ${Date.now()}`);
      await eventually(() => badge(first.page)).toBe('1');
      await eventually(() => badge(second.page)).toBe('1');
      // The second tab may show the count this browser last showed before its socket is open.
      await eventually(async () => sockets.length).toBe(2);
      await bobSays(`And live on each ${Date.now()}`);
      await eventually(() => badge(first.page)).toBe('2');
      await eventually(() => badge(second.page)).toBe('2');
      expect(sockets.length).toBe(2);
    } finally {
      await context.close();
    }
  });
});
