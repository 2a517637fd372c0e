// The HTTP surface outside the chat calls: the provider's error JSON, CORS, health checks,
// app settings, the demo token endpoint and static files.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, startHarness, type Harness } from '../helpers';

let harness: Harness;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'chat-widget-static-'));
  mkdirSync(join(root, 'demo', 'assets'), { recursive: true });
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'demo', 'index.html'), '<chat-widget api-key="__CHAT_WIDGET_API_KEY__"></chat-widget>');
  writeFileSync(join(root, 'demo', 'inline.html'), '<p>inline __CHAT_WIDGET_API_KEY__</p>');
  writeFileSync(join(root, 'demo', 'assets', 'site.css'), 'body { color: red }');
  writeFileSync(join(root, 'dist', 'chat-widget.js'), 'console.log("__CHAT_WIDGET_API_KEY__")');
  writeFileSync(join(root, 'secret.txt'), 'outside demo/');
  harness = await startHarness({ staticRoot: root, seed: true });
});

afterAll(async () => {
  await harness?.close();
  rmSync(root, { recursive: true, force: true });
});

const errorShape = (code: number, status: number) => ({
  code,
  StatusCode: status,
  message: expect.any(String),
  duration: expect.stringMatching(/ms$/),
  more_info: expect.any(String),
  details: [],
});

describe('errors', () => {
  it('answers malformed JSON with 400 and code 4 in the provider error JSON', async () => {
    const response = await harness.request('/channels', { token: harness.token('alice'), userId: 'alice', body: '{"filter_conditions": ' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errorShape(4, 400));
  });

  it('answers unknown routes with 404 and code 16 in the provider error JSON', async () => {
    const get = await harness.request('/no/such/endpoint');
    expect(get.status).toBe(404);
    expect(get.body).toEqual(errorShape(16, 404));
    const post = await harness.request('/channels/messaging/general/bogus', { token: harness.token('alice'), body: {} });
    expect(post.status).toBe(404);
    expect(post.body.code).toBe(16);
  });

  it('answers a query on an unknown channel type with code 16, and bad input with code 4', async () => {
    const token = harness.token('alice');
    const type = await harness.request('/channels/nope/x/query', { token, userId: 'alice', body: {} });
    expect(type.body).toEqual(errorShape(16, 404));
    const limit = await harness.request('/channels', { token, userId: 'alice', body: { limit: 'many' } });
    expect(limit.body).toEqual(errorShape(4, 400));
  });
});

describe('http basics', () => {
  it('answers CORS preflight with the SDK headers allowed', async () => {
    const response = await fetch(`${harness.url}/channels`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,stream-auth-type,x-stream-client,x-client-request-id,content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = response.headers.get('access-control-allow-headers')?.split(/,\s*/) ?? [];
    expect(allowed).toEqual(
      expect.arrayContaining(['authorization', 'stream-auth-type', 'x-stream-client', 'x-client-request-id', 'content-type']),
    );
    const real = await harness.request('/hi');
    expect(real.headers.get('access-control-allow-origin')).toBe('*');
  });

  it("puts CORS and rate-limit headers on every API answer, refusals included, and keeps an answer's own origin", async () => {
    // A refusal (no token): the widget on another origin still reads the error and the limits.
    const refused = await fetch(`${harness.url}/channels?api_key=${API_KEY}`, { method: 'POST', headers: { origin: 'https://shop.example' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.headers.get('access-control-expose-headers')).toBe('X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset');
    expect(Number(refused.headers.get('x-ratelimit-limit'))).toBeGreaterThan(0);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    // The demo token is fetched with credentials: its answer names the page's origin, never '*'.
    const token = await fetch(`${harness.url}/demo/token?user=alice`, { headers: { origin: 'https://shop.example' } });
    expect(token.status).toBe(200);
    expect(token.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(token.headers.get('access-control-allow-credentials')).toBe('true');
    expect(token.headers.get('vary')).toBe('Origin');
  });

  it('answers GET /hi with a duration and GET /healthz with ok', async () => {
    const hi = await harness.request('/hi');
    expect(hi.status).toBe(200);
    expect(hi.body.duration).toMatch(/ms$/);
    const health = await fetch(`${harness.url}/healthz`);
    expect(await health.text()).toBe('ok\n');
  });

  it('serves app settings with upload configs', async () => {
    const client = await harness.connect('alice');
    const { app } = await client.getAppSettings();
    for (const config of [app?.file_upload_config, app?.image_upload_config]) {
      expect(config).toEqual({
        allowed_file_extensions: [],
        blocked_file_extensions: [],
        allowed_mime_types: [],
        blocked_mime_types: [],
        size_limit: 104857600,
      });
    }
    expect(app?.disable_auth_checks).toBe(false);
    expect(app?.channel_configs.messaging?.read_events).toBe(true);
  });
});

describe('demo support', () => {
  it('issues an hour-long token for a demo user at /demo/token in development mode', async () => {
    const response = await harness.request('/demo/token', { query: { user: 'alice' } });
    expect(response.status).toBe(200);
    expect(response.body.user).toEqual({ id: 'alice', name: 'Alice Johnson' });
    const claims = decodeJwt(response.body.token);
    expect(claims.user_id).toBe('alice');
    expect((claims.exp ?? 0) - Date.now() / 1000).toBeGreaterThan(3500);
    expect((claims.exp ?? 0) - Date.now() / 1000).toBeLessThanOrEqual(3600);

    const client = harness.client();
    await client.connectUser(response.body.user, response.body.token);
    const [general] = await client.queryChannels({ cid: 'messaging:general' });
    expect((general?.data as { name?: string } | undefined)?.name).toBe('General');
    expect(Object.keys(general?.state.members ?? {}).sort()).toEqual(['alice', 'bob', 'carol', 'dave']);
    expect(general?.state.latestMessages.length).toBeGreaterThanOrEqual(3);

    const unknown = await harness.request('/demo/token', { query: { user: 'mallory' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(errorShape(16, 404));
  });

  it('has no /demo/token in production mode', async () => {
    const production = await startHarness({ devMode: false });
    try {
      const response = await production.request('/demo/token', { query: { user: 'alice' } });
      expect(response.status).toBe(404);
      expect(response.body.code).toBe(16);
      expect(response.body.token).toBeUndefined();
    } finally {
      await production.close();
    }
  });

  it('serves demo pages with the api key substituted, files from dist/, and nothing outside them', async () => {
    const index = await fetch(`${harness.url}/`);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('cache-control')).toBe('no-store');
    expect(await index.text()).toBe(`<chat-widget api-key="${API_KEY}"></chat-widget>`);

    expect(await (await fetch(`${harness.url}/inline.html`)).text()).toBe(`<p>inline ${API_KEY}</p>`);
    const css = await fetch(`${harness.url}/assets/site.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');

    const bundle = await fetch(`${harness.url}/dist/chat-widget.js`);
    expect(bundle.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    // Only demo HTML is rewritten.
    expect(await bundle.text()).toContain('__CHAT_WIDGET_API_KEY__');
    // Files are revalidated on each use; one the browser holds comes back without its body.
    expect(bundle.headers.get('cache-control')).toBe('no-cache');
    const etag = bundle.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await fetch(`${harness.url}/dist/chat-widget.js`, { headers: { 'if-none-match': etag } });
    expect([again.status, await again.text()]).toEqual([304, '']);
    const stale = await fetch(`${harness.url}/dist/chat-widget.js`, { headers: { 'if-none-match': 'W/"old"' } });
    expect(stale.status).toBe(200);
    expect(index.headers.get('etag')).toBeNull();

    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/dist/..%2f..%2fsecret.txt']) {
      const response = await fetch(`${harness.url}${path}`);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('outside demo/');
    }
  });
});
