// The widget under the backend's limits, in Chromium: a send refused for its rate (429, code 9)
// says when to try again and keeps the message, whose Retry then stores it once; a connection
// refused by the per-user cap (code 71) shows the error state, whose "Try again" connects once
// a connection is free.
import type { Browser, Page } from 'playwright-core';
import { StreamChat } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index';
import type { Limits } from '../../src/server/limits';
import { eventually, launchChromium, openChat, screenshot, visit } from './browser';

const API_KEY = 'e2e-limits';
const API_SECRET = 'e2e-limits-secret-long-enough-for-hs256';
let browser: Browser;
const servers: RunningServer[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
});

async function demoServer(limits: Partial<Limits>): Promise<RunningServer> {
  const server = await startServer({ port: 0, apiKey: API_KEY, apiSecret: API_SECRET, devMode: true, staticRoot: process.cwd(), seed: true, quiet: true, limits });
  servers.push(server);
  return server;
}

const inWidget = (page: Page, selector: string) => page.locator(`chat-widget ${selector}`);

describe('the widget under limits in Chromium', () => {
  it('a send over the rate limit says when to retry, keeps the message, and its Retry stores it once', async () => {
    // Three sends per user per window, and a window of 5 s so that the test sees it end.
    const server = await demoServer({ userRequestsPerMinute: 3, rateLimitWindowMs: 5_000 });
    const alice = await openChat(browser, server.url, 'alice');
    try {
      const input = inWidget(alice.page, '[part~="composer-input"]');
      const stamp = Date.now();
      for (let i = 1; i <= 4; i++) {
        await input.fill(`Quick ${i} ${stamp}`);
        await input.press('Enter');
      }
      const fourth = inWidget(alice.page, '[part~="message"]').filter({ hasText: `Quick 4 ${stamp}` });
      await eventually(() => fourth.locator('.message-failed').count()).toBe(1);
      const notice = await inWidget(alice.page, '[part~="notice"]').textContent();
      expect(notice).toMatch(/^Sending too fast; try again in [1-6] s\.$/);
      // What was typed is kept, on the message, for a retry.
      expect(await fourth.locator('.message-failed').textContent()).toBe('Not sent: sending too fast. Retry Delete');
      await screenshot(alice.page, 'limits-sending-too-fast');

      // Once the window has ended, Retry stores it (the same id: once).
      await alice.page.waitForTimeout(5_500);
      await fourth.getByRole('button', { name: 'Retry' }).click();
      await eventually(() => fourth.locator('.message-failed').count()).toBe(0);
      await eventually(() => fourth.locator('.message-state').filter({ hasText: 'Sending…' }).count()).toBe(0);

      const site = new StreamChat(API_KEY, API_SECRET, { baseURL: server.url });
      const { results } = await site.search({ cid: 'messaging:general' }, `${stamp}`, { limit: 10 });
      expect(results.map((r) => r.message.text).sort()).toEqual([1, 2, 3, 4].map((i) => `Quick ${i} ${stamp}`));
    } finally {
      await alice.context.close();
    }
  });

  it('a connection refused by the per-user cap shows the error state, and Try again connects once one is free', async () => {
    const server = await demoServer({ maxConnectionsPerUser: 1 });
    const first = await openChat(browser, server.url, 'alice');
    const second = await visit(browser, `${server.url}/?user=alice`, { viewport: { width: 1000, height: 760 } });
    try {
      await second.page.locator('chat-widget [part~="launcher"]').click();
      const unavailable = second.page.locator('chat-widget [part~="status-error"]');
      await eventually(() => unavailable.count()).toBe(1);
      expect(await unavailable.textContent()).toContain('Could not connect to chat: too many chat windows are open; close one and try again.');
      await screenshot(second.page, 'limits-connection-refused');
      const retry = unavailable.getByRole('button', { name: 'Try again' });
      expect(await retry.count()).toBe(1);

      await first.context.close();
      await retry.click();
      await eventually(() => second.page.locator('chat-widget [part~="composer-input"]').count()).toBe(1);
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });
});
