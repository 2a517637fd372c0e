// Authentication as the SDK experiences it: JWTs, expiry and refresh, forged signatures,
// development tokens, guests and anonymous visitors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelData } from 'stream-chat';
import WebSocket from 'ws';
import { API_KEY, createUsers, signToken, startHarness, type Harness } from '../helpers';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob');
});

afterAll(async () => {
  await harness?.close();
});

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Opens /connect by hand and returns the first frame and the close code. */
async function rawConnect(url: string, userId: string, token: string) {
  const params = new URLSearchParams({
    json: JSON.stringify({ user_id: userId, user_details: { id: userId } }),
    api_key: API_KEY,
    authorization: token,
    'stream-auth-type': 'jwt',
  });
  const socket = new WebSocket(`${url.replace('http', 'ws')}/connect?${params}`);
  const first = new Promise<any>((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))));
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  return { first: await first, code: await closed };
}

describe('tokens', () => {
  it('refuses an expired token with code 40 on the socket, and connectUser succeeds through the token provider', async () => {
    const issued: string[] = [];
    const provider = async () => {
      const token = harness.token('alice', issued.length === 0 ? nowSeconds() - 60 : nowSeconds() + 3600);
      issued.push(token);
      return token;
    };
    const client = harness.client();
    const connected = await client.connectUser({ id: 'alice' }, provider);
    expect(issued).toHaveLength(2);
    expect(connected?.me?.id).toBe('alice');
    expect(client.wsConnection?.isHealthy).toBe(true);

    const { first, code } = await rawConnect(harness.url, 'alice', issued[0] as string);
    expect(first.type).toBe('connection.error');
    expect(first.error).toMatchObject({ code: 40, StatusCode: 401 });
    expect(code).toBe(1000);
  });

  it('answers an expired token with 401 code 40 over HTTP, and the SDK retries with a refreshed token', async () => {
    let calls = 0;
    const provider = async () => {
      calls += 1;
      // The first token outlives the handshake by a moment, then expires.
      return harness.token('bob', calls === 1 ? nowSeconds() + 1 : nowSeconds() + 3600);
    };
    const client = harness.client();
    await client.connectUser({ id: 'bob' }, provider);
    const stale = client._getToken() as string;
    await new Promise((resolve) => setTimeout(resolve, 2100));

    const raw = await harness.request('/users', { token: stale, userId: 'bob', query: { payload: '{}' } });
    expect(raw.status).toBe(401);
    expect(raw.body).toMatchObject({ code: 40, StatusCode: 401, more_info: expect.any(String), details: [] });

    const { users } = await client.queryUsers({ id: 'alice' });
    expect(users.map((u) => u.id)).toEqual(['alice']);
    expect(calls).toBe(2);
  });

  it('refuses a token signed with another secret with code 43, over HTTP and over the socket', async () => {
    const forged = await signToken({ user_id: 'alice' }, 'not-the-secret');
    const http = await harness.request('/channels', { token: forged, userId: 'alice', body: {} });
    expect(http.status).toBe(401);
    expect(http.body).toMatchObject({ code: 43, StatusCode: 401 });

    const client = harness.client();
    await expect(client.connectUser({ id: 'alice' }, forged)).rejects.toThrow(/"code":43/);

    const { first, code } = await rawConnect(harness.url, 'alice', forged);
    expect(first.error).toMatchObject({ code: 43, StatusCode: 401 });
    expect(code).toBe(1000);
  });

  it('refuses a token whose user_id differs from the user_id parameter', async () => {
    const response = await harness.request('/channels', { token: harness.token('alice'), userId: 'bob', body: {} });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe(43);
  });

  it('refuses tokens that are not valid yet (41) or issued in the future (42)', async () => {
    const early = await signToken({ user_id: 'alice', nbf: nowSeconds() + 600 });
    const future = await signToken({ user_id: 'alice', iat: nowSeconds() + 600 });
    expect((await harness.request('/channels', { token: early, userId: 'alice', body: {} })).body.code).toBe(41);
    expect((await harness.request('/channels', { token: future, userId: 'alice', body: {} })).body.code).toBe(42);
  });

  it('treats a {server: true} token as server-side', async () => {
    const response = await harness.request('/users', {
      token: await signToken({ server: true }),
      method: 'POST',
      body: { users: { zed: { id: 'zed', role: 'admin' } } },
    });
    expect(response.status).toBe(200);
    expect(response.body.users.zed).toMatchObject({ id: 'zed', role: 'admin' });
  });

  it('accepts development tokens only when disable_auth_checks is on', async () => {
    const devToken = harness.client().devToken('alice');
    expect(devToken.endsWith('.devtoken')).toBe(true);
    const strict = harness.client();
    await expect(strict.connectUser({ id: 'alice' }, devToken)).rejects.toThrow(/"code":43/);
    expect((await harness.request('/channels', { token: devToken, userId: 'alice', body: {} })).status).toBe(401);

    const lenient = await startHarness({ disableAuthChecks: true });
    try {
      const client = await lenient.connect('alice', { name: 'Dev Alice' }, devToken);
      expect(client.user?.name).toBe('Dev Alice');
      const settings = await client.getAppSettings();
      expect(settings.app?.disable_auth_checks).toBe(true);
    } finally {
      await lenient.close();
    }
  });

  it('refuses a wrong api key with code 2', async () => {
    const response = await harness.request('/channels', {
      token: harness.token('alice'),
      userId: 'alice',
      body: {},
      query: { api_key: 'wrong' },
    });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe(2);
  });
});

describe('guests and anonymous visitors', () => {
  it('connects a guest through setGuestUser with role guest, and the same id returns the same user', async () => {
    const first = harness.client();
    await first.setGuestUser({ id: 'visitor-1', name: 'Visitor' });
    expect(first.user).toMatchObject({ id: 'visitor-1', name: 'Visitor', role: 'guest' });
    const createdAt = first.user?.created_at;
    await first.disconnectUser();

    const again = harness.client();
    await again.setGuestUser({ id: 'visitor-1', name: 'Visitor' });
    expect(again.user).toMatchObject({ id: 'visitor-1', role: 'guest', created_at: createdAt });

    // Guests follow the member rules: they can create and use their own channel.
    const channel = again.channel('messaging', 'guest-room');
    await channel.watch();
    const { message } = await channel.sendMessage({ text: 'hello as a guest' });
    expect(message.user?.id).toBe('visitor-1');
  });

  it("does not let a guest take a registered user's id", async () => {
    const response = await harness.request('/guest', { authType: 'anonymous', body: { user: { id: 'alice' } } });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe(17);
  });

  it('lets an anonymous visitor read a livestream but not send to it', async () => {
    const host = await harness.connect('alice');
    const stage = host.channel('livestream', 'stage', { name: 'Stage' } as ChannelData);
    await stage.watch();
    await stage.sendMessage({ text: 'welcome, audience' });

    const visitor = harness.client();
    await visitor.connectAnonymousUser();
    const watched = visitor.channel('livestream', 'stage');
    const state = await watched.watch();
    expect(state.messages.map((m) => m.text)).toContain('welcome, audience');
    expect(state.channel.own_capabilities).not.toContain('send-message');
    await expect(watched.sendMessage({ text: 'heckle' })).rejects.toThrow(/code 17/);
  });
});
