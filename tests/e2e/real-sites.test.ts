// The widget on real sites: phones, languages and right to left, inline sizing, and
// the unread count in the title while the visitor is elsewhere. Screenshots go to tests/output.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index';
import { eventually, launchChromium, openChat, recordViolations, screenshot, startDemoServer, visit } from './browser';

let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startDemoServer('real-sites-key', 'real-sites-secret-long-enough-for-hs256')]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const launcher = (page: Page) => page.locator('chat-widget [part~="launcher"]');
const messageList = (page: Page) => page.locator('chat-widget [part~="message-list"]');
const composer = (page: Page) => page.locator('chat-widget [part~="composer-input"]');

/** The panel's box, the visual viewport and the page's scroll width, as the visitor's browser has them. */
const geometry = (page: Page) =>
  page.evaluate(() => {
    const panel = document.querySelector('chat-widget')!.shadowRoot!.querySelector('.panel')!.getBoundingClientRect();
    const viewport = window.visualViewport!;
    return {
      panel: [panel.left, panel.top, panel.width, panel.height].map(Math.round),
      viewport: [viewport.offsetLeft, viewport.offsetTop, viewport.width, viewport.height].map(Math.round),
      sideways: document.documentElement.scrollWidth > window.innerWidth,
    };
  });

describe('on a phone', () => {
  for (const [width, height] of [[390, 844], [360, 640]] as const) {
    it(`fills the visual viewport at ${width}×${height}, keeps the composer in view, and holds the page still`, async () => {
      const phone = await visit(browser, `${server.url}/?user=alice`, {
        viewport: { width, height }, isMobile: true, hasTouch: true, colorScheme: 'dark', deviceScaleFactor: 2,
      });
      const { page } = phone;
      try {
        expect((await geometry(page).catch(() => null))?.sideways ?? (await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth))).toBe(false);
        await page.evaluate(() => window.scrollTo(0, 300));
        const bodyStyle = await page.evaluate(() => document.body.getAttribute('style'));
        await launcher(page).tap();
        await messageList(page).waitFor();
        const open = await geometry(page);
        expect(open.panel).toEqual(open.viewport);
        expect(open.sideways).toBe(false);
        expect(await page.locator('chat-widget [part~="panel"]').getAttribute('aria-modal')).toBe('true');
        await composer(page).tap();
        const box = (await composer(page).boundingBox())!;
        expect(box.y + box.height).toBeLessThanOrEqual(open.viewport[3]!);
        expect(await composer(page).evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(16);
        await screenshot(page, `phone-${width}x${height}-dark`);
        // Closing gives the page back as it was: its scroll position and its own body style.
        await page.locator('chat-widget [part~="close-button"]').tap();
        await eventually(() => page.evaluate(() => window.scrollY)).toBe(300);
        expect(await page.evaluate(() => document.body.getAttribute('style'))).toBe(bodyStyle);
        await expect(launcher(page).isVisible()).resolves.toBe(true);
      } finally {
        await phone.context.close();
      }
    });
  }
});

describe('in the visitor’s language', () => {
  it('follows <html lang="de">: German strings, dates and lists', async () => {
    const visitor = await visit(browser, `${server.url}/?user=alice`, { viewport: { width: 1200, height: 860 } });
    const { page } = visitor;
    try {
      await page.evaluate(() => document.documentElement.setAttribute('lang', 'de'));
      await launcher(page).click();
      await messageList(page).waitFor();
      await eventually(() => composer(page).getAttribute('placeholder')).toBe('Nachricht schreiben…');
      await expect(page.locator('chat-widget .date-separator').first().textContent()).resolves.toMatch(/Heute|Gestern|\d/);
      // Intl's list in German: "Gesehen von Bob Smith, Carol Diaz und Dave Okafor".
      await expect(page.locator('chat-widget [part~="read-receipt"]').first().textContent()).resolves.toMatch(/^Gesehen von .+ und /);
      await screenshot(page, 'language-de');
    } finally {
      await visitor.context.close();
    }
  });

  it('takes a site\'s own strings as an object, and the launcher speaks the visitor\'s language once the panel does', async () => {
    const visitor = await visit(browser, `${server.url}/?user=alice`, { viewport: { width: 1200, height: 860 } });
    const { page } = visitor;
    try {
      await page.evaluate(() => {
        document.documentElement.setAttribute('lang', 'de');
        Object.assign(document.querySelector('chat-widget')!, { translations: { de: { 'composer.placeholder': 'Fragen Sie Harbor & Pine …' } } });
      });
      await launcher(page).click();
      await messageList(page).waitFor();
      await eventually(() => composer(page).getAttribute('placeholder')).toBe('Fragen Sie Harbor & Pine …');
      const german = JSON.parse(readFileSync('src/i18n/locales/de.json', 'utf8')) as Record<string, string>;
      await eventually(() => launcher(page).getAttribute('aria-label')).toBe(german['launcher.close']);
      await launcher(page).click();
      await eventually(() => launcher(page).getAttribute('aria-label')).toBe(german['launcher.open']);
    } finally {
      await visitor.context.close();
    }
  });

  it('mirrors the whole panel for locale="ar"', async () => {
    const visitor = await visit(browser, `${server.url}/?user=alice`, { viewport: { width: 1200, height: 860 } });
    const { page } = visitor;
    try {
      await page.evaluate(() => document.querySelector('chat-widget')!.setAttribute('locale', 'ar'));
      await launcher(page).click();
      await messageList(page).waitFor();
      const panel = page.locator('chat-widget [part~="panel"]');
      await eventually(() => panel.getAttribute('dir')).toBe('rtl');
      expect(await panel.getAttribute('lang')).toBe('ar');
      await eventually(() => composer(page).getAttribute('placeholder')).toMatch(/[\u0600-\u06FF]/);
      // The close button sits at the reading end: on the left, right to left.
      const close = (await page.locator('chat-widget [part~="close-button"]').boundingBox())!;
      const box = (await panel.boundingBox())!;
      expect(close.x - box.x).toBeLessThan(box.width / 2);
      await screenshot(page, 'language-ar-rtl');
    } finally {
      await visitor.context.close();
    }
  });

  it('fetches its catalogue beside the loader on a strict-CSP page (connect-src self)', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 860 }, locale: 'fr-FR' });
    const page = await context.newPage();
    const violations = await recordViolations(page);
    try {
      await page.goto(`${server.url}/loader.html?user=alice`); // its <html lang="en"> is removed below: the browser's French
      await page.evaluate(() => document.documentElement.removeAttribute('lang'));
      await launcher(page).click();
      await messageList(page).waitFor();
      await eventually(() => composer(page).getAttribute('placeholder')).toBe(JSON.parse(readFileSync('src/i18n/locales/fr.json', 'utf8'))['composer.placeholder']);
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('inline', () => {
  it('fills the box the page gives it, and has its default height otherwise', async () => {
    const visitor = await visit(browser, `${server.url}/inline.html?user=alice`, { viewport: { width: 1200, height: 900 } });
    const { page } = visitor;
    try {
      const heights = () =>
        page.evaluate(() => {
          const el = document.querySelector('chat-widget')!;
          return [el.getBoundingClientRect().height, el.shadowRoot!.querySelector('.panel')?.getBoundingClientRect().height];
        });
      await eventually(() => heights()).toEqual([560, 560]);
      await page.evaluate(() => document.querySelector<HTMLElement>('chat-widget')!.style.setProperty('height', '420px'));
      await eventually(() => heights()).toEqual([420, 420]);
    } finally {
      await visitor.context.close();
    }
  });
});

describe('while the visitor is elsewhere', () => {
  it('puts the unread count in the title (notify="title") and restores it exactly on return', async () => {
    const alice = await visit(browser, `${server.url}/?user=alice`, { viewport: { width: 1200, height: 860 } });
    const bob = await openChat(browser, server.url, 'bob');
    try {
      const title = await alice.page.title();
      await alice.page.evaluate(() => document.querySelector('chat-widget')!.setAttribute('notify', 'title'));
      await launcher(alice.page).click();
      await messageList(alice.page).waitFor();
      // The page goes to the background (another tab): the visitor is away though the panel is open.
      await alice.page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await composer(bob.page).fill(`Are you there? ${Date.now()}`);
      await composer(bob.page).press('Enter');
      await eventually(() => alice.page.title()).toBe(`(1) ${title}`);
      await alice.page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await eventually(() => alice.page.title()).toBe(title);
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  });
});
