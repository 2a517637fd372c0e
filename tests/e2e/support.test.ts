// Private support conversations in Chromium: on the demo's Support page each visitor (Alice, and
// a guest) gets a conversation of their own with the agent, named by the token endpoint; the
// agent's inbox (agent.html, the widget listing channels) shows each one with its unread count,
// newest first, and a reply from the inbox reaches the visitor live. No visitor sees another's.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index';
import { eventually, launchChromium, screenshot, startDemoServer, visit, type Visitor } from './browser';

let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchChromium(),
    startDemoServer('e2e-support', 'e2e-support-secret-long-enough-for-hs256'),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const widget = (page: Page, part: string) => page.locator(`chat-widget [part~="${part}"]`);

const open = (path: string): Promise<Visitor> => visit(browser, `${server.url}${path}`, { viewport: { width: 1200, height: 860 } });

async function send(page: Page, text: string) {
  const input = widget(page, 'composer-input');
  await input.fill(text);
  await input.press('Enter');
  await eventually(() => widget(page, 'message').filter({ hasText: text }).count()).toBe(1);
}

describe('support conversations', () => {
  it('gives each visitor their own conversation with the agent, listed live in the agent\'s inbox', async () => {
    const alice = await open('/inline.html?user=alice');
    const guest = await open('/inline.html?user=guest');
    const agent = await open('/agent.html');
    try {
      await eventually(() => widget(alice.page, 'header').textContent()).toContain('Support · Alice');
      await eventually(() => widget(guest.page, 'header').textContent()).toMatch(/Support · Guest/);
      await send(alice.page, 'Where is my order HP-1042?');
      await send(guest.page, 'Do you ship to Norway?');

      // The inbox lists both, the newest first, each with what the agent has not read.
      const items = widget(agent.page, 'channel-item');
      // The list follows events: on a busy machine the guest's row may arrive before it moves up.
      const rows = async () => (await items.allTextContents()).filter((t) => t.includes('Support ·'));
      await eventually(async () => (await rows()).length).toBe(2);
      await eventually(async () => (await rows())[0]).toMatch(/Support · Guest.*Do you ship to Norway\?.*1/s);
      expect((await rows())[1]).toMatch(/Support · Alice.*1/s);
      await screenshot(agent.page, 'support-inbox');

      // The agent answers Alice; she sees it live, and the guest never does.
      await items.filter({ hasText: 'Support · Alice' }).click();
      await send(agent.page, 'It left the warehouse this morning.');
      await eventually(() => widget(alice.page, 'message').filter({ hasText: 'It left the warehouse' }).count()).toBe(1);
      await screenshot(alice.page, 'support-alice');
      expect(await widget(guest.page, 'message-list').textContent()).not.toContain('HP-1042');
      for (const visitor of [alice, guest, agent]) expect(visitor.errors).toEqual([]);
    } finally {
      for (const visitor of [alice, guest, agent]) await visitor.context.close();
    }
  });
});
