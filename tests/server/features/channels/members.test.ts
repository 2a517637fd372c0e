// Members and watchers: adding and removing members, leaving, presence, and each member's own
// pinned/archived marks driving the channel list's order and filters, their custom fields and roles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectEvents, createUsers, nextEvent, startHarness, type Harness } from '../../helpers';
import { watchingPair } from '../../scenes';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob', 'carol', 'dave', 'olga', 'pete', 'quinn', 'rita', 'sam');
});

afterAll(async () => {
  await harness?.close();
});

describe('adding and removing members', () => {
  it('adds a member: member.added to watchers, notification.added_to_channel to the new member', async () => {
    const { ac, bc } = await watchingPair(harness, 'add');
    const carol = await harness.connect('carol');
    const watcherSees = nextEvent(bc, 'member.added');
    const carolHears = nextEvent(carol, 'notification.added_to_channel');
    const response = await ac.addMembers(['carol']);
    expect(response.members.map((m) => m.user_id).sort()).toEqual(['alice', 'bob', 'carol']);
    expect(response.channel.member_count).toBe(3);
    expect((await watcherSees).member).toMatchObject({ user_id: 'carol', user: expect.objectContaining({ id: 'carol' }) });
    expect((await carolHears).channel?.cid).toBe('messaging:add');
    expect(bc.state.members.carol).toBeDefined();
    const state = await carol.channel('messaging', 'add').watch();
    expect(state.channel.own_capabilities).toContain('send-message');
  });

  it('refuses member changes by a member without update-channel-members (17), and unknown users (4)', async () => {
    const { ac, bc } = await watchingPair(harness, 'add-refused');
    await expect(bc.addMembers(['carol'])).rejects.toMatchObject({ code: 17 });
    await expect(bc.removeMembers(['alice'])).rejects.toMatchObject({ code: 17 });
    await expect(ac.addMembers(['nobody-like-this'])).rejects.toMatchObject({ code: 4 });
    await expect(bc.update({ name: 'renamed' } as never)).rejects.toMatchObject({ code: 17 });
  });

  it('removes a member: member.removed to watchers, notification.removed_from_channel to them, and no more events', async () => {
    const { a, b, ac } = await watchingPair(harness, 'remove');
    const aliceSees = nextEvent(ac, 'member.removed');
    const bobHears = nextEvent(b, 'notification.removed_from_channel');
    await ac.removeMembers(['bob']);
    expect((await aliceSees).user?.id).toBe('bob');
    expect((await bobHears).cid).toBe('messaging:remove');
    expect(ac.state.members.bob).toBeUndefined();
    const bobNews = collectEvents(b, 'message.new');
    const aliceNews = nextEvent(a, 'message.new');
    await ac.sendMessage({ text: 'bob is gone' });
    await aliceNews;
    bobNews.stop();
    expect(bobNews.events).toHaveLength(0);
    const outsider = (await harness.connect('bob')).channel('messaging', 'remove');
    await expect(outsider.watch()).rejects.toMatchObject({ code: 17 });
  });

  it('lets a member leave by removing themselves (leave-channel)', async () => {
    const { ac, bc } = await watchingPair(harness, 'leave');
    const aliceSees = nextEvent(ac, 'member.removed');
    await bc.removeMembers(['bob']);
    expect((await aliceSees).user?.id).toBe('bob');
    expect((await ac.query({})).members.map((m) => m.user_id)).toEqual(['alice']);
  });
});

describe('presence', () => {
  it('announces user.presence.changed when a user\'s first connection opens and their last one closes', async () => {
    const olga = await harness.connect('olga');
    const channel = olga.channel('messaging', 'presence', { members: ['olga', 'pete'] });
    await channel.watch();
    const online = nextEvent(olga, 'user.presence.changed', (e) => e.user?.online === true);
    const pete = await harness.connect('pete');
    expect((await online).user?.id).toBe('pete');
    expect(channel.state.members.pete?.user?.online).toBe(true);

    const second = await harness.connect('pete');
    const events = collectEvents(olga, 'user.presence.changed');
    await second.disconnectUser();
    const offline = nextEvent(olga, 'user.presence.changed', (e) => e.user?.online === false);
    await pete.disconnectUser();
    const event = await offline;
    events.stop();
    // Only the last connection's close is announced.
    expect(events.events.filter((e) => e.user?.online === false)).toHaveLength(1);
    expect(event.user).toMatchObject({ id: 'pete', online: false, last_active: expect.any(String) });
    expect(channel.state.members.pete?.user?.online).toBe(false);
  });

  it('delivers presence of users returned by a presence: true queryUsers, without a shared channel', async () => {
    const quinn = await harness.connect('quinn');
    const { users } = await quinn.queryUsers({ id: { $in: ['rita'] } }, {}, { presence: true });
    expect(users[0]).toMatchObject({ id: 'rita', online: false });
    const online = nextEvent(quinn, 'user.presence.changed', (e) => e.user?.id === 'rita');
    await harness.connect('rita');
    expect((await online).user?.online).toBe(true);
  });
});

describe('pinned and archived channels', () => {
  it('pins a channel for one member only: member.updated, membership.pinned_at, and pinned_at sorts it first', async () => {
    const sam = await harness.connect('sam');
    const ids = ['pin-a', 'pin-b', 'pin-c'];
    for (const id of ids) {
      const channel = sam.channel('messaging', id, { members: ['sam', 'alice'] });
      await channel.watch();
      await channel.sendMessage({ text: id });
    }
    const target = sam.channel('messaging', 'pin-a');
    const updated = nextEvent(sam, 'member.updated');
    const member = await target.pin();
    expect(member.pinned_at).toEqual(expect.any(String));
    expect((await updated).member).toMatchObject({ user_id: 'sam', pinned_at: member.pinned_at });
    expect(target.state.membership.pinned_at).toBe(member.pinned_at);

    const filter = { id: { $in: ids } };
    const listed = await sam.queryChannels(filter, [{ pinned_at: -1 }, { last_message_at: -1 }]);
    expect(listed.map((c) => c.id)).toEqual(['pin-a', 'pin-c', 'pin-b']);
    expect((await sam.queryChannels({ ...filter, pinned: true })).map((c) => c.id)).toEqual(['pin-a']);
    const alice = await harness.connect('alice');
    expect((await alice.queryChannels({ ...filter, pinned: true })).map((c) => c.id)).toEqual([]);

    // The newer form of the same call: PATCH …/member with the user in the query.
    const { channel_member } = await target.updateMemberPartial({ set: { pinned: false } });
    expect(channel_member.pinned_at).toBeNull();
    expect(await sam.queryChannels({ ...filter, pinned: true })).toEqual([]);
  });

  it('archives a channel: archived:false hides it, archived:true lists it, unarchive brings it back', async () => {
    const sam = await harness.connect('sam');
    const ids = ['arch-a', 'arch-b'];
    for (const id of ids) await sam.channel('messaging', id, { members: ['sam'] }).watch();
    const member = await sam.channel('messaging', 'arch-a').archive();
    expect(member.archived_at).toEqual(expect.any(String));
    const visible = await sam.queryChannels({ id: { $in: ids }, archived: false });
    expect(visible.map((c) => c.id)).toEqual(['arch-b']);
    const archived = await sam.queryChannels({ id: { $in: ids }, archived: true });
    expect(archived.map((c) => c.id)).toEqual(['arch-a']);
    expect(archived[0]?.state.membership.archived_at).toBe(member.archived_at);
    await sam.channel('messaging', 'arch-a').unarchive();
    expect((await sam.queryChannels({ id: { $in: ids }, archived: false })).map((c) => c.id).sort()).toEqual(ids);
  });

  it('refuses updating another member\'s marks (17) and a non-member\'s (16)', async () => {
    const { ac } = await watchingPair(harness, 'marks-refused');
    await expect(ac.pin({ user_id: 'bob' })).rejects.toMatchObject({ code: 17 });
    const server = harness.admin.channel('messaging', 'marks-refused');
    await expect(server.partialUpdateMember('carol', { set: { pinned: true } })).rejects.toMatchObject({ code: 16 });
    await expect(ac.updateMemberPartial({ set: { channel_role: 'x' } as never })).rejects.toMatchObject({ code: 4 });
  });
});

describe('member fields', () => {
  it('sets and unsets a member\'s custom fields, shown on the member object beside pinned and archived', async () => {
    const { ac, bc } = await watchingPair(harness, 'member-custom');
    const seen = nextEvent(bc, 'member.updated', (e) => e.member?.user_id === 'alice');
    const set = await ac.updateMemberPartial({ set: { hat: 'blue', pinned: true } as never });
    expect(set.channel_member).toMatchObject({ user_id: 'alice', hat: 'blue', pinned_at: expect.any(String) });
    expect((await seen).member).toMatchObject({ hat: 'blue' });
    const server = harness.admin.channel('messaging', 'member-custom');
    const again = await server.updateMemberPartial({ set: { shoes: 'red' } as never }, { userId: 'alice' });
    expect(again.channel_member).toMatchObject({ hat: 'blue', shoes: 'red' });
    const unset = await ac.updateMemberPartial({ unset: ['hat'] as never });
    expect(unset.channel_member).not.toHaveProperty('hat');
    expect(unset.channel_member).toMatchObject({ shoes: 'red', pinned_at: expect.any(String) });
    const { members } = await server.queryMembers({ user_id: 'alice' });
    expect(members[0]).toMatchObject({ shoes: 'red' });
    expect(members[0]).not.toHaveProperty('hat');
    await expect(ac.updateMemberPartial({ set: { big: 'x'.repeat(6000) } as never })).rejects.toMatchObject({ code: 4 });
  });

  it('answers moderator changes with is_moderator, and a role given on adding comes back through assignRoles', async () => {
    await harness.admin.channel('messaging', 'member-roles', { members: ['alice', 'bob'], created_by_id: 'alice' } as never).create();
    const server = harness.admin.channel('messaging', 'member-roles');
    const promoted = await server.addModerators(['bob']);
    expect(promoted.members.find((m) => m.user_id === 'bob')).toMatchObject({ is_moderator: true, channel_role: 'channel_moderator' });
    const demoted = await server.demoteModerators(['bob']);
    expect(demoted.members.find((m) => m.user_id === 'bob')).toMatchObject({ is_moderator: false, channel_role: 'channel_member' });

    const added = await server.addMembers([{ user_id: 'carol', channel_role: 'channel_moderator' }]);
    expect(added.members.find((m) => m.user_id === 'carol')).toMatchObject({ channel_role: 'channel_moderator', is_moderator: true });
    const assigned = await server.assignRoles([{ user_id: 'carol', channel_role: 'channel_member' }]);
    expect(assigned.members.find((m) => m.user_id === 'carol')).toMatchObject({ channel_role: 'channel_member', is_moderator: false });
  });
});
