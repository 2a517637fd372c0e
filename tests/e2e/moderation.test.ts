// A ban arriving live in Chromium: the site makes Alice a moderator of the demo channel with the
// server-side SDK, she bans Bob from his message's menu, and Bob's open panel says so at once and
// stops him writing, until the site lifts the ban.
import type { Browser, Page } from 'playwright-core';
import { StreamChat } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index';
import { eventually, launchChromium, openChat, screenshot, startDemoServer, type Visitor } from './browser';

const API_KEY = 'e2e-moderation';
const API_SECRET = 'e2e-moderation-secret-long-enough-for-hs256';
let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchChromium(),
    startDemoServer(API_KEY, API_SECRET),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const visitor = (user: string): Promise<Visitor> => openChat(browser, server.url, user);

const message = (page: Page, text: string) => page.locator('chat-widget [part~="message"]', { hasText: text }).last();

describe('moderation in Chromium', () => {
  it('a moderator bans a member from the message menu; the ban reaches the member live and ends when lifted', async () => {
    const site = new StreamChat(API_KEY, API_SECRET, { baseURL: server.url });
    await site.channel('messaging', 'general').addModerators(['alice']);
    const alice = await visitor('alice');
    const bob = await visitor('bob');
    try {
      const text = `Buy cheap followers now ${Date.now()}`;
      const input = bob.page.locator('chat-widget [part~="composer-input"]');
      await input.fill(text);
      await input.press('Enter');
      await eventually(() => message(alice.page, text).count()).toBe(1);

      await message(alice.page, text).hover();
      await message(alice.page, text).locator('[part~="message-actions-button"]').click();
      await alice.page.getByRole('menuitem', { name: 'Ban from this conversation' }).click();
      // The first choice arms it; the second confirms.
      await alice.page.getByRole('menuitem', { name: /Ban from this conversation: are you sure/ }).click();

      await eventually(() => bob.page.locator('chat-widget [part~="banned-notice"]').textContent()).toBe('You are banned from this conversation.');
      expect(await input.isDisabled()).toBe(true);
      await screenshot(bob.page, 'banned-bob');

      await site.channel('messaging', 'general').unbanUser('bob');
      await eventually(() => bob.page.locator('chat-widget [part~="banned-notice"]').count()).toBe(0);
      expect(await input.isDisabled()).toBe(false);
      expect(alice.errors).toEqual([]);
      expect(bob.errors).toEqual([]);
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  });
});
