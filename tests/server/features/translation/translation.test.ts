// Translation through the real SDK: `translateMessage` (POST /messages/{id}/translate) and
// `translate` (POST /translate) against a LibreTranslate-compatible service, a small HTTP server
// on localhost. The translated message carries the provider's `i18n`, is stored, and reaches the
// channel as one message.updated (sockets and webhooks). Without a service both calls answer code
// 4 "not configured"; a failing, slow, flooding or unreachable service is a clear error in time;
// malformed input is the provider's error JSON, never a 500. GET /app says whether translation
// is available (auto_translation_enabled).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Event, StreamChat } from 'stream-chat';
import { loadConfig } from '../../../../src/server/config';
import { createUsers, nextEvent, signToken, startHarness, type Harness, failure } from '../../helpers';
import { until } from '../../push-receiver';
import { sleep } from '../../scenes';

type Mode = 'ok' | 'fail' | 'slow' | 'huge' | 'refuse' | 'garbage';
type Asked = { q: string; source: string; target: string; format: string; api_key?: string };

const WORDS: Record<string, Record<string, string>> = {
  fr: { 'Hello, I would like more information about your product.': "Bonjour, j'aimerais plus d'informations sur votre produit.", Hello: 'Bonjour', 'Guten Tag': 'Bonjour' },
  it: { 'Hello, I would like more information about your product.': 'Ciao, vorrei maggiori informazioni sul tuo prodotto.' },
  es: { 'Good morning': 'Buenos días' },
};

/** A LibreTranslate stand-in: POST /translate {q, source, target, format, api_key} → {translatedText, detectedLanguage?}. */
async function libreTranslate() {
  const asked: Asked[] = [];
  let mode: Mode = 'ok';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/translate') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not Found"}');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Asked;
      asked.push(body);
      const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      switch (mode) {
        case 'fail':
          return json(500, { error: 'argos crashed' });
        case 'slow':
          return void setTimeout(() => json(200, { translatedText: 'too late' }), 3000);
        case 'huge':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"translatedText":"');
          for (let i = 0; i < 200; i++) res.write('x'.repeat(1024));
          return void res.end('"}');
        case 'garbage':
          return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not json</html>');
        case 'refuse':
          return json(400, { error: `${body.target} is not supported` });
        case 'ok': {
          const translatedText = WORDS[body.target]?.[body.q] ?? `[${body.target}] ${body.q}`;
          return json(200, body.source === 'auto' ? { translatedText, detectedLanguage: { confidence: 90, language: 'en' } } : { translatedText });
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    set mode(next: Mode) {
      mode = next;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

let service: Awaited<ReturnType<typeof libreTranslate>>;
let harness: Harness;
let admin: StreamChat;
let ann: StreamChat;
let bob: StreamChat;

beforeAll(async () => {
  service = await libreTranslate();
  harness = await startHarness({
    translation: { url: service.url, apiKey: 'lt-key', timeoutMs: 600, maxBytes: 64 * 1024 },
    webhooks: { baseDelayMs: 50, maxDelayMs: 200, timeoutMs: 1000 },
  });
  admin = harness.admin;
  await createUsers(harness, 'ann', 'bob', 'carl', 'dieter');
  await admin.partialUpdateUser({ id: 'dieter', set: { language: 'de' } as never });
  await admin.channel('messaging', 'lounge', { members: ['ann', 'bob', 'carl', 'dieter'], created_by_id: 'ann' } as never).create();
  ann = await harness.connect('ann');
  bob = await harness.connect('bob');
});

afterAll(async () => {
  await harness?.close();
  await service?.close();
});

describe('translating a message', () => {
  it('adds i18n as the provider shows it, stores it, and tells the channel once with message.updated (sockets and webhooks)', async () => {
    const received: Event[] = [];
    const hooks: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (admin.verifyWebhook(body, String(req.headers['x-signature']))) received.push(JSON.parse(body) as Event);
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    try {
      await admin.updateAppSettings({ webhook_url: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks`, webhook_events: [] });
      const annChannel = ann.channel('messaging', 'lounge');
      await annChannel.watch();
      const bobChannel = bob.channel('messaging', 'lounge');
      await bobChannel.watch();
      const { message: sent } = await annChannel.sendMessage({ id: 'product-question', text: 'Hello, I would like more information about your product.' });
      const annHears = nextEvent(ann, 'message.updated', (e) => e.message?.id === sent.id);
      const before = service.asked.length;

      // Bob reads it and asks for French: the service is told to detect the source language.
      const response = (await bob.translateMessage(sent.id, 'fr')) as unknown as { message: { i18n?: Record<string, string>; text: string } };
      expect(response.message.i18n).toEqual({
        fr_text: "Bonjour, j'aimerais plus d'informations sur votre produit.",
        en_text: 'Hello, I would like more information about your product.',
        language: 'en',
      });
      expect(response.message.text).toBe('Hello, I would like more information about your product.');
      expect(service.asked.slice(before)).toEqual([
        { q: 'Hello, I would like more information about your product.', source: 'auto', target: 'fr', format: 'text', api_key: 'lt-key' },
      ]);
      const heard = await annHears;
      expect(heard.message?.i18n?.fr_text).toBe("Bonjour, j'aimerais plus d'informations sur votre produit.");
      expect(annChannel.state.messages.find((m) => m.id === sent.id)?.i18n?.language).toBe('en');

      // A second language adds to the first; the source is now known.
      const italian = (await ann.translateMessage(sent.id, 'it')) as unknown as { message: { i18n?: Record<string, string> } };
      expect(italian.message.i18n).toMatchObject({ fr_text: expect.any(String), it_text: 'Ciao, vorrei maggiori informazioni sul tuo prodotto.', language: 'en' });
      expect(service.asked.at(-1)).toMatchObject({ source: 'en', target: 'it' });

      // Stored: a new reader sees it by id and in the channel's messages.
      expect((await bob.getMessage(sent.id)).message.i18n?.it_text).toBe('Ciao, vorrei maggiori informazioni sul tuo prodotto.');
      const fresh = await harness.connect('carl');
      const carlChannel = fresh.channel('messaging', 'lounge');
      await carlChannel.watch();
      expect(carlChannel.state.messages.find((m) => m.id === sent.id)?.i18n?.fr_text).toBeDefined();

      // A language already there is answered from storage: no call, no event.
      const asked = service.asked.length;
      const quiet: Event[] = [];
      const subscription = ann.on('message.updated', (e) => quiet.push(e));
      await bob.translateMessage(sent.id, 'fr');
      await sleep(150);
      subscription.unsubscribe();
      expect(service.asked.length).toBe(asked);
      expect(quiet).toEqual([]);

      await until(() => received.filter((e) => e.type === 'message.updated' && e.message?.id === sent.id).length === 2, 'both translations as webhooks');
      const hooked = received.filter((e) => e.type === 'message.updated' && e.message?.id === sent.id);
      expect(hooked.map((e) => Object.keys(e.message?.i18n ?? {}).sort())).toEqual([
        ['en_text', 'fr_text', 'language'],
        ['en_text', 'fr_text', 'it_text', 'language'],
      ]);
    } finally {
      await admin.updateAppSettings({ webhook_url: '' });
      await new Promise<void>((resolve) => hooks.close(() => resolve()));
    }
  });

  it('takes the source language from the author\'s language when they have one', async () => {
    const { message } = await admin.channel('messaging', 'lounge').sendMessage({ text: 'Guten Tag', user_id: 'dieter' });
    const { message: translated } = (await ann.translateMessage(message.id, 'fr')) as unknown as { message: { i18n?: Record<string, string> } };
    expect(service.asked.at(-1)).toMatchObject({ q: 'Guten Tag', source: 'de', target: 'fr' });
    expect(translated.i18n).toEqual({ fr_text: 'Bonjour', de_text: 'Guten Tag', language: 'de' });
    // Asked for the author's own language, the service is not needed.
    const asked = service.asked.length;
    const { message: same } = (await ann.translateMessage(message.id, 'de')) as unknown as { message: { i18n?: Record<string, string> } };
    expect(same.i18n).toEqual({ fr_text: 'Bonjour', de_text: 'Guten Tag', language: 'de' });
    expect(service.asked.length).toBe(asked);
  });

  it('drops the translations when the text is edited, and keeps them for an edit that leaves the text', async () => {
    const channel = ann.channel('messaging', 'lounge');
    const { message } = await channel.sendMessage({ text: 'Hello' });
    await bob.translateMessage(message.id, 'fr');
    const { message: pinned } = await ann.pinMessage(message.id);
    expect(pinned.i18n?.fr_text).toBe('Bonjour');
    const { message: edited } = await ann.updateMessage({ id: message.id, text: 'Good morning' });
    expect(edited.i18n).toBeUndefined();
    const { message: again } = (await bob.translateMessage(message.id, 'es')) as unknown as { message: { i18n?: Record<string, string> } };
    expect(again.i18n).toEqual({ es_text: 'Buenos días', en_text: 'Good morning', language: 'en' });
  });

  it('refuses what cannot be translated: a deleted message, one without text, one out of reach, one that does not exist', async () => {
    const channel = ann.channel('messaging', 'lounge');
    const { message: gone } = await channel.sendMessage({ text: 'soon gone' });
    await ann.deleteMessage(gone.id);
    expect(await failure(bob.translateMessage(gone.id, 'fr'))).toMatchObject({ status: 400, code: 4 });
    const { message: bare } = await channel.sendMessage({ text: '', attachments: [{ type: 'image', image_url: 'https://example.com/a.png' }] });
    expect(await failure(bob.translateMessage(bare.id, 'fr'))).toMatchObject({ status: 400, code: 4, message: expect.stringContaining('no text') });
    await admin.channel('messaging', 'private-room', { members: ['ann'], created_by_id: 'ann' } as never).create();
    const { message: secret } = await admin.channel('messaging', 'private-room').sendMessage({ text: 'secret', user_id: 'ann' });
    expect((await failure(bob.translateMessage(secret.id, 'fr'))).code).toBe(17);
    expect(await failure(bob.translateMessage('no-such-message', 'fr'))).toMatchObject({ status: 404, code: 16 });
  });
});

describe('translating text', () => {
  it('answers {language, translated_text} from the service', async () => {
    const response = await bob.translate('Good morning', 'es', 'en');
    expect(response).toMatchObject({ language: 'es', translated_text: 'Buenos días' });
    expect(service.asked.at(-1)).toMatchObject({ q: 'Good morning', source: 'en', target: 'es', format: 'text' });
    const server = await admin.translate('Hello', 'fr', 'en');
    expect(server.translated_text).toBe('Bonjour');
  });

  it('refuses anonymous visitors (403 code 17)', async () => {
    const visitor = harness.client();
    await visitor.connectAnonymousUser();
    expect(await failure(visitor.translate('Hello', 'fr', 'en'))).toMatchObject({ status: 403, code: 17 });
  });
});

describe('a translation service that fails', () => {
  it('answers a clear error, in time, when the service errs, stalls, floods, speaks garbage, refuses or is gone', async () => {
    const { message } = await ann.channel('messaging', 'lounge').sendMessage({ text: 'Hello, I would like more information about your product.' });
    try {
      service.mode = 'fail';
      expect(await failure(bob.translateMessage(message.id, 'de'))).toMatchObject({ status: 502, code: -1, message: expect.stringContaining('HTTP 500: argos crashed') });
      expect(await failure(bob.translate('Hello', 'de', 'en'))).toMatchObject({ status: 502 });

      service.mode = 'slow';
      const started = performance.now();
      expect(await failure(bob.translateMessage(message.id, 'de'))).toMatchObject({ status: 504, message: expect.stringContaining('within 600 ms') });
      expect(performance.now() - started).toBeLessThan(2000);

      service.mode = 'huge';
      expect(await failure(bob.translate('Hello', 'de', 'en'))).toMatchObject({ status: 502, message: expect.stringContaining('more than 65536 bytes') });

      service.mode = 'garbage';
      expect(await failure(bob.translate('Hello', 'de', 'en'))).toMatchObject({ status: 502, message: expect.stringContaining('translatedText') });

      service.mode = 'refuse';
      expect(await failure(bob.translateMessage(message.id, 'xx'))).toMatchObject({ status: 400, code: 4, message: expect.stringContaining('xx is not supported') });

      // Nothing was stored by any of these.
      expect((await bob.getMessage(message.id)).message.i18n).toBeUndefined();
    } finally {
      service.mode = 'ok';
    }
    const gone = await startHarness({ translation: { url: 'http://127.0.0.1:9', timeoutMs: 600 } });
    try {
      const visitor = await gone.connect('zoe');
      expect(await failure(visitor.translate('Hello', 'fr', 'en'))).toMatchObject({ status: 502, message: expect.stringContaining('could not be reached') });
    } finally {
      await gone.close();
    }
  });
});

describe('malformed input', () => {
  it('answers the provider\'s error JSON (code 4), never a 500', async () => {
    const { message } = await ann.channel('messaging', 'lounge').sendMessage({ text: 'Hello' });
    const token = await signToken({ server: true });
    const bodies: Array<[string, unknown]> = [
      [`/messages/${message.id}/translate`, {}],
      [`/messages/${message.id}/translate`, { language: 12 }],
      [`/messages/${message.id}/translate`, { language: 'not a language' }],
      [`/messages/${message.id}/translate`, { language: ['fr'] }],
      [`/messages/${message.id}/translate`, '[1,2]'],
      [`/messages/${message.id}/translate`, '{"language":'],
      ['/translate', {}],
      ['/translate', { text: 'Hello' }],
      ['/translate', { text: 5, destination_language: 'fr' }],
      ['/translate', { text: 'Hello', destination_language: 'fr', source_language: {} }],
      ['/translate', { text: 'x'.repeat(20_001), destination_language: 'fr' }],
      ['/translate', 'null'],
    ];
    for (const [path, body] of bodies) {
      const response = await harness.request(path, { token, body: body as object });
      expect({ path, body, status: response.status, code: response.body.code }).toEqual({ path, body, status: 400, code: 4 });
    }
  });
});

describe('app settings', () => {
  it('says translation is available (auto_translation_enabled) only when a service is configured', async () => {
    expect((await bob.getAppSettings()).app?.auto_translation_enabled).toBe(true);
    const plain = await startHarness();
    try {
      const visitor = await plain.connect('zoe');
      expect((await visitor.getAppSettings()).app?.auto_translation_enabled).toBe(false);
    } finally {
      await plain.close();
    }
  });
});

describe('without a translation service', () => {
  it('answers both calls with code 4, saying translation is not configured, never a 500', async () => {
    const plain = await startHarness();
    try {
      await plain.admin.upsertUsers([{ id: 'zoe' }]);
      await plain.admin.channel('messaging', 'plain', { members: ['zoe'], created_by_id: 'zoe' } as never).create();
      const zoe = await plain.connect('zoe');
      const { message } = await zoe.channel('messaging', 'plain').sendMessage({ text: 'Hello' });
      for (const call of [zoe.translateMessage(message.id, 'fr'), zoe.translate('Hello', 'fr', 'en'), plain.admin.translate('Hello', 'fr', 'en')]) {
        expect(await failure(call)).toEqual({ status: 400, code: 4, message: expect.stringContaining('translation is not configured') });
      }
      // Even with nonsense for input.
      const response = await plain.request('/translate', { token: await signToken({ server: true }), body: '[1,2]' });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 4, StatusCode: 400, message: expect.stringContaining('not configured') });
    } finally {
      await plain.close();
    }
  });
});

describe('configuration', () => {
  it('takes the service from --translation-url or TRANSLATION_URL (and its key), and refuses an address that is not http(s)', () => {
    expect(loadConfig(['--translation-url', 'http://127.0.0.1:5000/', '--translation-api-key', 'k'], {}).translation).toEqual({ url: 'http://127.0.0.1:5000', apiKey: 'k' });
    expect(loadConfig([], { TRANSLATION_URL: 'https://translate.example.com/api', TRANSLATION_API_KEY: 'k2' }).translation).toEqual({ url: 'https://translate.example.com/api', apiKey: 'k2' });
    expect(loadConfig([], {}).translation).toBeUndefined();
    expect(() => loadConfig(['--translation-url', 'ftp://example.com'], {})).toThrow(/translation-url/);
    expect(() => loadConfig(['--translation-url', 'not a url'], {})).toThrow(/translation-url/);
  });
});
