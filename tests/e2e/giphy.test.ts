// `/giphy` in Chromium, against a Giphy-compatible search API on localhost that also serves the
// images: Alice's `/giphy cats` shows her alone a preview (the GIF, its title as alt text, Send,
// Shuffle and Cancel as real buttons); Shuffle shows the next GIF, Cancel removes the preview, and
// Send posts the GIF Bob then sees. tests/output/giphy-preview.png is the preview.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index';
import { pngBytes } from '../ui/png';
import { eventually, launchChromium, openChat, screenshot } from './browser';

let browser: Browser;
let giphy: Server;
let server: RunningServer;
const searches: string[] = [];

/** GET /v1/gifs/search answers one GIF per offset (three in all); /media/* serves the images. */
function startGiphy(): Promise<Server> {
  const image = Buffer.from(pngBytes(240, 180));
  const api = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname.startsWith('/media/')) return void response.writeHead(200, { 'content-type': 'image/png' }).end(image);
    searches.push(url.search);
    const offset = Number(url.searchParams.get('offset'));
    const q = url.searchParams.get('q') ?? '';
    const base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    const rendition = { url: `${base}/media/${encodeURIComponent(q)}-${offset}.gif`, width: '240', height: '180' };
    const data = offset < 3 ? [{ id: `${q}-${offset}`, title: `${q} ${offset}`, url: `${base}/gifs/${offset}`, images: { fixed_height: rendition, original: rendition } }] : [];
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
  });
  return new Promise((resolve) => api.listen(0, '127.0.0.1', () => resolve(api)));
}

beforeAll(async () => {
  [browser, giphy] = await Promise.all([launchChromium(), startGiphy()]);
  server = await startServer({
    port: 0, apiKey: 'giphy-e2e-key', apiSecret: 'giphy-e2e-secret-long-enough-for-hs256', devMode: true, staticRoot: process.cwd(), seed: true, quiet: true,
    giphy: { url: `http://127.0.0.1:${(giphy.address() as AddressInfo).port}`, apiKey: 'e2e' },
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  giphy?.close();
});

const part = (page: Page, name: string) => page.locator(`chat-widget [part~="${name}"]`);

/** As a visitor does it: `/gi`, Enter picks /giphy from the list (a chip), then the words. */
async function giphyCommand(page: Page, words: string) {
  const input = part(page, 'composer-input');
  await input.pressSequentially('/gi');
  await page.locator('chat-widget [role="option"]').filter({ hasText: '/giphy' }).first().waitFor();
  await input.press('Enter');
  await part(page, 'command-chip').waitFor();
  await input.pressSequentially(words);
  await input.press('Enter');
}

describe('/giphy in the widget', () => {
  it('previews the GIF to its sender with Send, Shuffle and Cancel; Send posts it for everyone', async () => {
    const alice = await openChat(browser, server.url, 'alice');
    const bob = await openChat(browser, server.url, 'bob');
    try {
      await giphyCommand(alice.page, 'cats');
      const preview = part(alice.page, 'giphy-preview');
      await preview.waitFor();
      expect(await preview.getAttribute('role')).toBe('group');
      expect(await preview.textContent()).toContain('GIPHY preview, only visible to you');
      expect(await preview.locator('button').allTextContents()).toEqual(['Send', 'Shuffle', 'Cancel']);
      const image = preview.locator('img');
      expect(await image.getAttribute('alt')).toBe('cats');
      await eventually(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240);
      await preview.scrollIntoViewIfNeeded();
      await screenshot(alice.page, 'giphy-preview');
      // Bob has nothing of it.
      expect(await part(bob.page, 'giphy-preview').count()).toBe(0);

      await part(alice.page, 'giphy-shuffle').click();
      await eventually(() => image.getAttribute('src')).toMatch(/cats-1\.gif$/);

      await part(alice.page, 'giphy-send').click();
      await eventually(() => part(alice.page, 'giphy-preview').count()).toBe(0);
      const sent = part(bob.page, 'giphy-attachment').locator('img[alt="cats"]');
      await sent.waitFor();
      expect(await sent.getAttribute('src')).toMatch(/cats-1\.gif$/);
      await part(alice.page, 'giphy-attachment').locator('img[alt="cats"]').waitFor();
      expect([...alice.errors, ...bob.errors]).toEqual([]);
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  });

  it('Cancel removes the preview and sends nothing', async () => {
    const alice = await openChat(browser, server.url, 'alice');
    try {
      const before = await part(alice.page, 'giphy-attachment').count();
      await giphyCommand(alice.page, 'owls');
      await part(alice.page, 'giphy-preview').waitFor();
      await part(alice.page, 'giphy-cancel').click();
      await eventually(() => part(alice.page, 'giphy-preview').count()).toBe(0);
      expect(await part(alice.page, 'giphy-attachment').count()).toBe(before);
      expect(searches.some((search) => search.includes('q=owls'))).toBe(true);
      expect(alice.errors).toEqual([]);
    } finally {
      await alice.context.close();
    }
  });
});
