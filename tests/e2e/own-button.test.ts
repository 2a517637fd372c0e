// A site that sets the widget up before its script has loaded and opens it from its own button
// (demo/own-button.html: properties on the plain element, launcher="none", position="left").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index';
import { collectErrors, eventually, launchChromium, screenshot } from './browser';

let browser: Browser;
let server: RunningServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chat-widget-e2e-'));
  [browser, server] = await Promise.all([
    launchChromium(),
    startServer({
      port: 0,
      dbPath: join(dataDir, 'chat.db'),
      apiKey: 'e2e-key',
      apiSecret: 'e2e-secret-that-is-long-enough-for-hs256',
      devMode: true,
      staticRoot: process.cwd(),
      seed: true,
      quiet: true,
    }),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const panel = (page: Page) => page.locator('chat-widget [part~="panel"]');
const button = (page: Page) => page.locator('#chat-button');
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id);

describe('a site with its own chat button', () => {
  it('keeps what the page set before the script loaded, opens from its button and gives the focus back', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    const errors = collectErrors(page);
    // The widget's script is held back until the visitor has already clicked the site's button.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/dist/chat-widget.js', async (route) => {
      await held;
      await route.continue();
    });
    try {
      await page.goto(`${server.url}/own-button.html?user=alice`, { waitUntil: 'commit' });
      await page.waitForFunction(() => Object.hasOwn(document.getElementById('chat') ?? {}, 'launcher'));
      expect(await page.evaluate(() => customElements.get('chat-widget'))).toBeUndefined();
      await button(page).click();
      release();

      await eventually(() => page.locator('chat-widget [part~="message-list"]').count()).toBe(1);
      expect(await page.locator('chat-widget [part~="launcher"]').count()).toBe(0);
      const applied = await page.evaluate(() => {
        const chat = document.getElementById('chat') as HTMLElement;
        return {
          // Taken off the element and set through its accessors.
          own: ['apiKey', 'baseUrl', 'channel', 'launcher', 'position'].filter((name) => Object.hasOwn(chat, name)),
          attributes: ['api-key', 'base-url', 'channel', 'launcher', 'position', 'open'].map((name) => chat.getAttribute(name)),
        };
      });
      expect(applied).toEqual({ own: [], attributes: ['e2e-key', '/', 'messaging:general', 'none', 'left', ''] });
      expect(await button(page).getAttribute('aria-expanded')).toBe('true');
      // The floating panel sits in the bottom-left corner, 20px in.
      const box = await panel(page).boundingBox();
      expect(box?.x).toBe(20);
      expect(Math.round((box?.y ?? 0) + (box?.height ?? 0))).toBe(800 - 88);
      await screenshot(page, 'own-button-open');

      // Closed from inside the panel: the focus goes back to the site's button.
      await page.locator('chat-widget [part~="close-button"]').click();
      await eventually(() => panel(page).count()).toBe(0);
      expect(await focusedId(page)).toBe('chat-button');
      expect(await button(page).getAttribute('aria-expanded')).toBe('false');

      // The keyboard reaches it the same way.
      await page.keyboard.press('Enter');
      await eventually(() => panel(page).count()).toBe(1);
      await page.keyboard.press('Enter');
      await eventually(() => panel(page).count()).toBe(0);

      // On a phone the panel is the whole screen, as the bubble's is.
      await page.setViewportSize({ width: 390, height: 760 });
      await button(page).click();
      await eventually(() => page.locator('chat-widget [part~="message-list"]').count()).toBe(1);
      expect(await panel(page).boundingBox()).toEqual({ x: 0, y: 0, width: 390, height: 760 });
      await screenshot(page, 'own-button-phone');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('upgrades as browsers do: a property set early wins over the markup, and an open attribute opens it', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    const errors = collectErrors(page);
    try {
      await page.goto(`${server.url}/own-button.html?user=alice`);
      // The upgrade a late script gives: a subclass defined under a new tag after the page has
      // written the elements (the browser queues their attribute callbacks before the constructor).
      const seen = await page.evaluate(async () => {
        document.body.insertAdjacentHTML(
          'beforeend',
          '<late-widget id="themed" api-key="e2e-key" base-url="/" theme="light"></late-widget>' +
            '<late-widget id="opened" api-key="e2e-key" base-url="/" token-endpoint="/demo/token?user=alice" launcher="none" open></late-widget>',
        );
        const themed = document.getElementById('themed') as HTMLElement & { theme?: string };
        themed.theme = 'dark';
        customElements.define('late-widget', class extends (customElements.get('chat-widget') as CustomElementConstructor) {});
        await new Promise((resolve) => setTimeout(resolve, 50));
        const shadowOf = (id: string) => document.getElementById(id)?.shadowRoot;
        return {
          theme: [themed.getAttribute('theme'), shadowOf('themed')?.querySelector<HTMLElement>('.widget')?.dataset.theme],
          panel: !!shadowOf('opened')?.querySelector('[part~="panel"]'),
        };
      });
      expect(seen).toEqual({ theme: ['dark', 'dark'], panel: true });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
