// User administration through the real SDK: partial updates and token revocation, deactivation,
// deletion (soft, pruning, hard) as tasks, export and custom user events, each checked as the
// users affected see it: refused calls and connections, messages marked deleted or gone, and
// the events their clients act on. The tasks' results are the provider's: the users a
// deactivation leaves deactivated, and each user's (or, deleting many channels, each channel's)
// outcome under its id.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { StreamChat, type Event, type UserResponse } from 'stream-chat';
import { builtinChannelTypes } from '../../../../src/server/auth/channel-types';
import { startChannelDeletion } from '../../../../src/server/features/channels/channel-lifecycle';
import { restoreUsers, singleDeletionPlan, startDeletion } from '../../../../src/server/features/users/delete-users';
import type { ServerContext } from '../../../../src/server/http/context';
import { RateLimitCounters } from '../../../../src/server/http/rate-limit-counters';
import { announceToContacts, onlineContactsOf } from '../../../../src/server/events/announce';
import { ChangeFeed } from '../../../../src/server/infra/change-feed';
import { RealtimeHub } from '../../../../src/server/realtime/hub';
import { Timers } from '../../../../src/server/infra/timers';
import { openStore } from '../../../../src/server/store/store';
import type { ChannelRow } from '../../../../src/server/store/channels';
import type { UserRow } from '../../../../src/server/store/users';
import { API_KEY, API_SECRET, collectEvents, createUsers, nextEvent, signToken, startHarness, taskEnded, type Harness } from '../../helpers';
import { sleep } from '../../scenes';

let harness: Harness;
const signer = new StreamChat(API_KEY, API_SECRET);

beforeAll(async () => {
  harness = await startHarness();
});

afterAll(async () => {
  await harness?.close();
});

/** Custom user fields are not in the SDK's UserResponse type. */
const custom = (fields: Record<string, unknown>) => fields as Partial<UserResponse>;
const customKeys = (...keys: string[]) => keys as (keyof UserResponse)[];


/** A raw call as `userId` with `token`: what a client whose token was revoked would send. */
const callAs = (userId: string, token: string) => harness.request('/users', { token, userId, query: { payload: '{}' } });

describe('partial updates', () => {
  let uma: StreamChat;
  let vic: StreamChat;

  beforeAll(async () => {
    await createUsers(harness, 'uma', 'vic');
    await harness.admin.partialUpdateUser({ id: 'uma', set: custom({ color: 'red' }) });
    // user.updated reaches those who share a channel with the user.
    await harness.admin.channel('messaging', 'uma-and-vic', { created_by_id: 'uma', members: ['uma', 'vic'] }).create();
    uma = await harness.connect('uma');
    vic = await harness.connect('vic');
  });

  it('lets a user update themselves with set and unset, and their co-members hear user.updated', async () => {
    const heard = nextEvent(vic, 'user.updated', (event) => event.user?.id === 'uma');
    const own = nextEvent(uma, 'user.updated');
    const { users } = await uma.partialUpdateUser({ id: 'uma', set: custom({ name: 'Uma T', hobby: 'go' }), unset: customKeys('color') });
    expect(users.uma).toMatchObject({ id: 'uma', name: 'Uma T', hobby: 'go', role: 'user' });
    expect(users.uma).not.toHaveProperty('color');
    expect((await heard).user).toMatchObject({ name: 'Uma T', hobby: 'go' });
    await own;
    expect(uma.user?.name).toBe('Uma T');
  });

  it('refuses updating someone else or one’s own role (17), reserved fields and bad input (4)', async () => {
    await expect(uma.partialUpdateUser({ id: 'vic', set: { name: 'Nope' } })).rejects.toMatchObject({ code: 17 });
    await expect(uma.upsertUser({ id: 'vic', name: 'Nope' })).rejects.toMatchObject({ code: 17 });
    await expect(uma.partialUpdateUser({ id: 'uma', set: { role: 'admin' } })).rejects.toMatchObject({ code: 17 });
    await expect(harness.admin.partialUpdateUser({ id: 'uma', set: { created_at: '2020-01-01' } })).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.partialUpdateUser({ id: 'no-such-user', set: { name: 'X' } })).rejects.toMatchObject({ code: 4 });
    const token = await signToken({ server: true });
    for (const body of [{ users: 'uma' }, { users: [] }, { users: [{ id: 'uma', unset: 'name' }] }, { users: [{ id: 'uma', set: { revoke_tokens_issued_before: '' } }] }]) {
      const response = await harness.request('/users', { method: 'PATCH', token, body });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(4);
    }
    expect((await harness.admin.queryUsers({ id: 'vic' })).users[0]?.name).toBe('Vic');
  });

  it('lets the server side set anyone’s role, teams and custom fields; an admin may then update others', async () => {
    const { users } = await harness.admin.partialUpdateUsers([{ id: 'vic', set: custom({ role: 'admin', teams: ['red'], level: 3 }) }]);
    expect(users.vic).toMatchObject({ role: 'admin', teams: ['red'], level: 3 });
    const { users: updated } = await vic.partialUpdateUser({ id: 'uma', set: { name: 'Uma' } });
    expect(updated.uma?.name).toBe('Uma');
  });

  it('raises user.updated from upsertUsers for existing users that changed only', async () => {
    const seen = collectEvents(uma, 'user.updated');
    await harness.admin.upsertUsers([{ id: 'vic', name: 'Vic' }, { id: 'uma', name: 'Uma Two' }, { id: 'brand-new', name: 'New' }]);
    await harness.admin.partialUpdateUser({ id: 'uma', set: { name: 'Uma Three' } });
    await vi.waitFor(() => expect(seen.events.map((event) => event.user?.name)).toContain('Uma Three'));
    seen.stop();
    expect(seen.events.map((event) => `${event.user?.id}:${event.user?.name}`)).toEqual(['uma:Uma Two', 'uma:Uma Three']);
  });
});

describe('token revocation', () => {
  it('refuses tokens issued before the date (and tokens without iat) with code 40; a fresh token works', async () => {
    await createUsers(harness, 'rita');
    const seconds = Math.floor(Date.now() / 1000);
    const old = signer.createToken('rita', undefined, seconds - 60);
    expect((await callAs('rita', old)).status).toBe(200);

    const before = new Date(Date.now() - 10_000);
    const { users } = await harness.admin.revokeUserToken('rita', before);
    expect(users.rita?.revoke_tokens_issued_before).toBe(before.toISOString());
    for (const token of [old, harness.token('rita')]) {
      const refused = await callAs('rita', token);
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe(40);
    }
    await expect(harness.connect('rita', {}, old)).rejects.toThrow(/revoked/);

    const fresh = signer.createToken('rita', undefined, seconds);
    expect((await callAs('rita', fresh)).status).toBe(200);
    await harness.connect('rita', {}, fresh);

    await harness.admin.revokeUserToken('rita', null);
    expect((await callAs('rita', old)).status).toBe(200);
  });
});

describe('deactivation', () => {
  it('shuts a deactivated user out: socket closed, calls and reconnects refused; co-members hear it', async () => {
    await createUsers(harness, 'dan', 'wes');
    await harness.admin.channel('messaging', 'dan-and-wes', { created_by_id: 'dan', members: ['dan', 'wes'] }).create();
    const dan = await harness.connect('dan');
    const wes = await harness.connect('wes');
    const heard = nextEvent(wes, 'user.deactivated');
    const { user } = await harness.admin.deactivateUser('dan', { created_by_id: 'wes' });
    expect(user).toMatchObject({ id: 'dan', deactivated_at: expect.any(String) });
    expect(await heard).toMatchObject({ user: { id: 'dan' }, created_by: { id: 'wes' } });
    await vi.waitFor(() => expect(dan.wsConnection?.isHealthy).toBe(false));

    const call = await callAs('dan', harness.token('dan'));
    expect(call.status).toBe(403);
    expect(call.body.code).toBe(17);
    await expect(harness.connect('dan')).rejects.toThrow(/deactivated/);
    expect((await harness.admin.queryUsers({ id: 'dan' })).users).toEqual([]);
    const listed = await harness.admin.queryUsers({ id: 'dan' }, [], { include_deactivated_users: true });
    expect(listed.users[0]?.deactivated_at).toBe(user.deactivated_at);
    await expect(harness.admin.deactivateUser('dan')).rejects.toMatchObject({ code: 4 });

    const back = await harness.admin.reactivateUser('dan', { name: 'Dan Again' });
    expect(back.user).toMatchObject({ id: 'dan', name: 'Dan Again' });
    expect(back.user.deactivated_at).toBeUndefined();
    expect((await callAs('dan', harness.token('dan'))).status).toBe(200);
    await harness.connect('dan');
    await expect(harness.admin.reactivateUser('dan')).rejects.toMatchObject({ code: 4 });
  });

  it('marks the messages deleted on deactivation and restores exactly those on reactivation', async () => {
    await createUsers(harness, 'eve', 'fay');
    const eve = await harness.connect('eve');
    const fay = await harness.connect('fay');
    const ec = eve.channel('messaging', 'deactivated-messages', { members: ['eve', 'fay'] });
    await ec.watch();
    for (const text of ['one', 'two', 'withdrawn']) await ec.sendMessage({ text });
    const withdrawn = ec.state.latestMessages.find((m) => m.text === 'withdrawn');
    await eve.deleteMessage(withdrawn?.id as string);
    const fc = fay.channel('messaging', 'deactivated-messages');
    await fc.watch();
    const types = async () => (await fc.query({ messages: { limit: 10 } })).messages.map((m) => `${m.text}:${m.type}`);

    const heard = nextEvent(fay, 'user.messages.deleted');
    await harness.admin.deactivateUser('eve', { mark_messages_deleted: true });
    expect(await heard).toMatchObject({ user: { id: 'eve' }, hard_delete: false });
    expect(fc.state.latestMessages.map((m) => m.type)).toEqual(['deleted', 'deleted', 'deleted']);
    expect(await types()).toEqual(['one:deleted', 'two:deleted', 'withdrawn:deleted']);

    await harness.admin.reactivateUser('eve', { restore_messages: true });
    expect(await types()).toEqual(['one:regular', 'two:regular', 'withdrawn:deleted']);
  });

  it('deactivates and reactivates many users as tasks', async () => {
    await createUsers(harness, 'gus', 'hal');
    const listed = async () =>
      (await harness.admin.queryUsers({ id: { $in: ['gus', 'hal'] } }, [], { include_deactivated_users: true })).users.map(
        (u) => `${u.id}:${u.deactivated_at ? 'off' : 'on'}`,
      );
    const off = await harness.admin.deactivateUsers(['gus', 'hal']);
    const done = await taskEnded(harness.admin, off.task_id);
    expect(done).toMatchObject({ status: 'completed' });
    // As the provider's: the result lists each user deactivated, with deactivated_at.
    const deactivated = (done.result as { users: UserResponse[] }).users;
    expect(deactivated.map((u) => [u.id, u.deactivated_at])).toEqual([['gus', expect.any(String)], ['hal', expect.any(String)]]);
    expect(await listed()).toEqual(['gus:off', 'hal:off']);
    const on = await harness.admin.reactivateUsers(['gus', 'hal']);
    expect(await taskEnded(harness.admin, on.task_id)).toMatchObject({ status: 'completed' });
    expect(await listed()).toEqual(['gus:on', 'hal:on']);
    await expect(harness.admin.deactivateUsers(['gus', 'nobody-known'])).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.deactivateUsers([])).rejects.toMatchObject({ code: 4 });
  });
});

describe('deletion', () => {
  it('soft-deletes as a task: messages marked deleted, user.deleted heard, sign-in refused, restorable with user.updated', async () => {
    await createUsers(harness, 'ida', 'jon');
    const ida = await harness.connect('ida');
    const jon = await harness.connect('jon');
    const ic = ida.channel('messaging', 'soft-deleted', { members: ['ida', 'jon'] });
    await ic.watch();
    const sent = await ic.sendMessage({ text: 'remember me' });
    const jc = jon.channel('messaging', 'soft-deleted');
    await jc.watch();

    const heard = nextEvent(jon, 'user.deleted', (event) => event.user?.id === 'ida');
    const { task_id } = await harness.admin.deleteUsers(['ida'], { user: 'soft', messages: 'soft' });
    // As the provider's: each user's outcome under their id.
    expect(await taskEnded(harness.admin, task_id)).toMatchObject({ status: 'completed', result: { ida: { status: 'ok' } } });
    expect(await heard).toMatchObject({
      user: { id: 'ida', deleted_at: expect.any(String) },
      hard_delete: false,
      mark_messages_deleted: true,
      delete_conversation_channels: false,
    });
    expect(jc.state.latestMessages.find((m) => m.id === sent.message.id)?.type).toBe('deleted');
    const { messages } = await jc.query({ messages: { limit: 10 } });
    expect(messages.find((m) => m.id === sent.message.id)?.type).toBe('deleted');
    expect(messages.find((m) => m.id === sent.message.id)?.user?.deleted_at).toEqual(expect.any(String));
    await vi.waitFor(() => expect(ida.wsConnection?.isHealthy).toBe(false));
    await expect(harness.connect('ida')).rejects.toThrow(/deleted/);
    expect((await harness.admin.queryUsers({ id: 'ida' })).users).toEqual([]);

    const restored = nextEvent(jon, 'user.updated', (event) => event.user?.id === 'ida');
    await harness.admin.restoreUsers(['ida']);
    expect((await restored).user?.deleted_at).toBeUndefined();
    await harness.connect('ida');
    expect((await harness.admin.queryUsers({ id: 'ida' })).users[0]?.deleted_at).toBeUndefined();
  });

  it('hard-deletes the user with their messages, threads, reactions, memberships and conversations', async () => {
    await createUsers(harness, 'kim', 'lou');
    const kim = await harness.connect('kim');
    const lou = await harness.connect('lou');
    const group = kim.channel('messaging', 'hard-deleted', { members: ['kim', 'lou'] });
    await group.watch();
    const dm = kim.channel('messaging', { members: ['kim', 'lou'] });
    await dm.watch();
    await dm.sendMessage({ text: 'just between us' });
    const kims = await group.sendMessage({ text: 'kim was here' });
    const lc = lou.channel('messaging', 'hard-deleted');
    await lc.watch();
    const lous = await lc.sendMessage({ text: 'lou stays' });
    await group.sendReaction(lous.message.id, { type: 'like' });
    await group.sendMessage({ text: 'kim replies', parent_id: lous.message.id });
    await lc.sendMessage({ text: 'in kim’s thread', parent_id: kims.message.id });

    const heard = nextEvent(lou, 'user.deleted');
    const dmGone = nextEvent(lou, 'notification.channel_deleted');
    const { task_id } = await harness.admin.deleteUsers(['kim'], { user: 'hard', messages: 'hard', conversations: 'hard' });
    expect(await taskEnded(harness.admin, task_id)).toMatchObject({ status: 'completed' });
    expect(await heard).toMatchObject({ user: { id: 'kim' }, hard_delete: true, delete_conversation_channels: true });
    expect((await dmGone).cid).toBe(dm.cid);

    const state = await lc.query({ messages: { limit: 10 } });
    expect(state.messages.map((m) => m.text)).toEqual(['lou stays']);
    expect(state.messages[0]).toMatchObject({ reply_count: 0, reaction_counts: {} });
    expect(state.members.map((m) => m.user_id)).toEqual(['lou']);
    expect(state.channel.member_count).toBe(1);
    const channels = await lou.queryChannels({ members: { $in: ['lou'] } });
    expect(channels.map((c) => c.cid)).toEqual(['messaging:hard-deleted']);
    expect((await harness.admin.queryUsers({ id: 'kim' })).users).toEqual([]);
    expect((await harness.admin.exportUser('lou')).messages.map((m) => m.text)).toEqual(['lou stays']);
    await expect(harness.admin.exportUser('kim')).rejects.toMatchObject({ code: 4 });
  });

  it('deleteUser answers with the user marked deleted and a task; pruning blanks the user', async () => {
    await harness.admin.upsertUsers([{ id: 'max', name: 'Max' }, { id: 'ned', name: 'Ned', image: 'http://img/ned.png', ...custom({ hobby: 'golf' }) }]);
    const single = await harness.admin.deleteUser('max', { mark_messages_deleted: true });
    expect(single.user).toMatchObject({ id: 'max', name: 'Max', deleted_at: expect.any(String) });
    expect(await taskEnded(harness.admin, single.task_id)).toMatchObject({ status: 'completed' });

    const { task_id } = await harness.admin.deleteUsers(['ned'], { user: 'pruning' });
    expect(await taskEnded(harness.admin, task_id)).toMatchObject({ status: 'completed' });
    const { user } = await harness.admin.exportUser('ned');
    expect(user).toMatchObject({ id: 'ned', deleted_at: expect.any(String) });
    expect(user).not.toHaveProperty('name');
    expect(user).not.toHaveProperty('image');
    expect(user).not.toHaveProperty('hobby');
  });

  it('refuses bad deletion input with code 4, before deleting anyone', async () => {
    await createUsers(harness, 'opal');
    await expect(harness.admin.deleteUsers(['opal'], { user: 'hard' })).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.deleteUsers(['opal', 'nobody-known'])).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.deleteUsers([])).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.deleteUsers(['opal'], { new_channel_owner_id: 'nobody-known', user: 'soft' })).rejects.toMatchObject({ code: 4 });
    const token = await signToken({ server: true });
    const odd = await harness.request('/users/delete', { token, body: { user_ids: ['opal'], user: 'nuke' } });
    expect(odd.status).toBe(400);
    expect(odd.body.code).toBe(4);
    const flag = await harness.request('/users/opal', { method: 'DELETE', token, query: { hard_delete: 'maybe' } });
    expect(flag.body.code).toBe(4);
    const opal = await harness.connect('opal');
    await expect(opal.deleteUsers(['opal'])).rejects.toMatchObject({ code: 17 });
    expect((await harness.admin.queryUsers({ id: 'opal' })).users[0]?.deleted_at).toBeUndefined();
  });
});

describe('export and custom events', () => {
  it('exports a user with their messages, soft-deleted ones included, and their reactions', async () => {
    await createUsers(harness, 'pia');
    const pia = await harness.connect('pia');
    const pc = pia.channel('messaging', 'exported', { members: ['pia'] });
    await pc.watch();
    const kept = await pc.sendMessage({ text: 'kept' });
    const dropped = await pc.sendMessage({ text: 'dropped' });
    await pia.deleteMessage(dropped.message.id);
    await pc.sendReaction(kept.message.id, { type: 'love' });

    const exported = await harness.admin.exportUser('pia');
    expect(exported.user).toMatchObject({ id: 'pia', name: 'Pia' });
    expect(exported.messages.map((m) => `${m.text}:${m.type}`)).toEqual(['kept:regular', 'dropped:deleted']);
    expect(exported.reactions).toEqual([expect.objectContaining({ type: 'love', message_id: kept.message.id, user_id: 'pia' })]);
    await expect(pia.exportUser('pia')).rejects.toMatchObject({ code: 17 });
  });

  it('delivers a custom user event to every connection of that user and no one else', async () => {
    await createUsers(harness, 'quin', 'ross');
    const first = await harness.connect('quin');
    const second = await harness.connect('quin');
    const ross = await harness.connect('ross');
    const stray = collectEvents(ross, 'friendship_request');
    const got = [first, second].map((client) => nextEvent(client, 'friendship_request'));
    await harness.admin.sendUserCustomEvent('quin', { type: 'friendship_request', ...{ text: 'be my friend' } });
    for (const event of await Promise.all(got)) expect(event).toMatchObject({ type: 'friendship_request', ...{ text: 'be my friend' } });

    const marker = nextEvent(ross, 'ross_marker');
    await harness.admin.sendUserCustomEvent('ross', { type: 'ross_marker' });
    await marker;
    expect(stray.events).toEqual([]);

    await expect(harness.admin.sendUserCustomEvent('quin', { type: 'message.new' })).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.sendUserCustomEvent('nobody-known', { type: 'hello' })).rejects.toMatchObject({ code: 4 });
    await expect(first.sendUserCustomEvent('ross', { type: 'hello' })).rejects.toMatchObject({ code: 17 });
  });
});

describe('hard-deleted users stay deleted', () => {
  it('refuses the old tokens (no iat, or issued before the removal) with 401 code 2 without recreating the user; a later token does', async () => {
    await createUsers(harness, 'xena');
    const noIat = harness.token('xena');
    const issuedBefore = signer.createToken('xena', undefined, Math.floor(Date.now() / 1000) - 60);
    expect((await callAs('xena', noIat)).status).toBe(200);
    const { task_id } = await harness.admin.deleteUsers(['xena'], { user: 'hard', messages: 'hard' });
    expect(await taskEnded(harness.admin, task_id)).toMatchObject({ status: 'completed' });
    await expect(harness.admin.exportUser('xena')).rejects.toMatchObject({ code: 4 });

    for (const token of [noIat, issuedBefore]) {
      const refused = await callAs('xena', token);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ code: 2, message: expect.stringMatching(/user 'xena' was deleted/) });
      await expect(harness.connect('xena', {}, token)).rejects.toThrow(/was deleted/);
    }
    // Not even as a row that queries leave out: the user is gone.
    expect((await harness.admin.queryUsers({ id: 'xena' })).users).toEqual([]);
    await expect(harness.admin.exportUser('xena')).rejects.toMatchObject({ code: 4 });

    // The removal is in the past by now, so this (the latest the server accepts) is after it.
    const issuedAfter = signer.createToken('xena', undefined, Math.ceil(Date.now() / 1000));
    expect((await callAs('xena', issuedAfter)).status).toBe(200);
    const again = await harness.connect('xena', { name: 'Xena Anew' }, issuedAfter);
    expect(again.user).toMatchObject({ id: 'xena', name: 'Xena Anew' });
    const { users } = await harness.admin.queryUsers({ id: 'xena' });
    expect(users.map((u) => `${u.id}:${u.name}:${u.deleted_at ?? '-'}`)).toEqual(['xena:Xena Anew:-']);
  });
});

describe('who hears about a user', () => {
  it('sends user.updated to the user and their co-members, not to anonymous visitors or users sharing no channel', async () => {
    await createUsers(harness, 'alice', 'bert', 'cora');
    await harness.admin.channel('messaging', 'alice-and-bert', { created_by_id: 'alice', members: ['alice', 'bert'] }).create();
    // A channel the anonymous visitor watches and alice is a member of: watching is not sharing.
    await harness.admin.channel('livestream', 'alice-on-stage', { created_by_id: 'alice', members: ['alice'] }).create();
    const alice = await harness.connect('alice');
    const bert = await harness.connect('bert');
    const cora = await harness.connect('cora');
    const visitor = harness.client();
    await visitor.connectAnonymousUser();
    await visitor.channel('livestream', 'alice-on-stage').watch();
    const stray = [collectEvents(cora, 'user.updated'), collectEvents(visitor, 'user.updated')];

    const heard = nextEvent(bert, 'user.updated', (event) => event.user?.id === 'alice');
    const own = nextEvent(alice, 'user.updated');
    await harness.admin.partialUpdateUser({ id: 'alice', set: { name: 'Alice Two' } });
    expect((await heard).user).toMatchObject({ id: 'alice', name: 'Alice Two' });
    expect((await own).user).toMatchObject({ id: 'alice', name: 'Alice Two' });

    // Markers sent after the update: once they arrive, a user.updated sent before would have too.
    const coraMarker = nextEvent(cora, 'cora_marker');
    const visitorMarker = nextEvent(visitor, 'message.new', (event: Event) => event.message?.text === 'marker');
    await harness.admin.sendUserCustomEvent('cora', { type: 'cora_marker' });
    await alice.channel('livestream', 'alice-on-stage').sendMessage({ text: 'marker' });
    await Promise.all([coraMarker, visitorMarker]);
    expect(stray.map(({ events }) => events)).toEqual([[], []]);
  });
});

/** A backend context with no HTTP server, for calls that must land in one tick. */
function inProcessContext(): ServerContext {
  return {
    config: {
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      devMode: false,
      disableAuthChecks: false,
      uploads: { dir: '', file: {}, image: {} },
      og: { allowPrivate: false, timeoutMs: 1000, maxBytes: 1024, maxRedirects: 0 },
    },
    store: openStore(':memory:'),
    hub: new RealtimeHub(),
    timers: new Timers(),
    changes: new ChangeFeed((error) => {
      throw error;
    }),
    tasks: new Set(),
    rateLimits: new RateLimitCounters(),
    log: () => {},
  };
}

describe('finding who hears about a user', () => {
  it('finds the same online co-members from either side, and announces to them once', () => {
    const ctx = inProcessContext();
    try {
      const now = new Date().toISOString();
      const crowd = Array.from({ length: 10 }, (_, i) => `fan${i}`);
      for (const id of ['ada', 'ben', 'cal', ...crowd]) ctx.store.users.upsert({ id });
      for (const [id, members] of [['pair', ['ada', 'ben']], ['crowd', ['ada', ...crowd]]] as const) {
        ctx.store.channels.create({ type: 'messaging', id, name: null, custom: {}, createdById: 'ada', now });
        ctx.store.channels.addMembers(`messaging:${id}`, [...members], 'member', now);
      }
      const frames = new Map<string, string[]>();
      const connect = (userId: string, anonymous = false) => {
        const id = `${userId}-${frames.size}`;
        frames.set(id, []);
        ctx.hub.registry.add({ id, userId, anonymous, watching: new Set(), send: (frame) => frames.get(id)?.push(frame), close: () => {} });
      };
      for (const userId of ['ada', 'ben', 'cal', 'fan1']) connect(userId);
      connect('visitor', true);
      // ada: 4+ online users, up to 13 co-members, so the online side is walked; ben: the other way.
      expect(ctx.store.memberships.coMemberBound('ada')).toBeGreaterThan(ctx.hub.registry.onlineUserIds().length);
      expect(ctx.store.memberships.coMemberBound('ben')).toBeLessThan(ctx.hub.registry.onlineUserIds().length);
      expect(onlineContactsOf(ctx, 'ada').sort()).toEqual(['ada', 'ben', 'fan1']);
      expect(onlineContactsOf(ctx, 'ben').sort()).toEqual(['ada', 'ben']);
      expect(onlineContactsOf(ctx, 'cal')).toEqual(['cal']);

      const emitted: string[] = [];
      ctx.changes.subscribe((event) => emitted.push(event.type));
      announceToContacts(ctx, 'ada', { type: 'user.updated', user: { id: 'ada' } });
      expect(emitted).toEqual(['user.updated']);
      const counts = Object.fromEntries([...frames].map(([id, sent]) => [id.replace(/-\d+$/, ''), sent.length]));
      expect(counts).toEqual({ ada: 1, ben: 1, cal: 0, fan1: 1, visitor: 0 });
    } finally {
      ctx.store.close();
    }
  });
});

describe('deleting many channels', () => {
  it('reports each channel under its cid, as the provider does', async () => {
    const ctx = inProcessContext();
    try {
      const now = new Date().toISOString();
      ctx.store.channelTypes.ensure(builtinChannelTypes(now));
      ctx.store.users.upsert({ id: 'ada' });
      const rows = ['many-1', 'many-2'].map((id) => {
        ctx.store.channels.create({ type: 'messaging', id, name: null, custom: {}, createdById: 'ada', now });
        return ctx.store.channels.get(`messaging:${id}`) as ChannelRow;
      });
      const taskId = startChannelDeletion(ctx, rows, true, null);
      await Promise.all([...ctx.tasks]);
      const task = ctx.store.tasks.get(taskId);
      expect(task?.status).toBe('completed');
      expect(JSON.parse(task?.result ?? '{}')).toEqual({ 'messaging:many-1': { status: 'ok' }, 'messaging:many-2': { status: 'ok' } });
      expect(ctx.store.channels.get('messaging:many-1')).toBeUndefined();
    } finally {
      ctx.store.close();
    }
  });
});

describe('restoring during a deletion task', () => {
  it('keeps a user restored while the task is still waiting, and deletes the others', async () => {
    const ctx = inProcessContext();
    try {
      for (const id of ['zoe', 'zed']) ctx.store.users.upsert({ id, name: id.toUpperCase() });
      const heard: string[] = [];
      ctx.changes.subscribe((event) => heard.push(`${event.type}:${event.user?.id}`));
      const rows = [...ctx.store.users.getMany(['zoe', 'zed']).values()];
      const { taskId } = startDeletion(ctx, rows, singleDeletionPlan((flag) => flag === 'hard_delete'));
      expect(ctx.store.users.get('zoe')?.deleted_at).toEqual(expect.any(String));

      // Same tick: the task has not started (it yields first).
      expect(ctx.store.tasks.get(taskId)?.status).toBe('waiting');
      restoreUsers(ctx, [ctx.store.users.get('zoe') as UserRow]);
      await Promise.all([...ctx.tasks]);

      const task = ctx.store.tasks.get(taskId);
      expect(task?.status).toBe('completed');
      // Each user's outcome under their id, as the provider reports it.
      expect(JSON.parse(task?.result ?? '{}')).toEqual({
        zoe: { status: 'error', error: 'user zoe was restored before the deletion reached them' },
        zed: { status: 'ok' },
      });
      expect(ctx.store.users.get('zoe')).toMatchObject({ id: 'zoe', name: 'ZOE', deleted_at: null });
      expect(ctx.store.users.removedAt('zoe')).toBeUndefined();
      expect(ctx.store.users.get('zed')).toBeUndefined();
      expect(ctx.store.users.removedAt('zed')).toEqual(expect.any(String));
      expect(heard).toEqual(['user.updated:zoe', 'user.messages.deleted:zed', 'user.deleted:zed']);
    } finally {
      ctx.store.close();
    }
  });
});
