// POST /sync: `client.sync(channel_cids, last_sync_at)` answers what happened
// in those channels while the client was away, from an event log kept in SQLite, in order and as
// the user may see it; the provider's error for a last_sync_at over 30 days old, and a refusal
// (never a gap) when the bounded log no longer holds what was asked.
import type { Event, StreamChat } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsers, signToken, startHarness, type Harness } from '../../helpers';
import { sleep } from '../../scenes';

const TOO_OLD = 'Sync failed with error: "Too old last_sync_at time, please have last_sync_at argument no later than 30 days ago"';

describe('POST /sync', () => {
  let harness: Harness;
  let alice: StreamChat;
  let bob: StreamChat;

  beforeAll(async () => {
    harness = await startHarness({ limits: { rateLimits: false } });
    await createUsers(harness, 'alice', 'bob', 'carol');
    alice = await harness.connect('alice');
    bob = await harness.connect('bob');
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('returns the events of the asked channels since last_sync_at, in order, with what the user may not see left out', async () => {
    const shared = bob.channel('messaging', 'sync-shared', { members: ['alice', 'bob'] });
    await shared.watch();
    const other = bob.channel('messaging', 'sync-other', { members: ['alice', 'bob'] });
    await other.create();
    await shared.sendMessage({ text: 'before' });
    await sleep(5);
    const since = new Date().toISOString();
    await sleep(5);

    // alice is away: bob writes, edits, reacts, deletes; carol joins; bob hides the channel for himself.
    const { message: first } = await shared.sendMessage({ text: 'one' });
    await shared.sendMessage({ text: 'two' });
    await other.sendMessage({ text: 'elsewhere' });
    await bob.updateMessage({ id: first.id, text: 'one (edited)' });
    await shared.sendReaction(first.id, { type: 'love' });
    const { message: gone } = await shared.sendMessage({ text: 'soon gone' });
    await bob.deleteMessage(gone.id);
    await shared.addMembers(['carol']);
    await shared.hide();
    await shared.show();
    await shared.markRead();

    const { events } = await alice.sync(['messaging:sync-shared'], since);
    expect(events.map((e) => [e.type, e.message?.text ?? e.member?.user_id ?? e.user?.id])).toEqual([
      ['message.new', 'one'],
      ['message.new', 'two'],
      ['message.updated', 'one (edited)'],
      ['reaction.new', 'one (edited)'],
      ['message.new', 'soon gone'],
      ['message.deleted', 'soon gone'],
      ['member.added', 'carol'],
      ['message.read', 'bob'],
    ]);
    expect(events.every((e) => e.cid === 'messaging:sync-shared')).toBe(true);
    // Bob sees his own hide and show.
    const own = await bob.sync(['messaging:sync-shared'], since);
    expect(own.events.map((e) => e.type)).toContain('channel.hidden');
    expect(own.events.map((e) => e.type)).toContain('channel.visible');

    const both = await alice.sync(['messaging:sync-shared', 'messaging:sync-other'], since);
    expect(both.events.filter((e) => e.type === 'message.new').map((e) => e.message?.text)).toEqual(['one', 'two', 'elsewhere', 'soon gone']);

    // Nothing since now.
    expect((await alice.sync(['messaging:sync-shared'], new Date().toISOString())).events).toEqual([]);
  });

  it('leaves out a shadowed message and the messages of someone the user blocked', async () => {
    const channel = bob.channel('messaging', 'sync-hidden', { members: ['alice', 'bob', 'carol'] });
    await channel.create();
    const since = new Date(Date.now() - 1000).toISOString();
    await harness.admin.shadowBan('carol');
    await harness.admin.channel('messaging', 'sync-hidden').sendMessage({ text: 'from a shadow', user_id: 'carol' });
    await harness.admin.removeShadowBan('carol');
    await alice.blockUser('bob');
    await channel.sendMessage({ text: 'from a blocked user' });
    await harness.admin.channel('messaging', 'sync-hidden').sendMessage({ text: 'visible', user_id: 'carol' });
    const texts = (events: Event[]) => events.filter((e) => e.type === 'message.new').map((e) => e.message?.text);
    expect(texts((await alice.sync(['messaging:sync-hidden'], since)).events)).toEqual(['visible']);
    // The author still sees their own shadowed message.
    expect(texts((await harness.admin.sync(['messaging:sync-hidden'], since, { user_id: 'carol' } as never)).events)).toEqual([
      'from a shadow',
      'from a blocked user',
      'visible',
    ]);
    await alice.unBlockUser('bob');
  });

  it('reports channels the user cannot read as the provider does', async () => {
    const secret = harness.admin.channel('messaging', 'sync-secret', { members: ['bob'], created_by_id: 'bob' } as never);
    await secret.create();
    const since = new Date(Date.now() - 1000).toISOString();
    const { events } = await alice.sync(['messaging:sync-secret', 'messaging:no-such-channel'], since);
    expect(events.map((e) => [e.type, e.cid])).toEqual([
      ['notification.removed_from_channel', 'messaging:sync-secret'],
      ['notification.removed_from_channel', 'messaging:no-such-channel'],
    ]);
    const listed = await alice.sync(['messaging:sync-secret'], since, { with_inaccessible_cids: true });
    expect(listed.events).toEqual([]);
    expect(listed.inaccessible_cids).toEqual(['messaging:sync-secret']);
  });

  it('watches the synced channels on the caller\'s connection with watch: true', async () => {
    const channel = bob.channel('messaging', 'sync-watch', { members: ['alice', 'bob'] });
    await channel.create();
    await channel.watch();
    await alice.sync(['messaging:sync-watch'], new Date().toISOString(), { watch: true });
    const state = await harness.admin.queryChannels({ cid: 'messaging:sync-watch' }, {}, { state: true, watch: false });
    expect(state[0]?.state.watcher_count).toBe(2);
  });

  it('refuses a last_sync_at more than 30 days ago with the provider\'s error', async () => {
    const old = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000).toISOString();
    await expect(alice.sync(['messaging:sync-shared'], old)).rejects.toMatchObject({ code: 4, status: 400, message: expect.stringContaining(TOO_OLD) });
    // 29 days is fine.
    await expect(alice.sync(['messaging:sync-shared'], new Date(Date.now() - 29 * 24 * 60 * 60 * 1000).toISOString())).resolves.toMatchObject({ events: expect.any(Array) });
  });

  it('answers malformed sync requests with the provider\'s error JSON, never a 500', async () => {
    const token = harness.token('alice');
    const now = new Date().toISOString();
    const bodies: unknown[] = [
      '[1,2]',
      'null',
      '"text"',
      '{"a":',
      {},
      { channel_cids: 'messaging:x', last_sync_at: now },
      { channel_cids: [], last_sync_at: now },
      { channel_cids: [5], last_sync_at: now },
      { channel_cids: ['no-colon'], last_sync_at: now },
      { channel_cids: Array.from({ length: 256 }, (_, i) => `messaging:c${i}`), last_sync_at: now },
      { channel_cids: ['messaging:x'] },
      { channel_cids: ['messaging:x'], last_sync_at: 'yesterday' },
      { channel_cids: ['messaging:x'], last_sync_at: 12 },
      { channel_cids: ['messaging:x'], last_sync_at: now, watch: 'yes' },
      { channel_cids: ['messaging:x'], last_sync_at: now, with_inaccessible_cids: 1 },
    ];
    for (const body of bodies) {
      const response = await harness.request('/sync', { token, userId: 'alice', body: body as string | object });
      expect({ body, status: response.status, code: response.body.code }).toEqual({ body, status: 400, code: 4 });
      expect(response.body).toMatchObject({ StatusCode: 400, message: expect.any(String), duration: expect.any(String) });
    }
    // Server-side without a user to act for.
    const server = await harness.request('/sync', { token: await signToken({ server: true }), body: { channel_cids: ['messaging:x'], last_sync_at: now } });
    expect(server.body.code).toBe(4);
  });
});

describe('the sync event log\'s bounds', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness({ limits: { rateLimits: false }, sync: { logMaxEvents: 20, maxEventsPerSync: 15 } });
    await createUsers(harness, 'dan', 'eve');
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('keeps at most logMaxEvents rows, and refuses a sync that would need pruned events instead of leaving a gap', async () => {
    const channel = harness.admin.channel('messaging', 'busy', { members: ['dan', 'eve'], created_by_id: 'dan' } as never);
    await channel.create();
    const dan = await harness.connect('dan');
    const start = new Date(Date.now() - 1000).toISOString();
    for (let i = 0; i < 30; i++) await channel.sendMessage({ text: `n${i}`, user_id: 'eve' });
    await expect(dan.sync(['messaging:busy'], start)).rejects.toMatchObject({ code: 4, status: 400, message: expect.stringContaining('Too many events to sync') });
    // The latest events are whole.
    await sleep(5);
    const recent = new Date().toISOString();
    await sleep(5);
    for (let i = 0; i < 3; i++) await channel.sendMessage({ text: `late${i}`, user_id: 'eve' });
    const { events } = await dan.sync(['messaging:busy'], recent);
    expect(events.map((e) => e.message?.text)).toEqual(['late0', 'late1', 'late2']);
  });

  it('refuses more than maxEventsPerSync events in one answer', async () => {
    const channel = harness.admin.channel('messaging', 'chatty', { members: ['dan', 'eve'], created_by_id: 'dan' } as never);
    await channel.create();
    const dan = await harness.connect('dan');
    await sleep(5);
    const since = new Date().toISOString();
    await sleep(5);
    for (let i = 0; i < 16; i++) await channel.sendMessage({ text: `c${i}`, user_id: 'eve' });
    await expect(dan.sync(['messaging:chatty'], since)).rejects.toMatchObject({ code: 4, message: expect.stringContaining('more than 15') });
  });
});
