import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamChat } from 'stream-chat';
import { startServer, type RunningServer } from '../../src/server/index';
import { collectErrors, launchChromium, recordViolations, screenshot, eventually, visit, type Visitor } from './browser';

const API_KEY = 'e2e-key';
const API_SECRET = 'e2e-secret-that-is-long-enough-for-hs256';

let browser: Browser;
let server: RunningServer;
let dataDir: string;

async function start(port = 0) {
  return startServer({
    port,
    dbPath: join(dataDir, 'chat.db'),
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    devMode: true,
    staticRoot: process.cwd(),
    seed: true,
    quiet: true,
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chat-widget-e2e-'));
  [browser, server] = await Promise.all([launchChromium(), start()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const visitor = (user: string, path = '/'): Promise<Visitor> => visit(browser, `${server.url}${path}?user=${user}`);

const panel = (page: Page) => page.locator('chat-widget [part~="panel"]');
const messages = (page: Page) => page.locator('chat-widget [part~="message-list"]');

async function openChat(page: Page) {
  await page.locator('chat-widget [part~="launcher"]').click();
  await eventually(() => messages(page).count()).toBe(1);
}

describe('the demo page in Chromium', () => {
  it('alice sends from the bubble and bob sees it arrive live', async () => {
    const alice = await visitor('alice');
    const bob = await visitor('bob');
    try {
      await openChat(alice.page);
      await openChat(bob.page);
      const text = `Hello Bob, it is ${Date.now()}`;
      const input = alice.page.locator('chat-widget [part~="composer-input"]');
      await input.fill(text);
      await input.press('Enter');
      await eventually(() => alice.page.locator('chat-widget [part~="own-message"]', { hasText: text }).count()).toBe(1);
      await eventually(() => input.inputValue()).toBe('');
      await eventually(() => bob.page.locator('chat-widget [part~="message"]', { hasText: text }).count()).toBe(1);
      await screenshot(alice.page, 'demo-alice');
      await screenshot(bob.page, 'demo-bob');

      // A reload keeps the history.
      await alice.page.reload();
      await openChat(alice.page);
      await eventually(() => alice.page.locator('chat-widget [part~="message"]', { hasText: text }).count()).toBe(1);
      expect(alice.errors).toEqual([]);
      expect(bob.errors).toEqual([]);
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  });

  it('keeps the history when the backend restarts (SQLite on disk)', async () => {
    const alice = await visitor('alice');
    const text = `Before the restart ${Date.now()}`;
    try {
      await openChat(alice.page);
      const input = alice.page.locator('chat-widget [part~="composer-input"]');
      await input.fill(text);
      await input.press('Enter');
      await eventually(() => alice.page.locator('chat-widget [part~="own-message"]', { hasText: text }).count()).toBe(1);
    } finally {
      await alice.context.close();
    }
    await server.close();
    server = await start();
    const again = await visitor('alice');
    try {
      await openChat(again.page);
      await eventually(() => again.page.locator('chat-widget [part~="message"]', { hasText: text }).count()).toBe(1);
    } finally {
      await again.context.close();
    }
  });

  it('an open panel catches up after the backend restarts, and what was written meanwhile goes out once', async () => {
    const alice = await visitor('alice');
    try {
      await openChat(alice.page);
      const port = Number(new URL(server.url).port);
      await server.close();
      const during = `Written while the backend restarts ${Date.now()}`;
      const input = alice.page.locator('chat-widget [part~="composer-input"]');
      await input.fill(during);
      await input.press('Enter');
      const own = alice.page.locator('chat-widget [part~="own-message"]', { hasText: during });
      await eventually(() => own.textContent()).toContain('Sending');

      server = await start(port);
      const owner = new StreamChat(API_KEY, API_SECRET, { baseURL: server.url });
      const after = [1, 2, 3].map((n) => `Sent as it came back, ${n} of 3, ${Date.now()}`);
      for (const text of after) await owner.channel('messaging', 'general').sendMessage({ text, user_id: 'bob' });
      for (const text of after) await eventually(() => alice.page.locator('chat-widget [part~="message"]', { hasText: text }).count()).toBe(1);
      await eventually(() => own.textContent()).not.toContain('Sending');
      const { messages: stored } = await owner.channel('messaging', 'general').query({ messages: { limit: 50 } });
      expect(stored.filter((message) => message.text === during).length).toBe(1);
    } finally {
      await alice.context.close();
    }
  });

  it('makes no request for a first-time visitor who does not open the chat', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));
    try {
      await page.goto(`${server.url}/?user=carol`);
      await page.locator('chat-widget [part~="launcher"]').waitFor();
      await page.waitForTimeout(300);
      expect(requests.filter((path) => !['/', '/site.css', '/demo-user.js', '/dist/chat-widget.js'].includes(path))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('runs the chat\'s code only once the chat is opened: a closed bubble evaluates the launcher alone', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    // The runtime is the innermost function, inside the file's own wrapper, that spans most of
    // the file (the minifier may inline it into the small function that calls it).
    const runtimeCalls = async () => {
      const { result } = await cdp.send('Profiler.takePreciseCoverage');
      const script = result.find((entry) => entry.url.endsWith('/dist/chat-widget.js'));
      const ranges = (script?.functions ?? []).map((fn) => fn.ranges[0]!);
      const length = Math.max(...ranges.map((range) => range.endOffset));
      const size = (range: { startOffset: number; endOffset: number }) => range.endOffset - range.startOffset;
      const spanning = ranges.filter((range) => size(range) > length / 2 && size(range) < length * 0.99).sort((a, b) => size(a) - size(b));
      expect(spanning[0]).toBeDefined();
      return spanning[0]!.count;
    };
    try {
      await page.goto(`${server.url}/?user=dave`);
      await page.locator('chat-widget [part~="launcher"]').waitFor();
      await page.waitForTimeout(300);
      expect(await runtimeCalls()).toBe(0);
      await page.locator('chat-widget [part~="launcher"]').click();
      await page.locator('chat-widget [part~="composer-input"]').waitFor();
      expect(await runtimeCalls()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('renders the same panel on the hostile page as on the plain page', async () => {
    const plain = await visitor('dave');
    const hostile = await visitor('dave', '/hostile.html');
    try {
      await openChat(plain.page);
      await openChat(hostile.page);
      const [a, b] = await Promise.all([panel(plain.page).boundingBox(), panel(hostile.page).boundingBox()]);
      expect(a).not.toBeNull();
      expect(b).toEqual(a);
      const font = (page: Page) =>
        page.locator('chat-widget [part~="composer-input"]').evaluate((el) => getComputedStyle(el).fontSize);
      expect(await font(hostile.page)).toBe(await font(plain.page));
      // The launcher is on top of the page's own highest-z-index box in the same corner.
      const onTop = await hostile.page.evaluate(() => {
        const launcher = document.querySelector('chat-widget')?.shadowRoot?.querySelector('[part~="launcher"]');
        const box = launcher?.getBoundingClientRect();
        if (!box) return false;
        const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        return hit?.tagName === 'CHAT-WIDGET';
      });
      expect(onTop).toBe(true);
      await screenshot(plain.page, 'plain-panel');
      await screenshot(hostile.page, 'hostile-panel');
    } finally {
      await plain.context.close();
      await hostile.context.close();
    }
  });

  it('works on a page with a strict Content-Security-Policy (no eval, no inline styles)', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = collectErrors(page);
    const violations = await recordViolations(page);
    try {
      await page.goto(`${server.url}/strict-csp.html?user=alice`);
      await openChat(page);
      expect(violations).toEqual([]);
      expect(errors).toEqual([]);
      const accent = await page
        .locator('chat-widget [part~="header"]')
        .evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(accent).toBe('rgb(79, 70, 229)'); // the adopted stylesheet applied despite style-src 'self'
    } finally {
      await context.close();
    }
  });

  it('renders inline in a page section without a launcher', async () => {
    const page = await visitor('carol', '/inline.html');
    try {
      await eventually(() => messages(page.page).count()).toBe(1);
      expect(await page.page.locator('chat-widget [part~="launcher"]').count()).toBe(0);
      await screenshot(page.page, 'inline');
    } finally {
      await page.context.close();
    }
  });
});
