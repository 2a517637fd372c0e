// The demo's support desk (`/demo/token?support=1`), standing in for a site's token endpoint:
// each visitor is given a conversation of their own with the agent, made with the server-side
// SDK; no other visitor can read it, and a guest known by the site's cookie gets one too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamChat } from 'stream-chat';
import { API_KEY, startHarness, type Harness } from './helpers';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ devMode: true, seed: true });
});

afterAll(async () => {
  await harness?.close();
});

async function grant(query: string, cookie?: string) {
  const response = await fetch(`${harness.url}/demo/token?${query}`, { headers: cookie ? { cookie } : {} });
  return { body: (await response.json()) as { token: string; user: { id: string }; channel?: string }, cookie: response.headers.get('set-cookie') };
}

async function connectWith(token: string, userId: string) {
  const client = new StreamChat(API_KEY, { baseURL: harness.url });
  await client.connectUser({ id: userId }, token);
  return client;
}

describe('private support conversations', () => {
  it('names each visitor\'s own conversation with the agent, which no other visitor may read', async () => {
    const alice = await grant('user=alice&support=1');
    expect(alice.body.channel).toBe('messaging:support-alice');
    const aliceClient = await connectWith(alice.body.token, 'alice');
    const state = await aliceClient.channel('messaging', 'support-alice').watch();
    expect(state.members.map((m) => m.user_id).sort()).toEqual(['alice', 'sam']);

    const bob = await grant('user=bob&support=1');
    const bobClient = await connectWith(bob.body.token, 'bob');
    await expect(bobClient.channel('messaging', 'support-alice').query({})).rejects.toMatchObject({ code: 17 });
    // Asking again finds the same conversation rather than making another.
    expect((await grant('user=alice&support=1')).body.channel).toBe('messaging:support-alice');
    await Promise.all([aliceClient.disconnectUser(), bobClient.disconnectUser()]);
  });

  it('knows a guest by the site\'s cookie and gives them a conversation of their own', async () => {
    const first = await grant('user=guest&support=1');
    expect(first.body.user.id).toMatch(/^guest-/);
    expect(first.body.channel).toBe(`messaging:support-${first.body.user.id}`);
    const cookie = first.cookie?.split(';')[0] ?? '';
    const again = await grant('user=guest&support=1', cookie);
    expect(again.body.user.id).toBe(first.body.user.id);
    const other = await grant('user=guest&support=1');
    expect(other.body.user.id).not.toBe(first.body.user.id);
    const { users } = await harness.admin.queryUsers({ id: first.body.user.id });
    expect(users[0]?.role).toBe('guest');
  });
});
