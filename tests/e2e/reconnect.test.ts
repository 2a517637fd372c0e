// The visitor's network goes away and comes back while the panel is open. The browser is cut off
// (offline mode, its sockets closed by the test, new ones refused until the network is back), the
// backend keeps running, and Bob goes on writing through the site owner's server SDK meanwhile.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { collectErrors, eventually, ownedDemo, screenshot } from './browser';
import { cutOffVisitor, listedTexts, type Network } from './network';

const API_KEY = 'e2e-reconnect';
const API_SECRET = 'e2e-reconnect-secret-long-enough-for-hs256';

const demo = ownedDemo(API_KEY, API_SECRET);

const widget = (page: Page, part: string) => page.locator(`chat-widget [part~="${part}"]`);
const message = (page: Page, text: string) => widget(page, 'message').filter({ hasText: text });

/** A visitor on the demo's `path` with every socket routed through the test, and their page errors collected. */
async function visitor(path: string) {
  const { context, page, network } = await cutOffVisitor(demo.browser);
  const errors = collectErrors(page);
  await page.goto(`${demo.server.url}${path}`);
  return { context, page, network, errors };
}

/** The network goes away until the SDK's reconnect attempts have failed at least twice. */
async function outage(network: Network, meanwhile: () => Promise<unknown>) {
  await network.cut();
  await meanwhile();
  await eventually(async () => network.refused).toBeGreaterThanOrEqual(2);
}

const bobSays = (channel: string, texts: string[], parent_id?: string) =>
  texts.reduce<Promise<unknown>>(
    (previous, text) => previous.then(() => demo.owner.channel('messaging', channel).sendMessage({ text, user_id: 'bob', ...(parent_id ? { parent_id } : {}) })),
    Promise.resolve(),
  );

/** Errors other than what a cut network makes Chromium log. */
const unexpected = (errors: string[]) => errors.filter((error) => !/ERR_INTERNET_DISCONNECTED|WebSocket connection to|Failed to load resource/.test(error));

describe('after the network comes back', () => {
  it('the open channel shows every message sent meanwhile, in order and once each', async () => {
    const { context, page, network, errors } = await visitor('/?user=alice');
    try {
      await widget(page, 'launcher').click();
      const before = `Before the tunnel ${Date.now()}`;
      await bobSays('general', [before]);
      await eventually(() => message(page, before).count()).toBe(1);

      const missed = Array.from({ length: 40 }, (_, i) => `Missed ${i + 1} of 40 ${Date.now()}`);
      await outage(network, () => bobSays('general', missed));
      await network.restore();
      // Healthy again within a moment; everything missed is shown within two seconds of that.
      await eventually(() => message(page, missed.at(-1) ?? '').count()).toBe(1);
      expect(await listedTexts(page, before)).toEqual([before, ...missed]);
      expect(await widget(page, 'offline-banner').count()).toBe(0);
      await screenshot(page, 'reconnect-caught-up');
      expect(unexpected(errors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('with more missed than a catch-up brings, offers the jump to the newest and reaches every message without a gap', async () => {
    const { context, page, network } = await visitor('/?user=alice');
    try {
      await widget(page, 'launcher').click();
      const before = `Before the long tunnel ${Date.now()}`;
      await bobSays('general', [before]);
      await eventually(() => message(page, before).count()).toBe(1);
      // Read before the tunnel: the count offered after it is of the missed messages alone (a
      // busy machine may not have sent the read yet when the network goes).
      const unreadInGeneral = async () => (await demo.owner.getUnreadCount('alice')).channels.find((c) => c.channel_id === 'messaging:general')?.unread_count ?? 0;
      await eventually(unreadInGeneral).toBe(0);

      const missed = Array.from({ length: 200 }, (_, i) => `Long gap ${i + 1} of 200 ${Date.now()}`);
      await outage(network, () => bobSays('general', missed));
      await network.restore();
      const jump = widget(page, 'jump-to-latest');
      await eventually(() => jump.textContent()).toContain('200 new messages');
      await screenshot(page, 'reconnect-jump-offered');
      await jump.click();
      await eventually(() => message(page, missed.at(-1) ?? '').count()).toBe(1);
      expect(await listedTexts(page, before)).toEqual([before, ...missed]);
    } finally {
      await context.close();
    }
  });

  it('an open thread shows the replies written meanwhile', async () => {
    const { context, page, network } = await visitor('/?user=alice');
    try {
      await widget(page, 'launcher').click();
      const parent = `Which trail on Sunday? ${Date.now()}`;
      const { message: sent } = await demo.owner.channel('messaging', 'general').sendMessage({ text: parent, user_id: 'bob' });
      await bobSays('general', ['The ridge first'], sent.id);
      await message(page, parent).hover();
      await message(page, parent).locator('[part~="message-actions-button"]').click();
      await page.getByRole('menuitem', { name: 'Reply in thread' }).click();
      const thread = widget(page, 'thread');
      await eventually(() => thread.textContent()).toContain('The ridge first');

      const replies = Array.from({ length: 30 }, (_, i) => `Reply ${i + 1} of 30 ${Date.now()}`);
      await outage(network, () => bobSays('general', replies, sent.id));
      await network.restore();
      await eventually(() => thread.locator('.message-text').allTextContents()).toEqual([parent, 'The ridge first', ...replies]);
    } finally {
      await context.close();
    }
  });

  it('the conversation list (an agent\'s inbox) shows the new order, previews and unread counts', async () => {
    const suffix = Date.now();
    await demo.owner.upsertUsers([{ id: 'sam', name: 'Sam' }]);
    for (const id of [`quiet-${suffix}`, `busy-${suffix}`]) {
      await demo.owner.channel('messaging', id, { name: id, members: ['sam', 'bob'], created_by_id: 'bob' } as never).create();
    }
    await bobSays(`busy-${suffix}`, ['Opening the shop at nine']);
    await bobSays(`quiet-${suffix}`, ['Nothing new here']);
    // Sam's inbox: the agent's list of conversations.
    const { context, page, network } = await visitor('/agent.html');
    try {
      const rows = widget(page, 'channel-item');
      await eventually(() => rows.first().textContent()).toContain(`quiet-${suffix}`);

      const news = ['Fresh bread is in', 'And croissants', 'Until noon'];
      await outage(network, () => bobSays(`busy-${suffix}`, news));
      await network.restore();
      await eventually(() => rows.first().textContent()).toContain(`busy-${suffix}`);
      await eventually(() => rows.first().textContent()).toContain('Until noon');
      await eventually(() => rows.first().getByLabel('4 unread').count()).toBe(1);
    } finally {
      await context.close();
    }
  });
});
