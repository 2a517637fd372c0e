import type { LookupAddress } from 'node:dns';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index';
import { startFixture, type Fixture } from '../server/og-fixture';
import { pngBytes } from '../ui/png';
import { launchChromium, screenshot, eventually, visit, type Visitor } from './browser';

// Link previews need a name.tld host: *.localhost is loopback for Chromium, and for the backend
// (in this process) once its DNS lookups are told so.
vi.mock('node:dns', async (importOriginal) => {
  const dns = await importOriginal<typeof import('node:dns')>();
  const lookup = (host: string, options: object, callback: (error: Error | null, addresses: LookupAddress[]) => void) =>
    host.endsWith('.localhost') ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : dns.lookup(host, options, callback as never);
  return { ...dns, lookup, default: { ...dns, lookup } };
});

const API_KEY = 'e2e-composer-key';
const API_SECRET = 'e2e-composer-secret-long-enough-for-hs256';

let browser: Browser;
let server: RunningServer;
let dataDir: string;
let site: Fixture;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chat-widget-e2e-composer-'));
  site = await startFixture();
  [browser, server] = await Promise.all([
    launchChromium(),
    startServer({
      port: 0,
      dbPath: join(dataDir, 'chat.db'),
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      devMode: true,
      staticRoot: process.cwd(),
      seed: true,
      quiet: true,
      allowPrivateOg: true,
    }),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await site?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function visitor(user: string, options: Parameters<Browser['newContext']>[0] = {}): Promise<Visitor> {
  const { context, page, errors } = await visit(browser, `${server.url}/?user=${user}`, { viewport: { width: 1000, height: 760 }, ...options });
  await page.locator('chat-widget [part~="launcher"]').click();
  await expect.poll(() => page.locator('chat-widget [part~="composer-input"]').count(), { timeout: 10_000 }).toBe(1);
  return { context, page, errors };
}

const inWidget = (page: Page, selector: string) => page.locator(`chat-widget ${selector}`);

async function chooseTool(page: Page, name: string) {
  await inWidget(page, '[part~="composer-menu-button"]').click();
  await inWidget(page, `[part~="composer-menu"] button:has-text("${name}")`).click();
}

describe('the composer in Chromium', () => {
  it('alice attaches an image and bob sees it arrive, sized before it loads', async () => {
    const alice = await visitor('alice');
    const bob = await visitor('bob');
    try {
      await inWidget(alice.page, '[part~="file-input"]').setInputFiles({
        name: 'harbor.png',
        mimeType: 'image/png',
        buffer: Buffer.from(pngBytes(480, 320)),
      });
      await eventually(() => inWidget(alice.page, '[part~="attachment-preview"][data-state="finished"]').count()).toBe(1);
      await inWidget(alice.page, '[part~="composer-input"]').fill('The harbor this morning');
      await screenshot(alice.page, 'composer-attachment-ready');
      await inWidget(alice.page, '[part~="send-button"]').click();

      const image = inWidget(bob.page, '[part~="message"]:has-text("The harbor this morning") [part~="image-attachment"]');
      await eventually(() => image.count()).toBe(1);
      // 480×320 fits the 240 px box as 240×160, declared before the bytes arrive.
      expect(await image.getAttribute('width')).toBe('240');
      expect(await image.getAttribute('height')).toBe('160');
      await eventually(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(480);
      await screenshot(bob.page, 'composer-attachment-received');
      expect(alice.errors).toEqual([]);
      expect(bob.errors).toEqual([]);
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  });

  it('alice creates a poll and bob votes on it; both see the count live', async () => {
    const alice = await visitor('alice');
    const bob = await visitor('bob');
    try {
      const question = `Lunch on Friday? ${Date.now()}`;
      await chooseTool(alice.page, 'Poll');
      const form = inWidget(alice.page, '[part~="poll-form"]');
      const create = inWidget(alice.page, '[part~="create-poll-button"]');
      expect(await create.isDisabled()).toBe(true);
      await form.getByLabel('Question').fill(question);
      await form.getByLabel('Option 1').fill('Pizza');
      await form.getByLabel('Option 2').fill('Pizza');
      await eventually(() => form.locator('.field-error').allTextContents()).toContain('Option already exists');
      await screenshot(alice.page, 'composer-poll-form-error');
      await form.getByLabel('Option 2').fill('Noodles');
      await form.getByLabel('Option 3').fill('Salad');
      await form.getByText('Let people add comments').click();
      await eventually(() => create.isDisabled()).toBe(false);
      await screenshot(alice.page, 'composer-poll-form');
      await create.click();

      const bobPoll = inWidget(bob.page, `[part~="poll"][aria-label="Poll: ${question}"]`);
      await eventually(() => bobPoll.count()).toBe(1);
      await bobPoll.locator('[part~="poll-option"]:has-text("Noodles")').click();
      await eventually(() => bobPoll.locator('[part~="poll-option"][aria-pressed="true"]').textContent()).toContain('Noodles');

      const alicePoll = inWidget(alice.page, `[part~="poll"][aria-label="Poll: ${question}"]`);
      await eventually(() => alicePoll.locator('[part~="poll-option"]:has-text("Noodles") .poll-count').textContent()).toBe('1');
      await alicePoll.locator('[part~="poll-option"]:has-text("Pizza")').click();
      await eventually(() => bobPoll.locator('[part~="poll-option"]:has-text("Pizza") .poll-count').textContent()).toBe('1');
      await screenshot(alice.page, 'composer-poll-alice');
      await screenshot(bob.page, 'composer-poll-bob');
      expect(alice.errors).toEqual([]);
      expect(bob.errors).toEqual([]);
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  });

  it('alice shares her location once and live; bob sees the coordinates and the map link', async () => {
    const geo = { permissions: ['geolocation'], geolocation: { latitude: 59.3293, longitude: 18.0686 } };
    const alice = await visitor('alice', geo);
    const bob = await visitor('bob');
    try {
      await chooseTool(alice.page, 'Location');
      await screenshot(alice.page, 'composer-location-form');
      await inWidget(alice.page, '[part~="share-location-button"]').click();
      const card = inWidget(bob.page, '[part~="shared-location"]:has-text("59.32930, 18.06860")');
      await eventually(() => card.count()).toBe(1);
      expect(await card.locator('a').getAttribute('href')).toContain('https://www.openstreetmap.org/?mlat=59.3293&mlon=18.0686');

      await alice.context.setGeolocation({ latitude: 59.33, longitude: 18.07 });
      await chooseTool(alice.page, 'Location');
      await inWidget(alice.page, '[part~="share-live-location-button"]').click();
      const live = inWidget(bob.page, '[part~="shared-location"][data-live="true"]');
      await eventually(() => live.count()).toBe(1);
      expect(await live.textContent()).toMatch(/Live until/);
      // The SDK's live-location manager follows the device and updates the message, at most
      // once per 3 s (a move inside that window is dropped, so move after it).
      await alice.page.waitForTimeout(3100);
      await alice.context.setGeolocation({ latitude: 59.34, longitude: 18.08 });
      await eventually(() => live.textContent()).toContain('59.34000, 18.08000');
      await eventually(() => inWidget(alice.page, '[part~="stop-location-button"]').count()).toBe(1);
      await screenshot(alice.page, 'composer-location-alice');
      await screenshot(bob.page, 'composer-location-bob');

      await inWidget(alice.page, '[part~="stop-location-button"]').click();
      await eventually(() => live.count()).toBe(0);
      expect(alice.errors).toEqual([]);
      expect(bob.errors).toEqual([]);
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  });

  it('alice previews a link and sends it as a card; an upload the backend refuses shows why', async () => {
    const alice = await visitor('alice');
    try {
      const url = `${site.url.replace('127.0.0.1', 'fixture.localhost')}/article`;
      const input = inWidget(alice.page, '[part~="composer-input"]');
      await input.fill(`Good read: ${url}`);
      await eventually(() => inWidget(alice.page, '[part~="link-preview"][data-status="loaded"]').count()).toBe(1);
      await inWidget(alice.page, '[part~="file-input"]').setInputFiles({ name: 'empty.txt', mimeType: 'text/plain', buffer: Buffer.alloc(0) });
      await eventually(() => inWidget(alice.page, '[part~="attachment-preview"][data-state="failed"]').count()).toBe(1);
      await eventually(() => inWidget(alice.page, '[part~="notification"]').allTextContents()).toContain(
        'Error uploading attachment: upload refused: empty.txt is empty.',
      );
      await screenshot(alice.page, 'composer-preview-and-failed-upload');
      await inWidget(alice.page, '[aria-label="Remove empty.txt"]').click();
      await inWidget(alice.page, '[part~="send-button"]').click();
      const card = inWidget(alice.page, '[part~="own-message"] [part~="link-card"]');
      await eventually(() => card.count()).toBe(1);
      expect(await card.getAttribute('href')).toBe('https://example.com/lighthouses');
      await screenshot(alice.page, 'composer-link-card');
    } finally {
      await alice.context.close();
    }
  });
});
