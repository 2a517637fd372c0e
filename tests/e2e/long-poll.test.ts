// The long-poll fallback in Chromium: the backend refuses every WebSocket
// upgrade, as a proxy that blocks them would; the widget (the SDK with enableWSFallback) gives up
// on the socket after its 6 s and polls GET /longpoll instead, and two visitors still chat live.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index';
import { eventually, launchChromium, screenshot, visit, type Visitor } from './browser';

const API_KEY = 'e2e-longpoll-key';
const API_SECRET = 'e2e-longpoll-secret-long-enough-for-hs256';

let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchChromium(),
    startServer({ port: 0, apiKey: API_KEY, apiSecret: API_SECRET, devMode: true, staticRoot: process.cwd(), seed: true, quiet: true, refuseWebSockets: true }),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

type Transport = { sockets: string[]; polls: number };

/** Counts the page's WebSocket attempts and long-poll requests. */
function watchTransport(page: Page): Transport {
  const seen: Transport = { sockets: [], polls: 0 };
  page.on('websocket', (ws) => seen.sockets.push(ws.url()));
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/longpoll' && request.method() === 'GET') seen.polls += 1;
  });
  return seen;
}

/** Opens the bubble; the first connect waits out the SDK's 6 s for the socket before it falls back. */
async function openChat(visitor: Visitor) {
  await visitor.page.locator('chat-widget [part~="launcher"]').click();
  await visitor.page.locator('chat-widget [part~="composer-input"]').waitFor({ timeout: 30_000 });
}

async function send(page: Page, text: string) {
  const input = page.locator('chat-widget [part~="composer-input"]');
  await input.fill(text);
  await input.press('Enter');
  await eventually(() => page.locator('chat-widget [part~="own-message"]', { hasText: text }).count()).toBe(1);
}

/** Page errors other than the refused socket itself, which Chromium reports on the console. */
const unexpected = (errors: string[]) => errors.filter((error) => !/^WebSocket connection to .* failed/.test(error));

describe('the widget with WebSocket upgrades refused', () => {
  it('falls back to long-poll, and two visitors chat live', async () => {
    const alice = await visit(browser, `${server.url}/?user=alice`);
    const bob = await visit(browser, `${server.url}/?user=bob`);
    const aliceTransport = watchTransport(alice.page);
    const bobTransport = watchTransport(bob.page);
    try {
      await Promise.all([openChat(alice), openChat(bob)]);
      expect(aliceTransport.sockets.length).toBeGreaterThan(0);
      expect(aliceTransport.polls).toBeGreaterThan(0);
      expect(bobTransport.polls).toBeGreaterThan(0);

      const hello = `Hello Bob, over long-poll ${Date.now()}`;
      await send(alice.page, hello);
      await eventually(() => bob.page.locator('chat-widget [part~="message"]', { hasText: hello }).count()).toBe(1);

      const reply = `Hi Alice, polled back ${Date.now()}`;
      await send(bob.page, reply);
      await eventually(() => alice.page.locator('chat-widget [part~="message"]', { hasText: reply }).count()).toBe(1);
      await screenshot(alice.page, 'long-poll-alice');
      await screenshot(bob.page, 'long-poll-bob');

      expect(unexpected(alice.errors)).toEqual([]);
      expect(unexpected(bob.errors)).toEqual([]);
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  }, 90_000);
});
