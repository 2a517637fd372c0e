// "Translate" in a message's menu, shown only when the backend has a translator: a French
// visitor turns Bob's English message into French, and back to the original.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index';
import { eventually, launchChromium, openChat, startDemoServer } from './browser';

let browser: Browser;
let translator: Server;
let withTranslator: RunningServer;
let without: RunningServer;

/** A LibreTranslate-compatible service on localhost: "Hello" in any language is "[fr] Hello". */
function startTranslator(): Promise<Server> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const { q, target } = JSON.parse(body) as { q: string; target: string };
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ translatedText: `[${target}] ${q}`, detectedLanguage: { language: 'en', confidence: 90 } }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  [browser, translator, without] = await Promise.all([launchChromium(), startTranslator(), startDemoServer('plain-key', 'plain-secret-long-enough-for-hs256')]);
  const url = `http://127.0.0.1:${(translator.address() as AddressInfo).port}`;
  withTranslator = await startServer({
    port: 0, apiKey: 'tr-key', apiSecret: 'tr-secret-long-enough-for-hs256-x', devMode: true, staticRoot: process.cwd(), seed: true, quiet: true,
    translation: { url },
  });
});

afterAll(async () => {
  await browser?.close();
  await withTranslator?.close();
  await without?.close();
  translator?.close();
});

const part = (page: Page, name: string) => page.locator(`chat-widget [part~="${name}"]`);

async function menuOf(page: Page, text: string) {
  const message = part(page, 'message').filter({ hasText: text });
  await message.locator('[part~="message-actions-button"]').click();
  return page.locator('chat-widget [role="menuitem"]');
}

describe('translating a message', () => {
  it('translates someone else’s message into the visitor’s language, and shows the original again', async () => {
    const bob = await openChat(browser, withTranslator.url, 'bob');
    const alice = await openChat(browser, withTranslator.url, 'alice');
    try {
      await alice.page.evaluate(() => document.querySelector('chat-widget')!.setAttribute('locale', 'fr'));
      const said = `Good morning ${Date.now()}`;
      await part(bob.page, 'composer-input').fill(said);
      await part(bob.page, 'composer-input').press('Enter');
      await part(alice.page, 'message').filter({ hasText: said }).waitFor();
      const items = await menuOf(alice.page, said);
      await items.filter({ hasText: 'Traduire' }).click();
      await part(alice.page, 'message').filter({ hasText: `[fr] ${said}` }).waitFor();
      await part(alice.page, 'translation-toggle').click(); // "Voir l’original"
      await eventually(() => part(alice.page, 'message').filter({ hasText: `[fr] ${said}` }).count()).toBe(0);
      await part(alice.page, 'message').filter({ hasText: said }).waitFor();
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  });

  it('is not offered where the backend has no translator', async () => {
    const alice = await openChat(browser, without.url, 'alice');
    try {
      const items = await menuOf(alice.page, 'Hi Alice!');
      await items.first().waitFor();
      expect(await items.allTextContents()).not.toContain('Translate');
    } finally {
      await alice.context.close();
    }
  });
});
