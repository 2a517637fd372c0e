import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index';
import { eventually, launchChromium, openChat, screenshot, startDemoServer, type Visitor } from './browser';

let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchChromium(),
    startDemoServer('e2e-view', 'e2e-view-secret-long-enough-for-hs256'),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const visitor = (user: string): Promise<Visitor> => openChat(browser, server.url, user);

const message = (page: Page, text: string) => page.locator('chat-widget [part~="message"]', { hasText: text }).last();

async function send(page: Page, text: string) {
  const input = page.locator('chat-widget [part~="composer-input"]');
  await input.fill(text);
  await input.press('Enter');
  await eventually(() => message(page, text).count()).toBe(1);
}

describe('the channel view in Chromium, two users', () => {
  it('reactions, threads and pins made by one user appear live for the other', async () => {
    const alice = await visitor('alice');
    const bob = await visitor('bob');
    try {
      const text = `Pick a trail for Saturday ${Date.now()}`;
      await send(alice.page, text);
      await eventually(() => message(bob.page, text).count()).toBe(1);

      // Bob reacts through the keyboard-accessible menu.
      await message(bob.page, text).hover();
      await message(bob.page, text).locator('[part~="message-actions-button"]').click();
      await bob.page.getByRole('menuitem', { name: 'React with like' }).click();
      await eventually(() => message(alice.page, text).locator('[part~="reaction"]').textContent()).toMatch(/👍\s*1/);

      // Bob replies in a thread; Alice sees the reply count.
      await message(bob.page, text).locator('[part~="message-actions-button"]').click();
      await bob.page.getByRole('menuitem', { name: 'Reply in thread' }).click();
      const reply = bob.page.locator('chat-widget [part~="composer-input"]');
      await reply.fill('The coast path, if it is dry');
      await reply.press('Enter');
      await eventually(() => bob.page.locator('chat-widget [part~="thread"]').textContent()).toContain('The coast path');
      await screenshot(bob.page, 'thread-bob');
      await eventually(() => message(alice.page, text).locator('[part~="thread-link"]').textContent()).toBe('1 reply');

      // Alice pins it; Bob's pinned bar shows it.
      await message(alice.page, text).locator('[part~="message-actions-button"]').click();
      await alice.page.getByRole('menuitem', { name: 'Pin' }).click();
      await bob.page.getByRole('button', { name: /^Back to / }).click();
      await eventually(() => bob.page.locator('chat-widget [part~="pinned-bar"]').textContent()).toContain('Pick a trail');
      await screenshot(alice.page, 'reactions-alice');
      await screenshot(bob.page, 'pinned-bob');
      expect(alice.errors).toEqual([]);
      expect(bob.errors).toEqual([]);
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  });

  it('the message menu works from the keyboard alone', async () => {
    const alice = await visitor('alice');
    try {
      const text = `Keyboard only ${Date.now()}`;
      await send(alice.page, text);
      const trigger = message(alice.page, text).locator('[part~="message-actions-button"]');
      await trigger.focus();
      await alice.page.keyboard.press('Enter');
      await eventually(() => alice.page.locator('chat-widget [role="menu"]').count()).toBe(1);
      await alice.page.keyboard.press('End');
      await alice.page.keyboard.press('Escape');
      await eventually(() => alice.page.locator('chat-widget [role="menu"]').count()).toBe(0);
      expect(await trigger.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    } finally {
      await alice.context.close();
    }
  });
});
