// Rate limits, on by default as a fresh `npm start` has them: each user may
// call one endpoint 60 times a minute per platform; the 61st is a 429 with code 9 and the
// X-RateLimit headers; server-side calls (signed with the secret) are exempt from the user
// limit; GET /rate_limits reports the same counters; `--rate-limits off` turns enforcement off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config';
import { RateLimitCounters } from '../../../src/server/http/rate-limit-counters';
import { createUsers, startHarness, type Harness } from '../helpers';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob');
});

afterAll(async () => {
  await harness?.close();
});

const queryUsers = (userId: string) =>
  harness.request('/users', { token: harness.token(userId), userId, query: { payload: JSON.stringify({ filter_conditions: { id: 'bob' } }) } });

describe('the user limit', () => {
  it('answers a user\'s 61st request in a minute to one endpoint with 429 code 9 and the headers; other endpoints, other users and the server-side SDK go on', async () => {
    const alice = await harness.connect('alice');
    for (let i = 0; i < 60; i++) await alice.queryUsers({ id: 'bob' });
    await expect(alice.queryUsers({ id: 'bob' })).rejects.toMatchObject({ code: 9, status: 429 });

    const refused = await queryUsers('alice');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 9, StatusCode: 429 });
    expect(refused.body.message).toMatch(/QueryUsers allows 60 a minute per user/);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('60');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    const reset = Number(refused.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);

    // Another endpoint for alice, and the same endpoint for bob, are their own windows.
    const ok = await alice.getAppSettings();
    expect(ok.app).toBeDefined();
    const bob = await queryUsers('bob');
    expect(bob.status).toBe(200);
    expect(bob.headers.get('x-ratelimit-limit')).toBe('1000');

    // The site's server is exempt from the user limit.
    for (let i = 0; i < 80; i++) await harness.admin.queryUsers({ id: 'alice' });
    const web = (await harness.admin.getRateLimits({ web: true, endpoints: ['QueryUsers'] })).web?.QueryUsers;
    expect(web).toMatchObject({ limit: 1000 });
    expect(web!.remaining).toBeLessThanOrEqual(1000 - 61);
    const server = (await harness.admin.getRateLimits({ serverSide: true, endpoints: ['QueryUsers'] })).server_side?.QueryUsers;
    expect(server!.remaining).toBeLessThanOrEqual(1000 - 80);
  });

  it('puts the headers on every API answer, errors included', async () => {
    const missing = await harness.request('/messages/no-such-message', { token: harness.token('bob'), userId: 'bob' });
    expect(missing.status).toBe(404);
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
      expect(missing.headers.get(name), name).toMatch(/^\d+$/);
    }
    // Exposed to a widget on another origin, which says when a refused send may be retried.
    expect(missing.headers.get('access-control-expose-headers')).toBe('X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset');
  });
});

describe('connects', () => {
  it('counts a connect like any call: past the user\'s limit the socket is refused with code 9', async () => {
    const tight = await startHarness({ limits: { userRequestsPerMinute: 3 } });
    try {
      await createUsers(tight, 'dora');
      for (let i = 0; i < 3; i++) await (await tight.connect('dora')).disconnectUser();
      await expect(tight.connect('dora')).rejects.toThrow(/"code":9/);
      const { server_side: server, web } = await tight.admin.getRateLimits({ endpoints: ['Connect'] });
      expect(web?.Connect?.remaining).toBe(10_000 - 3);
      expect(server?.Connect?.remaining).toBe(10_000);
    } finally {
      await tight.close();
    }
  });
});

describe('the endpoint limit', () => {
  it('refuses everyone on a platform once an endpoint\'s own limit is spent, and counts the server side apart', () => {
    const counters = new RateLimitCounters();
    const now = Date.now();
    const call = (userId: string | undefined, platform: 'web' | 'server_side' = 'web') =>
      counters.take({ platform, method: 'DELETE', path: '/channels/messaging/x', ...(userId ? { userId } : {}) }, now);
    for (let i = 0; i < 60; i++) expect(call(`user-${i}`).allowed).toBe(true);
    expect(call('one-more')).toMatchObject({ allowed: false, limit: 60, remaining: 0, endpoint: 'DeleteChannel', perUser: false });
    expect(call(undefined, 'server_side').allowed).toBe(true);
    // A minute later the window is new.
    expect(counters.take({ platform: 'web', method: 'DELETE', path: '/channels/messaging/x', userId: 'late' }, now + 60_001).allowed).toBe(true);
  });

  it('lasts the configured window when a test shortens it', () => {
    const counters = new RateLimitCounters({ userRequestsPerMinute: 1, rateLimitWindowMs: 5_000 });
    const now = Date.now();
    const send = (at: number) => counters.take({ platform: 'web', method: 'POST', path: '/channels/messaging/x/message', userId: 'ann' }, at);
    expect(send(now).allowed).toBe(true);
    expect(send(now + 4_000)).toMatchObject({ allowed: false, reset: Math.ceil((now + 5_000) / 1000) });
    expect(send(now + 5_001).allowed).toBe(true);
  });

  it('names a route the provider\'s table does not by its method and path, each with its own window', () => {
    const counters = new RateLimitCounters();
    const a = counters.take({ platform: 'web', method: 'POST', path: '/channels/messaging/x/draft', route: '/channels/:type/:id/draft', userId: 'u' });
    const b = counters.take({ platform: 'web', method: 'POST', path: '/polls', route: '/polls', userId: 'u' });
    expect(a.endpoint).toBe('POST /channels/:type/:id/draft');
    expect(b.endpoint).toBe('POST /polls');
    expect(a.remaining).toBe(999);
    expect(b.remaining).toBe(999);
  });
});

describe('turning limits off', () => {
  it('lets a user past 60 with --rate-limits off (and RATE_LIMITS=off), still reporting the headers', async () => {
    expect(loadConfig(['--rate-limits', 'off'], {}).limits.rateLimits).toBe(false);
    expect(loadConfig([], { RATE_LIMITS: 'off' }).limits.rateLimits).toBe(false);
    expect(loadConfig([], {}).limits.rateLimits).toBeUndefined();
    expect(() => loadConfig(['--rate-limits', 'maybe'], {})).toThrow(/on or off/);

    const off = await startHarness({ limits: loadConfig(['--rate-limits', 'off'], {}).limits });
    try {
      await createUsers(off, 'carol');
      let last = { status: 0, headers: new Headers() } as Awaited<ReturnType<Harness['request']>>;
      for (let i = 0; i < 70; i++) {
        last = await off.request('/users', { token: off.token('carol'), userId: 'carol', query: { payload: '{}' } });
        expect(last.status).toBe(200);
      }
      expect(Number(last.headers.get('x-ratelimit-remaining'))).toBe(1000 - 70);
    } finally {
      await off.close();
    }
  });

  it('reads every limit from flags and the environment, in seconds and bytes', () => {
    const { limits } = loadConfig(
      ['--idle-timeout', '90', '--ping-interval', '20', '--max-unsent-bytes', '1048576', '--max-connections-per-user', '5', '--max-body-bytes', '100000', '--max-json-depth', '20', '--user-rate-limit', '120'],
      {},
    );
    expect(limits).toEqual({
      idleTimeoutMs: 90_000,
      pingIntervalMs: 20_000,
      maxUnsentBytes: 1_048_576,
      maxConnectionsPerUser: 5,
      maxBodyBytes: 100_000,
      maxJsonDepth: 20,
      userRequestsPerMinute: 120,
    });
    expect(loadConfig([], { IDLE_TIMEOUT: '0', MAX_CONNECTIONS_PER_USER: '2' }).limits).toEqual({ idleTimeoutMs: 0, maxConnectionsPerUser: 2 });
    expect(() => loadConfig(['--max-body-bytes', 'lots'], {})).toThrow(/max-body-bytes/);
  });
});
