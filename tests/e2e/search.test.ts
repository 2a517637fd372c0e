// Search in Chromium on the demo page: a visitor types a word, sees people, channels and
// messages that match it, opens a message hit in another place in history, and sees it
// highlighted in its channel. Screenshots land in tests/output/.
import type { Browser, Page } from 'playwright-core';
import { StreamChat, type ChannelData } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index';
import { collectErrors, eventually, launchChromium, screenshot, startDemoServer } from './browser';

const API_KEY = 'e2e-search-key';
const API_SECRET = 'e2e-search-secret-long-enough-for-hs256';

let browser: Browser;
let server: RunningServer;

/** Lantern things in three places, and enough chat after the general hit to push it off the first page. */
async function seedLanterns(url: string) {
  const admin = new StreamChat(API_KEY, API_SECRET, { baseURL: url });
  await admin.upsertUsers([{ id: 'lena', name: 'Lena Lantern' }]);
  const club = admin.channel('messaging', 'lantern-club', { name: 'Lantern club', members: ['alice', 'bob'], created_by_id: 'bob' } as ChannelData);
  await club.create();
  await club.sendMessage({ text: 'Lantern supplies: bring a candle and a jar', user_id: 'bob' });
  const general = admin.channel('messaging', 'general');
  await general.sendMessage({ text: 'The lantern walk starts at the harbour at nine', user_id: 'carol' });
  for (let i = 1; i <= 40; i++) {
    await general.sendMessage({ text: `Packing list item ${i}: nothing to see here`, user_id: i % 2 ? 'dave' : 'bob' });
  }
}

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchChromium(),
    startDemoServer(API_KEY, API_SECRET),
  ]);
  await seedLanterns(server.url);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const inWidget = (page: Page, selector: string) => page.locator(`chat-widget ${selector}`);

describe('search in Chromium', () => {
  it('finds people, channels and messages, and opens a message highlighted in its channel', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    const errors = collectErrors(page);
    try {
      await page.goto(`${server.url}/?user=alice`);
      await inWidget(page, '[part~="launcher"]').click();
      await eventually(() => inWidget(page, '[part~="message-list"]').count()).toBe(1);

      await inWidget(page, '[part~="search-button"]').click();
      const input = inWidget(page, '[part~="search-input"]');
      await expect.poll(() => input.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
      await input.pressSequentially('lanter', { delay: 40 });

      const group = (name: string) => inWidget(page, `section[aria-label="${name}"]`);
      await eventually(() => group('People').getByText('Lena Lantern').count()).toBe(1);
      await eventually(() => group('Channels').getByText('Lantern club').count()).toBe(1);
      await eventually(() => group('Messages').locator('[part~="search-result"]').count()).toBe(2);
      // The matched word is marked, as text.
      expect(await group('Messages').locator('mark.search-match').first().textContent()).toMatch(/^lanter$/i);
      const hit = group('Messages').locator('[part~="search-result"]', { hasText: 'lantern walk' });
      expect(await hit.textContent()).toContain('Carol Diaz');
      expect(await hit.textContent()).toContain('in General');
      await screenshot(page, 'search-results');

      await hit.click();
      const highlighted = inWidget(page, '.message.highlighted');
      await eventually(() => highlighted.count()).toBe(1);
      expect(await highlighted.textContent()).toContain('The lantern walk starts at the harbour at nine');
      await eventually(() =>
        highlighted.evaluate((el) => {
          const box = el.getBoundingClientRect();
          const scroller = el.closest('.message-scroller')?.getBoundingClientRect();
          return !!scroller && box.top >= scroller.top && box.bottom <= scroller.bottom;
        }),
      ).toBe(true);
      expect(await inWidget(page, '.header-title').textContent()).toBe('General');
      await page.waitForTimeout(2600); // the highlight's flash settles before the picture
      await screenshot(page, 'search-jump');

      // Ctrl+K brings the search back with its results; a channel hit opens that channel.
      await inWidget(page, '[part~="composer-input"]').focus();
      await page.keyboard.press('Control+k');
      await eventually(() => group('Channels').getByText('Lantern club').count()).toBe(1);
      await group('Channels').locator('[part~="search-result"]').click();
      await eventually(() => inWidget(page, '.header-title').textContent()).toBe('Lantern club');
      await eventually(() => inWidget(page, '[part~="message"]', ).filter({ hasText: 'bring a candle' }).count()).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
