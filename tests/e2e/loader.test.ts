// The loader (dist/chat-widget.loader.js) on a page with a strict Content-Security-Policy
// (demo/loader.html): it draws the bubble alone, fetches the full file beside it when the visitor
// reaches for the bubble, and the chat then works as with the single file.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index';
import { collectErrors, eventually, launchChromium, recordViolations, screenshot, startDemoServer, visit, type Visitor } from './browser';

let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startDemoServer('loader-key', 'loader-secret-that-is-long-enough-for-hs256')]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A fresh visitor on the loader page, with the page's CSP violations and script requests recorded. */
async function loaderVisitor(user: string, path = '/loader.html') {
  const context = await browser.newContext({ viewport: { width: 1200, height: 860 } });
  const page = await context.newPage();
  const errors = collectErrors(page);
  const violations = await recordViolations(page);
  const scripts: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/dist/')) scripts.push(request);
  });
  await page.goto(`${server.url}${path}?user=${user}`);
  return { context, page, errors, violations, scripts };
}

/** Whether the full file has run on the page (its script defines the `ChatWidget` global). */
const fullFileRan = (page: Page) => page.evaluate(() => 'ChatWidget' in window);
const launcher = (page: Page) => page.locator('chat-widget [part~="launcher"]');

describe('the loader on a strict-CSP page', () => {
  it('draws the bubble alone, fetches the chat when the visitor reaches for it, and chats live', async () => {
    const alice = await loaderVisitor('alice');
    let bob: Visitor | undefined;
    try {
      await launcher(alice.page).waitFor();
      // Idle, a first-time visitor's page has fetched the loader alone, and nothing else runs.
      await alice.page.waitForTimeout(1500);
      expect(await fullFileRan(alice.page)).toBe(false);
      expect(await alice.page.locator('chat-widget [part~="panel"]').count()).toBe(0);
      expect(alice.scripts.map((request) => new URL(request.url()).pathname)).toEqual(['/dist/chat-widget.loader.js']);

      await launcher(alice.page).hover();
      await eventually(() => fullFileRan(alice.page)).toBe(true);
      await launcher(alice.page).click();
      const input = alice.page.locator('chat-widget [part~="composer-input"]');
      await input.waitFor();

      bob = await visit(browser, `${server.url}/?user=bob`, { viewport: { width: 1200, height: 860 } });
      await launcher(bob.page).click();
      await bob.page.locator('chat-widget [part~="message-list"]').waitFor();

      const text = `Loaded on demand ${Date.now()}`;
      await input.fill(text);
      await input.press('Enter');
      await eventually(() => bob!.page.locator('chat-widget [part~="message"]', { hasText: text }).count()).toBe(1);
      const reply = `Heard you ${Date.now()}`;
      const bobInput = bob.page.locator('chat-widget [part~="composer-input"]');
      await bobInput.fill(reply);
      await bobInput.press('Enter');
      await eventually(() => alice.page.locator('chat-widget [part~="message"]', { hasText: reply }).count()).toBe(1);

      await screenshot(alice.page, 'loader-open');
      expect(alice.violations).toEqual([]);
      expect(alice.errors).toEqual([]);
      // The panel's stylesheet came with the full file and applied despite style-src 'self'.
      const accent = await alice.page.locator('chat-widget [part~="header"]').evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(accent).toBe('rgb(79, 70, 229)');
    } finally {
      await alice.context.close();
      await bob?.context.close();
    }
  });

  it('opens from the keyboard: Enter on the focused bubble fetches the chat and opens it', async () => {
    const carol = await loaderVisitor('carol');
    try {
      await launcher(carol.page).focus();
      await carol.page.keyboard.press('Enter');
      await carol.page.locator('chat-widget [part~="composer-input"]').waitFor();
      expect(await fullFileRan(carol.page)).toBe(true);
      // The keyboard user is taken into the panel (a dialog), so Tab goes on through its controls.
      expect(await carol.page.evaluate(() => document.querySelector('chat-widget')?.shadowRoot?.activeElement?.getAttribute('part'))).toBe('panel');
      expect(carol.violations).toEqual([]);
      expect(carol.errors).toEqual([]);
    } finally {
      await carol.context.close();
    }
  });

  it('says why when the full file cannot be fetched, and tries again when opened again', async () => {
    const dave = await loaderVisitor('dave');
    try {
      await launcher(dave.page).waitFor();
      let refuse = true;
      await dave.page.route('**/dist/chat-widget.js', (route) => (refuse ? route.fulfill({ status: 404, body: 'missing' }) : route.continue()));
      const failed = dave.page.evaluate(
        () => new Promise((resolve) => document.querySelector('chat-widget')!.addEventListener('chat-widget-error', (e) => resolve((e as CustomEvent).detail))),
      );
      await launcher(dave.page).click();
      expect(await failed).toMatchObject({ reason: 'connection-failed', message: expect.stringContaining('could not be loaded') });
      const alert = dave.page.locator('chat-widget [part~="status-error"]');
      await expect.poll(() => alert.textContent()).toContain('Chat is unavailable right now.');
      await screenshot(dave.page, 'loader-unavailable');

      refuse = false;
      await launcher(dave.page).click(); // closes
      await launcher(dave.page).click(); // opens again: a retry
      await dave.page.locator('chat-widget [part~="composer-input"]').waitFor();
      expect(await alert.count()).toBe(0);
    } finally {
      await dave.context.close();
    }
  });

  it('downloads the full file at an idle moment a few seconds after load, without running it, and serves the click from the cache', async () => {
    const erin = await loaderVisitor('carol');
    try {
      await launcher(erin.page).waitFor();
      const fullFile = () => erin.scripts.filter((request) => new URL(request.url()).pathname === '/dist/chat-widget.js');
      await expect.poll(() => fullFile().length, { timeout: 10_000 }).toBe(1);
      expect(fullFile()[0]!.resourceType()).not.toBe('script'); // a prefetch: downloaded, not run
      await erin.page.waitForTimeout(300);
      expect(await fullFileRan(erin.page)).toBe(false);
      expect(await erin.page.locator('chat-widget [part~="panel"]').count()).toBe(0);

      // The script the click adds is the prefetched copy: from the cache, or revalidated by a
      // 304 (Chromium then reports the cached 200, with only the headers' bytes received).
      const cdp = await erin.context.newCDPSession(erin.page);
      await cdp.send('Network.enable');
      const served: Array<{ cached: boolean; bytes: number }> = [];
      cdp.on('Network.responseReceived', ({ type, response }) => {
        if (type === 'Script' && new URL(response.url).pathname === '/dist/chat-widget.js') {
          served.push({ cached: Boolean(response.fromPrefetchCache || response.fromDiskCache), bytes: response.encodedDataLength });
        }
      });
      await launcher(erin.page).click();
      await erin.page.locator('chat-widget [part~="composer-input"]').waitFor();
      expect(served).toHaveLength(1);
      expect(served[0]!.cached || served[0]!.bytes < 1024).toBe(true);
      expect(erin.violations).toEqual([]);
      expect(erin.errors).toEqual([]);
    } finally {
      await erin.context.close();
    }
  });

  it('a returning visitor counts unread messages without the full file, which comes when the visitor reaches for the bubble', async () => {
    const returning = await loaderVisitor('bob');
    try {
      await launcher(returning.page).click();
      await returning.page.locator('chat-widget [part~="message-list"]').waitFor();
      await returning.page.close();
      const again = await returning.context.newPage();
      const scripts: string[] = [];
      let sockets = 0;
      again.on('request', (request) => scripts.push(new URL(request.url()).pathname));
      again.on('websocket', () => (sockets += 1));
      await again.goto(`${server.url}/loader.html?user=bob`);
      // The badge client's socket: the count is live.
      await eventually(async () => sockets).toBe(1);
      expect(await fullFileRan(again)).toBe(false);
      expect(scripts.filter((path) => path === '/dist/chat-widget.js')).toEqual([]);
      await launcher(again).hover();
      await eventually(() => fullFileRan(again)).toBe(true);
      expect(await again.locator('chat-widget [part~="panel"]').count()).toBe(0);
    } finally {
      await returning.context.close();
    }
  });

  it('under a nonce-only CSP, what the loader adds carries its nonce; with the full file also on the page, that file runs once', async () => {
    // Pages of this test's own, served by a backend of their own (a page made by request
    // interception would be a public page to Chromium, which then refuses it localhost sockets).
    const root = mkdtempSync(join(tmpdir(), 'chat-widget-nonce-'));
    mkdirSync(join(root, 'demo'));
    cpSync(resolve('dist'), join(root, 'dist'), { recursive: true });
    const csp = "default-src 'none'; script-src 'nonce-t3st'; style-src 'self'; img-src 'self' data:; connect-src 'self'";
    const html = (scripts: string) => `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
      <meta http-equiv="Content-Security-Policy" content="${csp}"></head><body>
      <chat-widget api-key="loader-key" base-url="/" channel="messaging:general" token-endpoint="/demo/token?user=carol"></chat-widget>
      ${scripts}</body></html>`;
    const loaderTag = '<script nonce="t3st" src="/dist/chat-widget.loader.js" defer></script>';
    writeFileSync(join(root, 'demo', 'nonce-loader.html'), html(loaderTag));
    writeFileSync(join(root, 'demo', 'nonce-both.html'), html(`${loaderTag}<script nonce="t3st" src="/dist/chat-widget.js" defer></script>`));
    const own = await startServer({ port: 0, apiKey: 'loader-key', apiSecret: 'loader-secret-that-is-long-enough-for-hs256', devMode: true, staticRoot: root, seed: true, quiet: true });
    const context = await browser.newContext({ viewport: { width: 1200, height: 860 } });
    const page = await context.newPage();
    const errors = collectErrors(page);
    const violations = await recordViolations(page);
    const fullFileScripts = () => page.evaluate(() => document.querySelectorAll('script[src*="/dist/chat-widget.js"]').length);
    try {
      await page.goto(`${own.url}/nonce-loader.html`);
      await launcher(page).click();
      await page.locator('chat-widget [part~="composer-input"]').waitFor();
      expect(await fullFileScripts()).toBe(1); // the one the loader added, with the nonce
      // A part fetched on first use (the poll form) carries the nonce too.
      await page.locator('chat-widget [part~="composer-menu-button"]').click();
      await page.locator('chat-widget [part~="composer-menu"] button', { hasText: 'Poll' }).click();
      await page.locator('chat-widget [part~="poll-form"]').waitFor();
      expect(violations).toEqual([]);

      await page.goto(`${own.url}/nonce-both.html`);
      await eventually(() => fullFileRan(page)).toBe(true);
      await launcher(page).click();
      await page.locator('chat-widget [part~="composer-input"]').waitFor();
      expect(await fullFileScripts()).toBe(1); // the page's own: the loader added none
      expect(violations).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await own.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
