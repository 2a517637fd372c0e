// Devices, push preferences and unread counts through the real SDK: a visitor manages their own
// devices and preferences, the server-side client anyone's; malformed input gets the provider's
// error JSON, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamChat } from 'stream-chat';
import { createUsers, signToken, startHarness, type Harness } from '../../helpers';

let harness: Harness;
let alice: StreamChat;
let bob: StreamChat;

beforeAll(async () => {
  harness = await startHarness({ push: { maxDevicesPerUser: 3 } });
  await createUsers(harness, 'alice', 'bob', 'carol');
  alice = await harness.connect('alice');
  bob = await harness.connect('bob');
});

afterAll(async () => {
  await harness?.close();
});

describe('devices', () => {
  it('a visitor adds, lists and removes their devices', async () => {
    await alice.addDevice('alice-pixel', 'firebase');
    await alice.addDevice('alice-iphone', 'apn', undefined, 'ios-prod');
    const { devices } = await alice.getDevices();
    expect(devices).toEqual([
      expect.objectContaining({ id: 'alice-pixel', push_provider: 'firebase', user_id: 'alice', disabled: false, created_at: expect.any(String) }),
      expect.objectContaining({ id: 'alice-iphone', push_provider: 'apn', push_provider_name: 'ios-prod', user_id: 'alice' }),
    ]);
    await alice.removeDevice('alice-pixel');
    expect((await alice.getDevices()).devices?.map((d) => d.id)).toEqual(['alice-iphone']);
    await expect(alice.removeDevice('alice-pixel')).rejects.toMatchObject({ code: 16, status: 404 });
  });

  it('takes the four providers the SDK names, and refuses others', async () => {
    for (const provider of ['huawei', 'xiaomi'] as const) await bob.addDevice(`bob-${provider}`, provider);
    await expect(bob.addDevice('bob-nokia', 'nokia' as never)).rejects.toMatchObject({ code: 4, status: 400 });
    await expect(bob.addDevice('', 'firebase')).rejects.toMatchObject({ code: 4 });
  });

  it('keeps a bounded number per user, dropping the oldest, and moves a token to its new owner', async () => {
    for (const id of ['c1', 'c2', 'c3', 'c4']) await harness.admin.addDevice(id, 'firebase', 'carol');
    expect((await harness.admin.getDevices('carol')).devices?.map((d) => d.id)).toEqual(['c2', 'c3', 'c4']);
    await alice.addDevice('c4', 'firebase');
    expect((await harness.admin.getDevices('carol')).devices?.map((d) => d.id)).toEqual(['c2', 'c3']);
    expect((await alice.getDevices()).devices?.map((d) => d.id)).toContain('c4');
  });

  it("manages another user's devices only server-side (or as an admin)", async () => {
    await expect(alice.addDevice('for-bob', 'firebase', 'bob')).rejects.toMatchObject({ code: 17, status: 403 });
    await expect(alice.removeDevice('bob-huawei', 'bob')).rejects.toMatchObject({ code: 43 });
    await harness.admin.removeDevice('bob-huawei', 'bob');
    expect((await bob.getDevices()).devices?.map((d) => d.id)).toEqual(['bob-xiaomi']);
    await expect(harness.admin.getDevices()).rejects.toMatchObject({ code: 4 });
  });

  it('registers the device a client sets before connecting, and lists devices in `me`', async () => {
    const client = harness.client();
    client.setLocalDevice({ id: 'carol-web', push_provider: 'firebase' });
    const connected = await client.connectUser({ id: 'carol' }, harness.token('carol'));
    expect(connected?.me?.devices.map((d) => d.id)).toContain('carol-web');
  });
});

describe('push preferences', () => {
  it('sets the user and channel levels and answers them', async () => {
    await harness.admin.channel('messaging', 'prefs', { members: ['alice', 'bob'], created_by_id: 'alice' }).create();
    const until = new Date(Date.now() + 60_000).toISOString();
    const answer = await alice.setPushPreferences([
      { chat_level: 'mentions', call_level: 'none', chat_preferences: { thread_replies: 'none' } },
      { channel_cid: 'messaging:prefs', chat_level: 'none', disabled_until: until },
    ]);
    expect(answer.user_preferences.alice).toEqual({ chat_level: 'mentions', call_level: 'none', chat_preferences: { thread_replies: 'none' } });
    expect(answer.user_channel_preferences.alice?.['messaging:prefs']).toEqual({ chat_level: 'none', disabled_until: until });
    // A later change keeps what it does not name.
    const snooze = await alice.setPushPreferences([{ disabled_until: until }]);
    expect(snooze.user_preferences.alice).toMatchObject({ chat_level: 'mentions', disabled_until: until });
    const lifted = await alice.setPushPreferences([{ remove_disable: true }]);
    expect(lifted.user_preferences.alice?.disabled_until).toBeUndefined();

    const server = await harness.admin.setPushPreferences([{ user_id: 'bob', chat_level: 'all' }]);
    expect(server.user_preferences.bob).toEqual({ chat_level: 'all' });
    const me = await harness.client().connectUser({ id: 'alice' }, harness.token('alice'));
    expect(me?.me?.push_preferences).toMatchObject({ chat_level: 'mentions', call_level: 'none' });
  });

  it('refuses bad levels, dates, channels and other users with the provider\'s errors', async () => {
    await expect(alice.setPushPreferences([{ chat_level: 'loud' }])).rejects.toMatchObject({ code: 4 });
    await expect(alice.setPushPreferences([{ disabled_until: 'soon' }])).rejects.toMatchObject({ code: 4 });
    await expect(alice.setPushPreferences([{ channel_cid: 'messaging:nowhere', chat_level: 'none' }])).rejects.toMatchObject({ code: 4 });
    await expect(alice.setPushPreferences([{ chat_preferences: { loudness: 'all' } as never }])).rejects.toMatchObject({ code: 4 });
    await expect(alice.setPushPreferences([])).rejects.toMatchObject({ code: 4 });
    await expect(alice.setPushPreferences([{ user_id: 'bob', chat_level: 'none' }])).rejects.toMatchObject({ code: 17 });
    await expect(harness.admin.setPushPreferences([{ chat_level: 'none' }])).rejects.toMatchObject({ code: 4 });
  });
});

describe('unread counts', () => {
  it('answers per channel, per type and per thread, and in a batch server-side', async () => {
    await harness.admin.channel('messaging', 'unread-a', { members: ['alice', 'bob'], created_by_id: 'alice' }).create();
    await harness.admin.channel('team', 'unread-b', { members: ['alice', 'bob'], created_by_id: 'alice' }).create();
    const a = alice.channel('messaging', 'unread-a');
    const b = alice.channel('team', 'unread-b');
    await a.watch();
    await b.watch();
    const { message: parent } = await a.sendMessage({ text: 'one' });
    await a.sendMessage({ text: 'two' });
    await b.sendMessage({ text: 'three' });
    // A thread bob is in: his own reply makes him a participant, then alice answers.
    const bobA = bob.channel('messaging', 'unread-a');
    await bobA.watch();
    await bobA.sendMessage({ text: 'mine', parent_id: parent.id });
    await bobA.markRead();
    await a.sendMessage({ text: 'reply', parent_id: parent.id });

    const counts = await bob.getUnreadCount();
    expect(counts.channels).toEqual(expect.arrayContaining([
      { channel_id: 'team:unread-b', last_read: expect.any(String), unread_count: 1 },
    ]));
    expect(counts.channel_type).toEqual(expect.arrayContaining([expect.objectContaining({ channel_type: 'team', unread_count: 1, channel_count: 1 })]));
    expect(counts.total_unread_count).toBe(counts.channels.reduce((sum, c) => sum + c.unread_count, 0));
    expect(counts.total_unread_threads_count).toBe(1);
    expect(counts.threads).toEqual([expect.objectContaining({ parent_message_id: parent.id, unread_count: 1 })]);

    const batch = await harness.admin.getUnreadCountBatch(['alice', 'bob', 'nobody']);
    expect(Object.keys(batch.counts_by_user).sort()).toEqual(['alice', 'bob']);
    expect(batch.counts_by_user.bob?.total_unread_count).toBe(counts.total_unread_count);
    expect(batch.counts_by_user.alice?.total_unread_count).toBe(0);
    expect((await harness.admin.getUnreadCount('bob')).total_unread_count).toBe(counts.total_unread_count);
    await expect(bob.getUnreadCountBatch(['alice'])).rejects.toMatchObject({ code: 17 });
  });
});

describe('malformed input', () => {
  it('gets 4xx with the provider\'s error JSON on every new call', async () => {
    const server = await signToken({ server: true });
    const user = harness.token('alice');
    const cases: [string, string, string | object, string?][] = [
      ['POST', '/devices', { id: 5, push_provider: 'firebase' }],
      ['POST', '/devices', { id: 'x', push_provider: ['apn'] }],
      ['POST', '/devices', { id: 'x', push_provider: 'apn', push_provider_name: {} }],
      ['POST', '/devices', '{"id":'],
      ['POST', '/devices', '[1]'],
      ['POST', '/push_preferences', { preferences: 'x' }],
      ['POST', '/push_preferences', { preferences: [1] }],
      ['POST', '/push_preferences', { preferences: [{ remove_disable: 'yes' }] }],
      ['POST', '/push_preferences', { preferences: new Array(101).fill({ chat_level: 'all' }) }],
      ['POST', '/unread_batch', { user_ids: 'x' }, server],
      ['POST', '/unread_batch', { user_ids: new Array(101).fill('a') }, server],
      ['POST', '/push_providers', { push_provider: [] }, server],
      ['POST', '/push_providers', { push_provider: { type: 'apn', name: 'x/y' } }, server],
      ['POST', '/push_providers', { push_provider: { type: 'firebase', name: 'f', firebase_credentials: 'nope', base_url: 'ftp://x' } }, server],
      ['DELETE', '/push_providers/nokia/x', '', server],
      ['POST', '/check_push', {}, server],
      ['POST', '/check_push', { user_id: 'alice', skip_devices: 'yes' }, server],
      ['POST', '/check_push', { user_id: 'alice', push_provider_type: 'nokia' }, server],
      ['POST', '/check_sqs', { sqs_url: 7 }, server],
      ['POST', '/check_sns', { sns_key: [] }, server],
    ];
    const failures: string[] = [];
    for (const [method, path, body, token = user] of cases) {
      const response = await harness.request(path, { method, token, ...(body === '' ? {} : { body }), userId: token === user ? 'alice' : '' });
      const ok = response.status >= 400 && response.status < 500 && typeof response.body?.code === 'number' && typeof response.body?.StatusCode === 'number';
      if (!ok) failures.push(`${method} ${path} ${JSON.stringify(body).slice(0, 40)} → ${response.status} ${JSON.stringify(response.body).slice(0, 80)}`);
    }
    expect(failures).toEqual([]);
  });
});
