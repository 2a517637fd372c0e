// GET /rate_limits (client.getRateLimits) as the provider answers it: a map per platform
// (server_side, android, ios, web) of endpoint name → {limit, remaining, reset}; asking for some
// platforms leaves the others out, and `endpoints` keeps just those names in every map (the
// GetRateLimits call itself counted among them, server-side).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GetRateLimitsResponse } from 'stream-chat';
import { createUsers, failure, startHarness, type Harness } from '../helpers';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob');
});

afterAll(async () => {
  await harness?.close();
});

describe('GET /rate_limits', () => {
  it('answers every platform when none is asked for, each with the provider\'s endpoint names and limits', async () => {
    const all: GetRateLimitsResponse = await harness.admin.getRateLimits();
    expect(Object.keys(all).filter((key) => key !== 'duration').sort()).toEqual(['android', 'ios', 'server_side', 'web']);
    for (const platform of ['server_side', 'android', 'ios', 'web'] as const) {
      expect(all[platform]?.SendMessage).toMatchObject({ limit: 1000, remaining: expect.any(Number), reset: expect.any(Number) });
      expect(all[platform]?.QueryChannels?.limit).toBe(10_000);
      expect(all[platform]?.UpdateApp?.limit).toBe(60);
    }
  });

  it('keeps to the platforms asked for', async () => {
    const some = await harness.admin.getRateLimits({ serverSide: true, android: true });
    expect(some.server_side).toBeDefined();
    expect(some.android).toBeDefined();
    expect(some).not.toHaveProperty('ios');
    expect(some).not.toHaveProperty('web');
    const one = await harness.admin.getRateLimits({ ios: true });
    expect(Object.keys(one).filter((key) => key !== 'duration')).toEqual(['ios']);
  });

  it('keeps to the endpoints asked for, counting GetRateLimits itself on the server side only', async () => {
    const response = await harness.admin.getRateLimits({ serverSide: true, android: true, endpoints: ['GetRateLimits', 'SendMessage'] });
    expect(Object.keys(response.android ?? {}).sort()).toEqual(['GetRateLimits', 'SendMessage']);
    expect(Object.keys(response.server_side ?? {}).sort()).toEqual(['GetRateLimits', 'SendMessage']);
    expect(response.android?.GetRateLimits?.remaining).toBe(response.android?.GetRateLimits?.limit);
    expect(response.server_side?.GetRateLimits?.remaining).toBeLessThan(response.server_side!.GetRateLimits!.limit);
  });

  it('counts each platform apart: a browser\'s calls are web\'s, an iOS client\'s are ios\'s', async () => {
    const before = await harness.admin.getRateLimits({ endpoints: ['QueryUsers'] });
    const alice = await harness.connect('alice');
    await alice.queryUsers({ id: 'bob' });
    const ios = await harness.request('/users', {
      token: harness.token('bob'),
      userId: 'bob',
      query: { payload: JSON.stringify({ filter_conditions: { id: 'alice' } }) },
      headers: { 'x-stream-client': 'stream-chat-swift-client-v4.0.0|os=iOS 17' },
    });
    expect(ios.status).toBe(200);
    const after = await harness.admin.getRateLimits({ endpoints: ['QueryUsers'] });
    const used = (platform: 'web' | 'ios' | 'android' | 'server_side') =>
      (before[platform]?.QueryUsers?.remaining ?? 0) - (after[platform]?.QueryUsers?.remaining ?? 0);
    expect([used('web'), used('ios'), used('android'), used('server_side')]).toEqual([1, 1, 0, 0]);
  });

  it('refuses a platform flag that is not a boolean (4), and is the server side\'s alone (17)', async () => {
    const odd = await harness.request('/rate_limits', { token: harness.admin._getToken() ?? '', query: { server_side: 'perhaps' } });
    expect(odd.body).toMatchObject({ code: 4, StatusCode: 400 });
    const alice = await harness.connect('alice');
    expect(await failure(alice.getRateLimits())).toMatchObject({ status: 403, code: 17 });
  });
});
