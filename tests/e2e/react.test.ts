// chat-widget/react: server rendering in Node (no DOM), then <ChatWidget> on a React 19 page in
// Chromium against the local backend. The page (react-page.tsx) is bundled here with esbuild and
// served from memory on the backend's origin, after the real /dist/chat-widget.js.
import { execFileSync } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { build } from 'esbuild';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index';
import { collectErrors, eventually, launchChromium, screenshot } from './browser';
import type { ReactPage } from './react-page';

describe('chat-widget/react on a server', () => {
  it('imports without a DOM and renders the tag with its attributes', async () => {
    expect(typeof document).toBe('undefined');
    const { ChatWidget } = await import('../../src/entries/react');
    const html = renderToString(
      createElement(ChatWidget, { apiKey: 'k', channel: 'messaging:x', drafts: true, userName: 'Ann', className: 'chat', onReady: () => {} }),
    );
    expect(html).toBe('<chat-widget class="chat" api-key="k" channel="messaging:x" drafts="" user-name="Ann"></chat-widget>');
  });

  it('resolves as chat-widget/react from the package, built, in plain Node', () => {
    const script = `
      import { createElement } from 'react';
      import { renderToString } from 'react-dom/server';
      import { ChatWidget } from 'chat-widget/react';
      process.stdout.write(renderToString(createElement(ChatWidget, { apiKey: 'k', channel: 'messaging:x' })));`;
    const html = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(html).toBe('<chat-widget api-key="k" channel="messaging:x"></chat-widget>');
  });
});

describe('<ChatWidget> on a React 19 page in Chromium', () => {
  const API_KEY = 'e2e-react-key';
  let browser: Browser;
  let server: RunningServer;
  let pageScript: string;

  beforeAll(async () => {
    const bundled = build({
      entryPoints: ['tests/e2e/react-page.tsx'],
      bundle: true,
      write: false,
      format: 'esm',
      jsx: 'automatic',
      // React's development build, so StrictMode runs every effect twice and warnings surface.
      define: { 'process.env.NODE_ENV': '"development"' },
      logLevel: 'silent',
    });
    const secret = 'e2e-react-secret-long-enough-for-hs256';
    const started = startServer({ port: 0, apiKey: API_KEY, apiSecret: secret, devMode: true, staticRoot: process.cwd(), seed: true, quiet: true });
    let bundle;
    [browser, server, bundle] = await Promise.all([launchChromium(), started, bundled]);
    pageScript = bundle.outputFiles[0]!.text;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The React page, with dist/chat-widget.js before the app or, `late`, not loaded yet. */
  async function openPage({ late = false } = {}): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
    const context = await browser.newContext({ viewport: { width: 1000, height: 720 } });
    await context.route(`${server.url}/react-page.js`, (route) => route.fulfill({ contentType: 'text/javascript', body: pageScript }));
    const page = await context.newPage();
    // The page is written into a document the backend answered (its 404 for this path): one that
    // Playwright answered would count as public, and Chromium's local network access checks would
    // keep it from opening the widget's WebSocket to the local backend.
    await page.goto(`${server.url}/react-page?key=${API_KEY}`);
    const errors = collectErrors(page);
    const element = late ? '' : '<script src="/dist/chat-widget.js"></script>';
    await page.setContent(`<!doctype html><title>React</title><div id="root"></div>${element}<script type="module" src="/react-page.js"></script>`);
    return { page, errors, close: () => context.close() };
  }

  const callsOf = (page: Page, prop: string) => page.evaluate((name) => window.reactPage.calls.filter((call) => call.prop === name), prop);
  const setTheme = (page: Page, theme: 'light' | 'dark') => page.evaluate((value) => window.reactPage.setTheme(value), theme);
  /** The `theme` property, and the theme the panel drew. */
  const themes = (page: Page) =>
    page.evaluate(() => {
      const element = document.querySelector('chat-widget')!;
      return [element.theme, element.shadowRoot?.querySelector<HTMLElement>('.widget')?.dataset.theme];
    });
  const messageLists = (page: Page) => page.locator('chat-widget [part~="message-list"]').count();
  const READY = { prop: 'onReady', detail: { userId: 'alice', channel: 'messaging:general' } };

  it('fires onReady and onOpen with their details, opens and closes through the ref, and passes prop changes on', async () => {
    const { page, errors, close } = await openPage();
    try {
      await eventually(() => callsOf(page, 'onReady')).toEqual([READY]);
      // Once, though StrictMode attached the listeners twice: the first ones were removed.
      expect(await callsOf(page, 'onOpen')).toEqual([{ prop: 'onOpen', detail: {} }]);
      await eventually(() => messageLists(page)).toBe(1);
      const widget = page.locator('chat-widget');
      expect(await widget.getAttribute('class')).toBe('site-chat');
      expect(await widget.getAttribute('api-key')).toBe(API_KEY);

      const ref = (method: 'open' | 'close') =>
        page.evaluate((name) => {
          const element = window.reactPage.widget.current!;
          element[name]();
          return element.isOpen;
        }, method);
      expect(await ref('close')).toBe(false);
      await eventually(() => callsOf(page, 'onClose')).toHaveLength(1);
      await eventually(() => page.locator('chat-widget [part~="panel"]').count()).toBe(0);
      expect(await ref('open')).toBe(true);
      await eventually(() => callsOf(page, 'onOpen')).toHaveLength(2);
      await eventually(() => messageLists(page)).toBe(1);

      expect(await themes(page)).toEqual(['light', 'light']);
      await setTheme(page, 'dark');
      await eventually(() => themes(page)).toEqual(['dark', 'dark']);
      await page.waitForTimeout(300); // the panel's open transition
      await screenshot(page, 'react-widget');
      expect(await callsOf(page, 'onError')).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('works with the element defined after React rendered it (the script imported later)', async () => {
    const { page, errors, close } = await openPage({ late: true });
    try {
      const widget = page.locator('chat-widget');
      await eventually(() => widget.getAttribute('api-key')).toBe(API_KEY);
      expect(await widget.evaluate((el) => [el.shadowRoot, el.hasAttribute('open')])).toEqual([null, true]);
      await setTheme(page, 'dark'); // a property of the element that is not defined yet
      await page.addScriptTag({ url: '/dist/chat-widget.js' });
      await eventually(() => callsOf(page, 'onReady')).toEqual([READY]);
      await eventually(() => messageLists(page)).toBe(1);
      expect(await themes(page)).toEqual(['dark', 'dark']);
      expect(await callsOf(page, 'onError')).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
