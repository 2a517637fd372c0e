// The site's token endpoint in Chromium, with the bundle as sites get it: a token that runs out
// while the visitor is away, and a page whose Content-Security-Policy blocks the endpoint or
// the backend.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserToken } from '../../src/server/auth/tokens';
import { startServer, type RunningServer } from '../../src/server/index';
import { collectErrors, eventually, launchChromium, screenshot } from './browser';

const API_KEY = 'token-key';
const API_SECRET = 'token-secret-that-is-long-enough-for-hs256';

let browser: Browser;
let server: RunningServer;
let root: string;

// Pages of this test's own, served by a backend of their own (a page made by request
// interception would be a public page to Chromium, which then refuses it localhost sockets).
function page(name: string, widget: string, csp?: string) {
  const policy = csp ? `<meta http-equiv="Content-Security-Policy" content="${csp}">` : '';
  writeFileSync(
    join(root, 'demo', `${name}.html`),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">${policy}</head>
    <body>${widget}<script src="/dist/chat-widget.js"></script></body></html>`,
  );
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'chat-widget-token-'));
  mkdirSync(join(root, 'demo'));
  cpSync(resolve('dist'), join(root, 'dist'), { recursive: true });
  page('expiry', `<chat-widget api-key="${API_KEY}" base-url="/" channel="messaging:general" token-endpoint="/site/token" open></chat-widget>`);
  [browser, server] = await Promise.all([
    launchChromium(),
    startServer({ port: 0, apiKey: API_KEY, apiSecret: API_SECRET, devMode: true, staticRoot: root, seed: true, quiet: true }),
  ]);
  // The pages are on 127.0.0.1; `elsewhere` is the same backend under another origin, which a
  // policy of `connect-src 'self'` leaves out.
  const elsewhere = server.url.replace('127.0.0.1', 'localhost');
  const widget = (attributes: string) => `<chat-widget api-key="${API_KEY}" channel="messaging:general" ${attributes} open></chat-widget>`;
  page('blocked-token', widget(`base-url="/" token-endpoint="${elsewhere}/demo/token?user=alice"`), "default-src 'self'; connect-src 'self'");
  page('blocked-backend', widget(`base-url="${elsewhere}" token-endpoint="/demo/token?user=alice"`), "default-src 'self'; connect-src 'self'");
  page('blocked-socket', widget(`base-url="${elsewhere}" token-endpoint="/demo/token?user=alice"`), `default-src 'self'; connect-src 'self' ${elsewhere}`);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

/** The site's endpoint, answered in the test: tokens for `user` that last `seconds`; returns when each was asked for. */
async function tokenEndpoint(tab: Page, user: string, seconds: number): Promise<number[]> {
  const asked: number[] = [];
  await tab.route('**/site/token', async (route) => {
    asked.push(Date.now());
    const token = await createUserToken(user, API_SECRET, { expiresInSeconds: seconds });
    await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ token, user: { id: user } }) });
  });
  return asked;
}

/** A page whose widget's chat-widget-error events are collected in `window.widgetErrors`. */
async function openWithErrors(name: string) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const tab = await context.newPage();
  await tab.addInitScript(() => {
    const w = window as unknown as { widgetErrors: unknown[] };
    w.widgetErrors = [];
    addEventListener('chat-widget-error', (event) => w.widgetErrors.push((event as CustomEvent).detail), true);
  });
  await tab.goto(`${server.url}/${name}.html`);
  const widgetErrors = () => tab.evaluate(() => (window as unknown as { widgetErrors: Array<{ reason: string; message: string }> }).widgetErrors);
  return { context, tab, widgetErrors };
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('the token endpoint in Chromium', () => {
  it('renews a token that ran out once, before the typing event and the send: no 401, the message stored within a second of Enter', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const tab = await context.newPage();
    const errors = collectErrors(tab);
    try {
      const asked = await tokenEndpoint(tab, 'alice', 3);
      await tab.goto(`${server.url}/expiry.html`);
      const input = tab.locator('chat-widget [part~="composer-input"]');
      await input.waitFor();
      await sleep(4_000); // the token has run out, for the backend too
      const statuses: number[] = [];
      tab.on('response', (response) => {
        if (response.url().startsWith(server.url) && !response.url().includes('/site/token')) statuses.push(response.status());
      });
      await tab.evaluate(() => {
        const w = window as unknown as { sentAt?: number };
        document.querySelector('chat-widget')!.addEventListener('chat-widget-message-sent', () => (w.sentAt = Date.now()));
      });
      const askedBefore = asked.length;
      await input.click();
      await tab.keyboard.type('back after lunch');
      const enterAt = await tab.evaluate(() => Date.now());
      await tab.keyboard.press('Enter');
      const sentAt = await tab.waitForFunction(() => (window as unknown as { sentAt?: number }).sentAt).then((at) => at.jsonValue() as Promise<number>);
      expect(sentAt - enterAt).toBeLessThan(1_000);
      // One request to the endpoint for the typing event and the send together, and no request
      // went out with the token that had run out.
      expect(asked.length - askedBefore).toBe(1);
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.filter((status) => status === 401)).toEqual([]);
      await eventually(() => tab.locator('chat-widget [part~="message"]', { hasText: 'back after lunch' }).count()).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  describe('a page whose Content-Security-Policy leaves the chat out of connect-src', () => {
    const alert = (tab: Page) => tab.locator('chat-widget [role="alert"]');
    const elsewhere = () => server.url.replace('127.0.0.1', 'localhost');

    it('says the token endpoint is blocked and what to add, not "check your connection"', async () => {
      const { context, tab, widgetErrors } = await openWithErrors('blocked-token');
      try {
        const said = `This page's Content-Security-Policy blocks the token endpoint: add ${elsewhere()} to connect-src.`;
        await eventually(() => alert(tab).textContent()).toContain(said);
        expect(await widgetErrors()).toEqual([{ reason: 'token-blocked-by-policy', message: said }]);
        await screenshot(tab, 'csp-blocked-token');
      } finally {
        await context.close();
      }
    });

    it('says the chat service is blocked, naming its address and its socket', async () => {
      const { context, tab, widgetErrors } = await openWithErrors('blocked-backend');
      try {
        // The socket is refused first, then the long-poll fallback: the SDK gives up after both.
        await eventually(() => widgetErrors()).toHaveLength(1);
        const [error] = await widgetErrors();
        expect(error!.reason).toBe('backend-blocked-by-policy');
        expect(error!.message).toMatch(/^This page's Content-Security-Policy blocks the chat service: add .+ to connect-src\.$/);
        expect(error!.message).toContain(elsewhere());
        expect(error!.message).toContain(elsewhere().replace('http:', 'ws:'));
        expect(await alert(tab).textContent()).toContain(error!.message);
      } finally {
        await context.close();
      }
    }, 30_000);

    it('with the socket alone blocked the chat works by polling, and the site is told what to add', async () => {
      const { context, tab, widgetErrors } = await openWithErrors('blocked-socket');
      try {
        await eventually(() => tab.locator('chat-widget [part~="message"]').count()).toBeGreaterThan(0);
        const socket = elsewhere().replace('http:', 'ws:');
        await eventually(() => widgetErrors()).toEqual([
          {
            reason: 'socket-blocked-by-policy',
            message: `This page's Content-Security-Policy blocks the chat service's socket: add ${socket} to connect-src. Until then the chat polls, which is slower.`,
          },
        ]);
        expect(await alert(tab).count()).toBe(0);
      } finally {
        await context.close();
      }
    }, 30_000);
  });
});
