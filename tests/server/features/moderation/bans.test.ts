// Bans through the real SDK, as the site owner's server and as users: a ban refuses the user's
// messages, reactions and typing until it is lifted or runs out, a shadow ban hides what the user
// sends from everyone else, user.banned / user.unbanned reach the banned user live, members and
// users show the ban, only those the policy lets ban may, and query_banned_users lists the bans.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Event, StreamChat } from 'stream-chat';
import { collectEvents, createUsers, nextEvent, startHarness, type Harness } from '../../helpers';
import { createAdmin, watchingPair } from '../../scenes';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob', 'carol', 'dave');
  await createAdmin(harness, 'mod');
});

afterAll(async () => {
  await harness?.close();
});

afterEach(() => {
  vi.useRealTimers();
});

const server = (id: string) => harness.admin.channel('messaging', id);
const refused = { code: 17, status: 403 };
/** What a user reads back about a member of the channel. */
const memberOf = async (client: StreamChat, id: string, userId: string) =>
  (await client.channel('messaging', id).query({})).members.find((member) => member.user_id === userId);

describe('channel bans', () => {
  it('refuses the banned user\'s messages, reactions and typing until unbanned, and tells them live', async () => {
    const { b, ac, bc } = await watchingPair(harness, 'ban-basic');
    const { message } = await ac.sendMessage({ text: 'hello' });
    const banned = nextEvent(b, 'user.banned');
    const before = Date.now();
    await server('ban-basic').banUser('bob', { reason: 'spam', banned_by_id: 'alice', timeout: 60 });

    const event = (await banned) as Event & Record<string, unknown>;
    expect(event).toMatchObject({
      cid: 'messaging:ban-basic',
      channel_type: 'messaging',
      channel_id: 'ban-basic',
      user: { id: 'bob' },
      created_by: { id: 'alice' },
      reason: 'spam',
      shadow: false,
    });
    const expiration = Date.parse(String(event.expiration));
    expect(expiration - before).toBeGreaterThanOrEqual(60 * 60_000 - 1000);
    expect(expiration - before).toBeLessThan(60 * 60_000 + 5000);
    expect(bc.state.members.bob).toMatchObject({ banned: true, shadow_banned: false });
    expect(await memberOf(b, 'ban-basic', 'bob')).toMatchObject({ banned: true, shadow_banned: false, ban_expires: event.expiration });

    await expect(bc.sendMessage({ text: 'let me talk' })).rejects.toMatchObject(refused);
    await expect(bc.sendReaction(message.id, { type: 'like' })).rejects.toMatchObject(refused);
    await expect(bc.sendEvent({ type: 'typing.start' })).rejects.toMatchObject(refused);
    // Reading is not writing: the banned user still reads the channel.
    expect((await bc.query({})).messages.map((m) => m.text)).toEqual(['hello']);

    const unbanned = nextEvent(b, 'user.unbanned');
    await server('ban-basic').unbanUser('bob');
    expect(await unbanned).toMatchObject({ cid: 'messaging:ban-basic', user: { id: 'bob' }, shadow: false });
    expect(bc.state.members.bob).toMatchObject({ banned: false });
    await expect(bc.sendMessage({ text: 'thanks' })).resolves.toBeDefined();
    await expect(bc.sendReaction(message.id, { type: 'like' })).resolves.toBeDefined();
    expect(await memberOf(b, 'ban-basic', 'bob')).toMatchObject({ banned: false });
  });

  it('keeps the ban to its channel', async () => {
    await watchingPair(harness, 'ban-here');
    const { bc } = await watchingPair(harness, 'ban-elsewhere');
    await server('ban-here').banUser('bob', {});
    await expect(bc.sendMessage({ text: 'still fine here' })).resolves.toBeDefined();
    await server('ban-here').unbanUser('bob');
  });

  it('lifts a ban by itself when its timeout runs out', async () => {
    const { bc } = await watchingPair(harness, 'ban-timeout');
    await server('ban-timeout').banUser('bob', { timeout: 2 });
    await expect(bc.sendMessage({ text: 'now?' })).rejects.toMatchObject(refused);
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(Date.now() + 3 * 60_000);
    await expect(bc.sendMessage({ text: 'three minutes later' })).resolves.toBeDefined();
    expect(await memberOf(harness.admin, 'ban-timeout', 'bob')).toMatchObject({ banned: false });
    await server('ban-timeout').unbanUser('bob');
  });
});

describe('app-wide bans', () => {
  it('refuses the user everywhere, shows them banned, and tells them live; unbanUser lifts it', async () => {
    const { b, bc } = await watchingPair(harness, 'global-ban', 'alice', 'carol');
    const banned = nextEvent(b, 'user.banned');
    await harness.admin.banUser('carol', { reason: 'trolling', banned_by_id: 'mod' });
    const event = await banned;
    expect(event).toMatchObject({ user: { id: 'carol' }, created_by: { id: 'mod' }, reason: 'trolling', shadow: false });
    expect(event.cid).toBeUndefined();

    await expect(bc.sendMessage({ text: 'anyone?' })).rejects.toMatchObject(refused);
    const other = b.channel('messaging', 'global-ban-other', { members: ['carol', 'dave'] });
    await other.watch();
    await expect(other.sendMessage({ text: 'here then?' })).rejects.toMatchObject(refused);
    expect((await harness.admin.queryUsers({ id: 'carol' })).users[0]?.banned).toBe(true);

    const unbanned = nextEvent(b, 'user.unbanned');
    await harness.admin.unbanUser('carol');
    await unbanned;
    await expect(bc.sendMessage({ text: 'back' })).resolves.toBeDefined();
    expect((await harness.admin.queryUsers({ id: 'carol' })).users[0]?.banned).toBe(false);
  });

  it('runs out at its timeout too', async () => {
    const { bc } = await watchingPair(harness, 'global-timeout', 'alice', 'dave');
    await harness.admin.banUser('dave', { timeout: 1 });
    await expect(bc.sendMessage({ text: 'hm' })).rejects.toMatchObject(refused);
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(Date.now() + 2 * 60_000);
    await expect(bc.sendMessage({ text: 'free again' })).resolves.toBeDefined();
    await harness.admin.unbanUser('dave');
  });
});

describe('shadow bans', () => {
  it('lets the user send, but only they ever see it: not live, not in history, not in search', async () => {
    const { a, b, ac, bc } = await watchingPair(harness, 'shadow');
    // A shadow ban is a secret from the chat: no event, nothing on the member; the site sees it.
    const told = collectEvents(b, 'user.banned');
    await server('shadow').shadowBan('bob', {});
    expect(await memberOf(harness.admin, 'shadow', 'bob')).toMatchObject({ banned: false, shadow_banned: false });
    expect((await harness.admin.queryBannedUsers({ channel_cid: 'messaging:shadow' })).bans).toEqual([
      expect.objectContaining({ shadow: true, user: expect.objectContaining({ id: 'bob' }) }),
    ]);

    const aliceSees = collectEvents(a, 'message.new');
    const ownCopy = nextEvent(b, 'message.new', (e) => e.message?.text === 'psst unseen words');
    const { message } = await bc.sendMessage({ text: 'psst unseen words' });
    expect(message.shadowed).toBe(true);
    await ownCopy;
    // Events reach each connection in order: once alice has her own next message, bob's is not coming.
    const marker = nextEvent(a, 'message.new', (e) => e.message?.text === 'marker');
    await ac.sendMessage({ text: 'marker' });
    await marker;
    aliceSees.stop();
    expect(aliceSees.events.map((e) => e.message?.text)).toEqual(['marker']);

    expect((await ac.query({})).messages.map((m) => m.text)).toEqual(['marker']);
    expect((await bc.query({})).messages.map((m) => m.text)).toEqual(['psst unseen words', 'marker']);
    expect((await a.search({ cid: 'messaging:shadow' }, 'unseen')).results).toEqual([]);
    expect((await b.search({ cid: 'messaging:shadow' }, 'unseen')).results).toHaveLength(1);

    await server('shadow').removeShadowBan('bob');
    told.stop();
    expect(told.events).toEqual([]);
    const seen = nextEvent(a, 'message.new', (e) => e.message?.text === 'visible again');
    await bc.sendMessage({ text: 'visible again' });
    expect((await seen).message?.shadowed).toBe(false);
  });

  it('works app-wide', async () => {
    const { ac, bc } = await watchingPair(harness, 'shadow-global', 'alice', 'dave');
    await harness.admin.shadowBan('dave');
    expect((await bc.sendMessage({ text: 'nobody hears' })).message.shadowed).toBe(true);
    expect((await ac.query({})).messages).toEqual([]);
    await harness.admin.removeShadowBan('dave');
    expect((await bc.sendMessage({ text: 'heard' })).message.shadowed).toBe(false);
  });
});

describe('who may ban', () => {
  it('lets a channel moderator and the channel owner ban there, not a plain member (17)', async () => {
    const { a, b, ac, bc } = await watchingPair(harness, 'ban-who');
    await ac.addMembers(['carol']);
    await harness.admin.channel('messaging', 'ban-who').addModerators(['carol']);
    const carol = await harness.connect('carol');
    const cc = carol.channel('messaging', 'ban-who');
    await cc.watch();

    await expect(bc.banUser('carol', {})).rejects.toMatchObject(refused);
    await expect(cc.banUser('bob', { reason: 'moderated' })).resolves.toBeDefined();
    await expect(bc.sendMessage({ text: 'hm' })).rejects.toMatchObject(refused);
    await expect(bc.unbanUser('bob')).rejects.toMatchObject(refused);
    await expect(cc.unbanUser('bob')).resolves.toBeDefined();
    // alice created the channel: ban-channel-member-owner.
    await expect(ac.banUser('bob', {})).resolves.toBeDefined();
    await expect(ac.unbanUser('bob')).resolves.toBeDefined();
    // Moderating a channel is not moderating the app.
    await expect(carol.banUser('bob')).rejects.toMatchObject(refused);
    await expect(a.banUser('bob')).rejects.toMatchObject(refused);
    await expect(b.banUser('alice')).rejects.toMatchObject(refused);
  });

  it('lets an admin ban app-wide from their own client', async () => {
    const mod = await harness.connect('mod');
    await expect(mod.banUser('dave', { timeout: 5 })).resolves.toBeDefined();
    await expect(mod.unbanUser('dave')).resolves.toBeDefined();
  });
});

describe('query_banned_users', () => {
  it('lists bans with who, why, where and until when, filtered and sorted', async () => {
    await watchingPair(harness, 'q-one');
    await watchingPair(harness, 'q-two', 'alice', 'carol');
    await server('q-one').banUser('bob', { reason: 'first', banned_by_id: 'alice' });
    await server('q-two').banUser('carol', { reason: 'second', banned_by_id: 'mod', timeout: 10 });
    await harness.admin.shadowBan('dave', { reason: 'quiet', banned_by_id: 'mod' });

    const { bans: inOne = [] } = await harness.admin.queryBannedUsers({ channel_cid: 'messaging:q-one' });
    expect(inOne).toHaveLength(1);
    expect(inOne[0]).toMatchObject({
      user: { id: 'bob' },
      banned_by: { id: 'alice' },
      channel: { cid: 'messaging:q-one' },
      reason: 'first',
      shadow: false,
      created_at: expect.any(String),
    });
    expect(inOne[0]?.expires).toBeUndefined();

    const byMod = await harness.admin.queryBannedUsers({ banned_by_id: 'mod' }, [{ created_at: 1 }]);
    expect(byMod.bans?.map((ban) => ban.user.id)).toEqual(['carol', 'dave']);
    expect(byMod.bans?.[0]?.expires).toEqual(expect.any(String));
    expect(byMod.bans?.[1]).toMatchObject({ shadow: true, reason: 'quiet' });
    expect(byMod.bans?.[1]?.channel).toBeUndefined();
    const newestFirst = await harness.admin.queryBannedUsers({ banned_by_id: 'mod' }, [{ created_at: -1 }], { limit: 1 });
    expect(newestFirst.bans?.map((ban) => ban.user.id)).toEqual(['dave']);
    expect((await harness.admin.queryBannedUsers({ user_id: 'carol' })).bans?.map((b) => b.channel?.cid)).toEqual(['messaging:q-two']);
    expect((await harness.admin.queryBannedUsers({ reason: { $autocomplete: 'sec' } })).bans?.map((b) => b.user.id)).toEqual(['carol']);

    await server('q-one').unbanUser('bob');
    await harness.admin.unbanUser('dave');
    expect((await harness.admin.queryBannedUsers({ channel_cid: 'messaging:q-one' })).bans).toEqual([]);
  });

  it('leaves out expired bans on request', async () => {
    await watchingPair(harness, 'q-expired');
    await server('q-expired').banUser('bob', { timeout: 1 });
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(Date.now() + 2 * 60_000);
    const filter = { channel_cid: 'messaging:q-expired' };
    expect((await harness.admin.queryBannedUsers(filter)).bans).toHaveLength(1);
    expect((await harness.admin.queryBannedUsers(filter, [], { exclude_expired_bans: true })).bans).toEqual([]);
  });

  it('shows a channel\'s bans to those who may ban there, and nobody else (17)', async () => {
    const { a, b } = await watchingPair(harness, 'q-who');
    await server('q-who').banUser('bob', {});
    expect((await a.queryBannedUsers({ channel_cid: 'messaging:q-who' })).bans).toHaveLength(1);
    await expect(b.queryBannedUsers({ channel_cid: 'messaging:q-who' })).rejects.toMatchObject(refused);
    await expect(a.queryBannedUsers({})).rejects.toMatchObject(refused);
  });

  it('lists a ban made with the /ban command, by whoever typed it', async () => {
    const { ac } = await watchingPair(harness, 'q-command');
    await ac.sendMessage({ text: '/ban @bob too loud', mentioned_users: ['bob'] });
    const { bans = [] } = await harness.admin.queryBannedUsers({ channel_cid: 'messaging:q-command' });
    expect(bans[0]).toMatchObject({ user: { id: 'bob' }, banned_by: { id: 'alice' }, reason: 'too loud' });
  });
});

describe('bad input', () => {
  it('answers the provider\'s error JSON, never a 500', async () => {
    await watchingPair(harness, 'ban-bad');
    const input = { code: 4, status: 400 };
    await expect(harness.admin.banUser('')).rejects.toMatchObject(input);
    await expect(harness.admin.banUser('nobody-here')).rejects.toMatchObject(input);
    await expect(harness.admin.banUser('bob', { timeout: -5 })).rejects.toMatchObject(input);
    await expect(harness.admin.banUser('bob', { reason: 7 as never })).rejects.toMatchObject(input);
    await expect(harness.admin.banUser('bob', { type: 'messaging' })).rejects.toMatchObject(input);
    await expect(harness.admin.banUser('bob', { delete_messages: 'hard' })).rejects.toMatchObject(input);
    await expect(harness.admin.banUser('bob', { type: 'messaging', id: 'no-such-channel' })).rejects.toMatchObject({ code: 16 });
    await expect(harness.admin.banUser('bob', { type: 'no-such-type', id: 'x' })).rejects.toMatchObject({ code: 16 });
    await expect(harness.admin.banUser('mod', { banned_by_id: 'mod' })).rejects.toMatchObject(input);
    await expect(harness.admin.unbanUser('')).rejects.toMatchObject(input);
    await expect(harness.admin.queryBannedUsers({ channel_cid: { $in: 'x' } } as never)).rejects.toMatchObject(input);
    await expect(harness.admin.queryBannedUsers({ created_at: 'not a date' })).rejects.toMatchObject(input);
    await expect(harness.admin.queryBannedUsers({}, [{ created_at: 5 } as never])).rejects.toMatchObject(input);
    await expect(harness.admin.queryBannedUsers({}, [], { limit: 0 })).rejects.toMatchObject(input);
    const raw = await harness.request('/query_banned_users', { query: { payload: '{oops' }, token: harness.token('alice') });
    expect(raw.status).toBe(400);
    expect(raw.body).toMatchObject({ code: 4, StatusCode: 400 });
  });
});

describe('filters', () => {
  it('finds banned users and banned members with {banned: true}, not shadow-banned ones', async () => {
    await watchingPair(harness, 'filter-bans', 'alice', 'carol');
    await server('filter-bans').banUser('carol', { banned_by_id: 'alice' });
    const members = await server('filter-bans').queryMembers({ banned: true });
    expect(members.members.map((m) => m.user_id)).toEqual(['carol']);
    expect((await server('filter-bans').queryMembers({ banned: false })).members.map((m) => m.user_id)).toEqual(['alice']);

    await harness.admin.banUser('dave', { banned_by_id: 'mod' });
    await harness.admin.shadowBan('bob', { banned_by_id: 'mod' });
    const { users } = await harness.admin.queryUsers({ banned: true, id: { $in: ['alice', 'bob', 'dave'] } });
    expect(users.map((u) => u.id)).toEqual(['dave']);
    await harness.admin.unbanUser('dave');
    await harness.admin.removeShadowBan('bob');
    expect((await harness.admin.queryUsers({ banned: true, id: { $in: ['dave'] } })).users).toEqual([]);
  });
});
