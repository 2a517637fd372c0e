// The app's settings through the server-side SDK (updateAppSettings) and what each one changes:
// upload checks, development tokens, token revocation, webhooks (signed, retried across an
// outage, in order); plus the per-endpoint rate-limit counters and the hook event list.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamChat, type Event } from 'stream-chat';
import { API_KEY, createUsers, startHarness, type Harness } from '../helpers';
import { sleep, watchingPair } from '../scenes';

let harness: Harness;

beforeAll(async () => {
  // Short back-off so an outage of a few hundred milliseconds is retried within the test.
  harness = await startHarness({ webhooks: { baseDelayMs: 50, maxDelayMs: 200, timeoutMs: 1000 } });
  await createUsers(harness, 'alice', 'bob');
});

afterAll(async () => {
  await harness?.close();
});

/** A webhook receiver on localhost that checks every signature and can be made to fail. */
async function receiver() {
  const received: { event: Event; headers: IncomingMessage['headers']; valid: boolean }[] = [];
  let failing = false;
  let attempts = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      attempts += 1;
      if (failing) {
        res.writeHead(503).end();
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      const valid = harness.admin.verifyWebhook(body, String(req.headers['x-signature']));
      received.push({ event: JSON.parse(body) as Event, headers: req.headers, valid });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    attempts: () => attempts,
    fail: (value: boolean) => {
      failing = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until(check: () => boolean, timeoutMs = 5000) {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(20);
  }
}

describe('webhooks', () => {
  it('POSTs every event signed with the secret (verifyWebhook accepts it), with the provider\'s headers', async () => {
    const hook = await receiver();
    try {
      await harness.admin.updateAppSettings({ webhook_url: hook.url, webhook_events: [] });
      const { ac } = await watchingPair(harness, 'hooked');
      const { message } = await ac.sendMessage({ text: 'hello hooks' });
      await ac.sendReaction(message.id, { type: 'like' });
      await until(() => hook.received.some((r) => r.event.type === 'reaction.new'));
      const sent = hook.received.find((r) => r.event.type === 'message.new');
      expect(sent?.event.message?.text).toBe('hello hooks');
      expect(sent?.headers['x-api-key']).toBe(API_KEY);
      expect(sent?.headers['x-webhook-id']).toEqual(expect.any(String));
      expect(hook.received.every((r) => r.valid)).toBe(true);
      expect(harness.admin.verifyWebhook('{"tampered":true}', String(sent?.headers['x-signature']))).toBe(false);
    } finally {
      await harness.admin.updateAppSettings({ webhook_url: '' });
      await hook.close();
    }
  });

  it('sends only the selected event types', async () => {
    const hook = await receiver();
    try {
      await harness.admin.updateAppSettings({ webhook_url: hook.url, webhook_events: ['message.updated'] });
      const { ac } = await watchingPair(harness, 'selected');
      const { message } = await ac.sendMessage({ text: 'first' });
      await ac.getClient().updateMessage({ id: message.id, text: 'second' });
      await until(() => hook.received.length >= 1);
      await sleep(100);
      expect(hook.received.map((r) => r.event.type)).toEqual(['message.updated']);
    } finally {
      await harness.admin.updateAppSettings({ webhook_url: '', webhook_events: [] });
      await hook.close();
    }
  });

  it('loses nothing across a receiver outage, and the chat never waits for it', async () => {
    const hook = await receiver();
    try {
      await harness.admin.updateAppSettings({ webhook_url: hook.url, webhook_events: ['message.new'] });
      const { ac } = await watchingPair(harness, 'outage');
      hook.fail(true);
      const started = performance.now();
      for (let i = 0; i < 20; i++) await ac.sendMessage({ text: `during outage ${i}` });
      // 20 sends while every delivery fails: the requests do not wait for the receiver.
      expect(performance.now() - started).toBeLessThan(2000);
      await until(() => hook.attempts() >= 20);
      expect(hook.received).toEqual([]);
      hook.fail(false);
      await until(() => hook.received.length >= 20, 8000);
      const texts = hook.received.map((r) => r.event.message?.text);
      expect(new Set(texts).size).toBe(20);
      expect(texts).toEqual(expect.arrayContaining(['during outage 0', 'during outage 19']));
    } finally {
      await harness.admin.updateAppSettings({ webhook_url: '' });
      await hook.close();
    }
  });

  it('refuses a webhook_url that is not http(s) and unknown event types (4); lists the hook events', async () => {
    await expect(harness.admin.updateAppSettings({ webhook_url: 'ftp://example.invalid' })).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.updateAppSettings({ webhook_events: ['message.exploded'] })).rejects.toMatchObject({ code: 4 });
    const { events } = await harness.admin.getHookEvents();
    expect(events.map((e) => e.name)).toEqual(expect.arrayContaining(['message.new', 'user.banned', 'channel.deleted']));
  });
});

describe('app settings', () => {
  it('applies upload checks set through updateAppSettings: GET /app shows them and uploads obey', async () => {
    await harness.admin.updateAppSettings({ file_upload_config: { blocked_file_extensions: ['.exe'], size_limit: 1000 } });
    const alice = await harness.connect('alice');
    const app = await alice.getAppSettings();
    expect(app.app?.file_upload_config).toMatchObject({ blocked_file_extensions: ['.exe'], size_limit: 1000 });
    const channel = alice.channel('messaging', 'uploads-checked', { members: ['alice'] });
    await channel.watch();
    await expect(channel.sendFile(Buffer.from('MZ'), 'tool.exe', 'application/octet-stream')).rejects.toMatchObject({ code: 4 });
    await expect(channel.sendFile(Buffer.alloc(2000), 'big.txt', 'text/plain')).rejects.toMatchObject({ code: 4 });
    await channel.sendFile(Buffer.from('hi'), 'note.txt', 'text/plain');
    await harness.admin.updateAppSettings({ file_upload_config: {} });
    await expect(harness.admin.updateAppSettings({ file_upload_config: { size_limit: -5 } })).rejects.toMatchObject({ code: 4 });
  });

  it('turns development tokens on and off with disable_auth_checks', async () => {
    const client = harness.client();
    await expect(client.connectUser({ id: 'alice' }, client.devToken('alice'))).rejects.toThrow();
    await harness.admin.updateAppSettings({ disable_auth_checks: true });
    try {
      const dev = new StreamChat(API_KEY, { baseURL: harness.url });
      await dev.connectUser({ id: 'alice' }, dev.devToken('alice'));
      await dev.disconnectUser();
    } finally {
      await harness.admin.updateAppSettings({ disable_auth_checks: false });
    }
  });

  it('revokes every token issued before a date, app-wide; tokens issued after still work', async () => {
    const old = harness.token('bob');
    await harness.admin.updateAppSettings({ revoke_tokens_issued_before: new Date().toISOString() });
    try {
      await sleep(1100);
      const refused = await harness.request('/users', { token: old, userId: 'bob', query: { payload: '{}' } });
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ code: 40 });
      const fresh = new StreamChat('x', 'test-api-secret-0123456789abcdef').createToken('bob', undefined, Math.floor(Date.now() / 1000));
      const accepted = await harness.request('/users', { token: fresh, userId: 'bob', query: { payload: '{}' } });
      expect(accepted.status).toBe(200);
    } finally {
      await harness.admin.updateAppSettings({ revoke_tokens_issued_before: null });
    }
  });

  it('is server-side only', async () => {
    const alice = await harness.connect('alice');
    await expect(alice.updateAppSettings({ disable_auth_checks: true })).rejects.toMatchObject({ code: 17 });
  });
});

describe('rate limits and tasks', () => {
  it('counts each endpoint per platform: headers on every answer, and GET /rate_limits reports them', async () => {
    const alice = await harness.connect('alice');
    const before = (await harness.admin.getRateLimits({ web: true, endpoints: ['QueryUsers'] })).web?.QueryUsers;
    await alice.queryUsers({ id: 'bob' });
    await alice.queryUsers({ id: 'bob' });
    const after = (await harness.admin.getRateLimits({ web: true, endpoints: ['QueryUsers'] })).web?.QueryUsers;
    expect(after?.limit).toBe(1000);
    expect((before?.remaining ?? 0) - (after?.remaining ?? 0)).toBe(2);
    const raw = await harness.request('/users', { token: harness.token('alice'), userId: 'alice', query: { payload: '{}' } });
    expect(Number(raw.headers.get('x-ratelimit-limit'))).toBe(1000);
    expect(Number(raw.headers.get('x-ratelimit-remaining'))).toBeLessThan(1000);
    expect(Number(raw.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    // The same answer carries its JSON type and the CORS headers, each once (the middleware adds to it).
    expect(raw.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(raw.headers.get('access-control-allow-origin')).toBe('*');
    expect(raw.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Reset');
    const all = await harness.admin.getRateLimits();
    expect(Object.keys(all)).toEqual(expect.arrayContaining(['server_side', 'web', 'ios', 'android']));
    expect(all.server_side?.UpdateApp?.limit).toBe(60);
  });

  it('answers an unknown task id with 16', async () => {
    await expect(harness.admin.getTask('no-such-task')).rejects.toMatchObject({ code: 16 });
  });
});
