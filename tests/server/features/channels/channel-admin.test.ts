// Channel administration through the server-side SDK and as users: updates (full and partial),
// moderators and roles, invitations, hiding, truncation, deletion (one and many, as a task),
// frozen and slow-mode channels; every change reaches the watchers by event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsers, nextEvent, startHarness, taskEnded, type Harness } from '../../helpers';
import { sleep, watchingPair } from '../../scenes';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob', 'carol', 'dave', 'erin');
});

afterAll(async () => {
  await harness?.close();
});

/** Custom channel data: the SDK types no custom fields unless the app declares them. */
const data = (fields: Record<string, unknown>) => fields as never;

/** The server-side SDK's handle on a channel a test made. */
const serverChannel = (id: string) => harness.admin.channel('messaging', id);


describe('updating a channel', () => {
  it('renames a channel server-side with an accompanying message: channel.updated carries the new data to watchers', async () => {
    const { bc } = await watchingPair(harness, 'rename');
    const updated = nextEvent(bc.getClient(), 'channel.updated', (e) => e.cid === bc.cid);
    const response = await serverChannel('rename').update(data({ name: 'Support', color: 'teal' }), { text: 'Renamed to Support', user_id: 'alice' });
    expect(response.channel).toMatchObject({ name: 'Support', color: 'teal' });
    expect(response.message).toMatchObject({ text: 'Renamed to Support', user: expect.objectContaining({ id: 'alice' }) });
    const event = await updated;
    expect(event.channel).toMatchObject({ name: 'Support', color: 'teal', cid: 'messaging:rename' });
    expect((bc.data as { name?: string }).name).toBe('Support');
    // The event keeps each receiver's own capabilities.
    expect(bc.data?.own_capabilities).toContain('send-message');
  });

  it('replaces custom data on a full update and changes only named keys on a partial one', async () => {
    await watchingPair(harness, 'partial');
    await serverChannel('partial').update(data({ name: 'One', a: 1, b: 2 }));
    const full = await serverChannel('partial').update(data({ name: 'Two', c: 3 }));
    expect(full.channel).toMatchObject({ name: 'Two', c: 3 });
    expect(full.channel).not.toHaveProperty('a');
    const partial = await serverChannel('partial').updatePartial({ set: data({ d: 4 }), unset: ['c'] as never });
    expect(partial.channel).toMatchObject({ name: 'Two', d: 4 });
    expect(partial.channel).not.toHaveProperty('c');
    await expect(serverChannel('partial').updatePartial({ set: data({ member_count: 9 }) })).rejects.toMatchObject({ code: 4 });
  });

  it('lets the creator rename their channel but refuses a plain member (403 code 17)', async () => {
    const { ac, bc } = await watchingPair(harness, 'owner-rename');
    await ac.update(data({ name: 'Mine' }));
    expect(ac.data?.own_capabilities).toEqual(expect.arrayContaining(['update-channel', 'delete-channel', 'truncate-channel']));
    expect(bc.data?.own_capabilities).not.toContain('update-channel');
    await expect(bc.update(data({ name: 'Hijacked' }))).rejects.toMatchObject({ code: 17, status: 403 });
    await expect(bc.updatePartial({ set: data({ name: 'Hijacked' }) })).rejects.toMatchObject({ code: 17 });
  });

  it('answers bad updates with code 4 and an unknown channel with 16', async () => {
    await watchingPair(harness, 'bad-update');
    const raw = (body: object) =>
      harness.request('/channels/messaging/bad-update', { body, token: harness.token('alice'), userId: 'alice' });
    expect((await raw({ data: 'x' })).body).toMatchObject({ code: 4 });
    expect((await raw({ add_members: [42] })).body).toMatchObject({ code: 4 });
    expect((await raw({ mystery: true })).body).toMatchObject({ code: 4 });
    expect((await raw({ assign_roles: [{ user_id: 'bob', channel_role: 'no_such_role' }] })).body).toMatchObject({ code: 4 });
    const missing = await harness.request('/channels/messaging/nowhere', { body: { data: { name: 'x' } }, token: harness.token('alice'), userId: 'alice' });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 16 });
  });
});

describe('moderators, roles and invitations', () => {
  it('promotes a member to channel moderator: they may then delete any message and ban; demoting takes it back', async () => {
    const { ac, bc } = await watchingPair(harness, 'mods', 'alice', 'carol');
    const promoted = nextEvent(bc.getClient(), 'member.updated', (e) => e.member?.user_id === 'carol');
    await serverChannel('mods').addModerators(['carol']);
    expect((await promoted).member).toMatchObject({ channel_role: 'channel_moderator' });
    const { message } = await ac.sendMessage({ text: 'moderate me' });
    await bc.query({});
    expect(bc.data?.own_capabilities).toEqual(expect.arrayContaining(['delete-any-message', 'ban-channel-members']));
    await bc.getClient().deleteMessage(message.id);

    await serverChannel('mods').demoteModerators(['carol']);
    await bc.query({});
    expect(bc.data?.own_capabilities).not.toContain('delete-any-message');
    const { message: second } = await ac.sendMessage({ text: 'hands off' });
    await expect(bc.getClient().deleteMessage(second.id)).rejects.toMatchObject({ code: 17 });
  });

  it('invites a user, who sees the invitation live and accepts it (or rejects it)', async () => {
    const dave = await harness.connect('dave');
    const erin = await harness.connect('erin');
    const owner = await harness.connect('alice');
    const channel = owner.channel('messaging', 'invites', { members: ['alice'] });
    await channel.watch();
    const invited = nextEvent(dave, 'notification.invited');
    const response = await channel.inviteMembers(['dave', 'erin']);
    expect(response.members.find((m) => m.user_id === 'dave')).toMatchObject({ invited: true });
    expect((await invited).channel).toMatchObject({ cid: 'messaging:invites' });

    const daveChannel = dave.channel('messaging', 'invites');
    await daveChannel.watch();
    const accepted = nextEvent(channel.getClient(), 'member.updated', (e) => e.member?.user_id === 'dave');
    await daveChannel.acceptInvite();
    expect((await accepted).member).toMatchObject({ invite_accepted_at: expect.any(String) });
    await daveChannel.query({});
    expect(daveChannel.data?.own_capabilities).toContain('send-message');

    const erinChannel = erin.channel('messaging', 'invites');
    await erinChannel.watch();
    const rejected = await erinChannel.rejectInvite();
    expect(rejected.members.find((m) => m.user_id === 'erin')).toMatchObject({ invite_rejected_at: expect.any(String) });
    await expect(erinChannel.sendMessage({ text: 'let me in' })).rejects.toMatchObject({ code: 17 });
    // Rejecting ends the access the invitation gave.
    await expect(erin.channel('messaging', 'invites').query({})).rejects.toMatchObject({ code: 17 });
  });

  it('makes the invites given at creation invited members, who answer once; someone never invited cannot answer', async () => {
    const bob = await harness.connect('bob');
    const carol = await harness.connect('carol');
    const invited = nextEvent(bob, 'notification.invited', (e) => e.cid === 'messaging:invited-at-creation');
    const ownerChannel = harness.admin.channel('messaging', 'invited-at-creation', { members: ['alice', 'bob', 'carol'], invites: ['bob'], created_by_id: 'alice' } as never);
    await ownerChannel.create();
    const created = await ownerChannel.query({});
    const byId = (id: string) => created.members.find((m) => m.user_id === id);
    expect(byId('bob')).toMatchObject({ invited: true });
    expect(byId('bob')?.invite_accepted_at).toBeUndefined();
    expect(byId('carol')?.invited).toBeFalsy();
    expect(created.channel).not.toHaveProperty('invites');
    expect((await invited).member).toMatchObject({ user_id: 'bob', invited: true });

    const bobChannel = bob.channel('messaging', 'invited-at-creation');
    await bobChannel.watch();
    const accepted = await bobChannel.acceptInvite({ message: { text: 'Glad to join' } } as never);
    const first = accepted.members.find((m) => m.user_id === 'bob')?.invite_accepted_at;
    expect(first).toEqual(expect.any(String));
    expect(accepted.message).toMatchObject({ text: 'Glad to join', user: expect.objectContaining({ id: 'bob' }) });
    // A second accept changes nothing: the first answer's time stands.
    const again = await bobChannel.acceptInvite();
    expect(again.members.find((m) => m.user_id === 'bob')?.invite_accepted_at).toBe(first);

    const carolChannel = carol.channel('messaging', 'invited-at-creation');
    await carolChannel.watch();
    await expect(carolChannel.acceptInvite()).rejects.toMatchObject({ code: 4 });
    await expect(carolChannel.rejectInvite()).rejects.toMatchObject({ code: 4 });

    // An invite can also be rejected, which is recorded with its time.
    const rejectingChannel = harness.admin.channel('messaging', 'rejected-at-creation', { members: ['alice'], invites: ['carol'], created_by_id: 'alice' } as never);
    await rejectingChannel.create();
    const rejecting = await rejectingChannel.query({});
    expect(rejecting.members.find((m) => m.user_id === 'carol')).toMatchObject({ invited: true });
    const carolRejects = carol.channel('messaging', 'rejected-at-creation');
    await carolRejects.watch();
    const rejected = await carolRejects.rejectInvite();
    expect(rejected.members.find((m) => m.user_id === 'carol')).toMatchObject({ invite_rejected_at: expect.any(String) });
  });

  it('assigns a custom channel role that a grant gives powers to', async () => {
    await harness.admin.createRole('channel_helper');
    await harness.admin.updateChannelType('team', { grants: { channel_helper: ['read-channel', 'create-message', 'pin-message', 'update-message'] } });
    const alice = await harness.connect('alice');
    const channel = alice.channel('team', 'helpers', { members: ['alice', 'bob'] });
    await channel.watch();
    await harness.admin.channel('team', 'helpers').assignRoles([{ user_id: 'bob', channel_role: 'channel_helper' }]);
    const bob = await harness.connect('bob');
    const bobChannel = bob.channel('team', 'helpers');
    await bobChannel.watch();
    expect(bobChannel.data?.own_capabilities).toEqual(expect.arrayContaining(['send-message', 'update-any-message', 'pin-message']));
    expect(bobChannel.data?.own_capabilities).not.toContain('send-reaction');
    await expect(harness.admin.deleteRole('channel_helper')).rejects.toMatchObject({ code: 4 });
  });
});

describe('hiding, truncating and deleting', () => {
  it('hides a channel from its member\'s list until a new message arrives, and clears history when asked', async () => {
    const { ac, bc } = await watchingPair(harness, 'hide-me');
    await ac.sendMessage({ text: 'before hiding' });
    const hidden = nextEvent(bc.getClient(), 'channel.hidden');
    await bc.hide(null, true);
    expect((await hidden).clear_history).toBe(true);
    const listed = async () => (await bc.getClient().queryChannels({ cid: 'messaging:hide-me' })).map((c) => c.cid);
    expect(await listed()).toEqual([]);
    expect((await bc.getClient().queryChannels({ cid: 'messaging:hide-me', hidden: true })).length).toBe(1);

    const visible = nextEvent(bc.getClient(), 'channel.visible');
    await ac.sendMessage({ text: 'after hiding' });
    await visible;
    expect(await listed()).toEqual(['messaging:hide-me']);
    const state = await bc.query({ messages: { limit: 10 } });
    expect(state.messages.map((m) => m.text)).toEqual(['after hiding']);
    // Search forgets the cleared history too.
    expect((await bc.getClient().search({ cid: 'messaging:hide-me' }, 'hiding')).results.map((r) => r.message.text)).toEqual(['after hiding']);

    await bc.hide();
    await bc.show();
    expect(await listed()).toEqual(['messaging:hide-me']);
  });

  it('truncates softly with a system message: everyone\'s history starts after it, unread counts reset', async () => {
    const { ac, bc } = await watchingPair(harness, 'truncate-soft');
    await ac.sendMessage({ text: 'old 1' });
    await ac.sendMessage({ text: 'old 2' });
    const truncated = nextEvent(bc.getClient(), 'channel.truncated');
    const response = await serverChannel('truncate-soft').truncate({ message: { text: 'History cleared', user_id: 'alice' } });
    expect(response.channel.truncated_at).toEqual(expect.any(String));
    expect((await truncated).channel?.truncated_at).toBe(response.channel.truncated_at);
    const state = await bc.query({ messages: { limit: 10 } });
    expect(state.messages.map((m) => m.text)).toEqual(['History cleared']);
    expect(state.read?.find((r) => r.user.id === 'bob')?.unread_messages).toBe(1);
    const found = await bc.getClient().search({ cid: 'messaging:truncate-soft' }, 'old');
    expect(found.results).toEqual([]);
  });

  it('truncates hard: the messages are gone from storage, not only hidden', async () => {
    const { ac } = await watchingPair(harness, 'truncate-hard');
    const { message } = await ac.sendMessage({ text: 'doomed' });
    await ac.truncate({ hard_delete: true });
    await expect(harness.admin.getMessage(message.id)).rejects.toMatchObject({ code: 16 });
    await expect(harness.request('/channels/messaging/truncate-hard/truncate', {
      body: { truncated_at: '2999-01-01T00:00:00Z' }, token: harness.token('alice'), userId: 'alice',
    })).resolves.toMatchObject({ body: { code: 4 } });
  });

  it('soft-deletes a channel: watchers get channel.deleted, it leaves every list, and recreating it starts empty', async () => {
    const { a, b, ac, bc } = await watchingPair(harness, 'delete-soft');
    await ac.sendMessage({ text: 'gone soon' });
    const deleted = nextEvent(b, 'channel.deleted');
    const response = await ac.delete();
    expect(response.channel.deleted_at).toEqual(expect.any(String));
    expect((await deleted).cid).toBe('messaging:delete-soft');
    // The SDK retires a deleted channel's object; new ones are needed from here on.
    expect(bc.disconnected).toBe(true);
    expect(await b.queryChannels({ cid: 'messaging:delete-soft' })).toEqual([]);
    await expect(b.channel('messaging', 'delete-soft').sendMessage({ text: 'anyone?' })).rejects.toMatchObject({ code: 16 });
    const again = a.channel('messaging', 'delete-soft', { members: ['alice', 'bob'] });
    const state = await again.watch();
    expect(state.messages).toEqual([]);
  });

  it('refuses deletion by a plain member, and deletes many channels hard as a task', async () => {
    const { bc } = await watchingPair(harness, 'many-1');
    await watchingPair(harness, 'many-2');
    await expect(bc.delete()).rejects.toMatchObject({ code: 17 });
    const { task_id: taskId } = await harness.admin.deleteChannels(['messaging:many-1', 'messaging:many-2'], { hard_delete: true });
    expect(taskId).toEqual(expect.any(String));
    const task = await taskEnded(harness.admin, taskId as string);
    expect(task.status).toBe('completed');
    expect(task.result).toEqual({ 'messaging:many-1': { status: 'ok' }, 'messaging:many-2': { status: 'ok' } });
    expect(await harness.admin.queryChannels({ cid: { $in: ['messaging:many-1', 'messaging:many-2'] } })).toEqual([]);
    await expect(harness.admin.deleteChannels(['messaging:never'])).rejects.toMatchObject({ code: 16 });
  });
});

describe('frozen channels and slow mode', () => {
  it('a frozen channel refuses members\' messages (17) until unfrozen; an admin may still write', async () => {
    const { ac, bc } = await watchingPair(harness, 'frozen');
    await serverChannel('frozen').updatePartial({ set: { frozen: true } });
    await expect(bc.sendMessage({ text: 'hello?' })).rejects.toMatchObject({ code: 17 });
    await ac.query({});
    expect(ac.data?.frozen).toBe(true);
    await harness.admin.upsertUsers([{ id: 'root', role: 'admin' }]);
    const root = await harness.connect('root');
    const rootChannel = root.channel('messaging', 'frozen');
    await rootChannel.watch();
    await rootChannel.sendMessage({ text: 'admins may' });
    await serverChannel('frozen').updatePartial({ set: { frozen: false } });
    await bc.sendMessage({ text: 'thawed' });
  });

  it('slow mode lets a member send once per cooldown (code 60 meanwhile); the owner of a cooldown-free role is not limited', async () => {
    const { bc } = await watchingPair(harness, 'slow');
    await serverChannel('slow').updatePartial({ set: { cooldown: 2 } });
    await bc.sendMessage({ text: 'first' });
    await expect(bc.sendMessage({ text: 'second' })).rejects.toMatchObject({ code: 60 });
    await expect(harness.request('/channels/messaging/slow', {
      method: 'PATCH', body: { set: { cooldown: 999 } }, token: harness.token('alice'), userId: 'alice',
    })).resolves.toMatchObject({ body: { code: 4 } });
  });
});

describe('what stays out of reach', () => {
  it('a shadow-banned member\'s message cannot be read by id, by list, in a thread or pinned, and the ban is never shown to the chat', async () => {
    const { a, b, ac, bc } = await watchingPair(harness, 'reach-shadow');
    const { message: parent } = await ac.sendMessage({ text: 'thread starter' });
    const banned = nextEvent(b, 'user.banned', () => true, 400).then(() => 'told', () => 'secret');
    await serverChannel('reach-shadow').shadowBan('bob', { banned_by_id: 'alice' });
    expect(await banned).toBe('secret');
    const { message: hidden } = await bc.sendMessage({ text: 'hidden words' });
    const { message: reply } = await bc.sendMessage({ text: 'hidden reply', parent_id: parent.id });
    await harness.admin.pinMessage(hidden, null, 'bob' as never);

    await expect(a.getMessage(hidden.id)).rejects.toMatchObject({ code: 16 });
    expect((await ac.getMessagesById([hidden.id, parent.id])).messages.map((m) => m.id)).toEqual([parent.id]);
    const { threads } = await a.queryThreads({ reply_limit: 10 } as never);
    const thread = threads.find((t) => t.id === parent.id);
    expect(thread?.state.getLatestValue().replies.map((m) => m.id) ?? []).not.toContain(reply.id);
    const state = await ac.query({});
    expect(state.pinned_messages?.map((m) => m.id)).not.toContain(hidden.id);
    expect(state.members.find((m) => m.user_id === 'bob')).toMatchObject({ banned: false, shadow_banned: false });
    // Their author still sees them.
    expect((await b.getMessage(hidden.id)).message.text).toBe('hidden words');
    await harness.admin.removeShadowBan('bob');
  });

  it('removeShadowBan leaves a full ban in place', async () => {
    await watchingPair(harness, 'reach-unban');
    await serverChannel('reach-unban').banUser('bob', { banned_by_id: 'alice' });
    await serverChannel('reach-unban').removeShadowBan('bob');
    const { bans } = await harness.admin.queryBannedUsers({ channel_cid: 'messaging:reach-unban' });
    expect(bans?.map((ban) => ban.user?.id)).toEqual(['bob']);
  });

  it('a banned member cannot edit what they wrote', async () => {
    const { b, bc } = await watchingPair(harness, 'reach-edit');
    const { message } = await bc.sendMessage({ text: 'before the ban' });
    await serverChannel('reach-edit').banUser('bob', { banned_by_id: 'alice' });
    await expect(b.updateMessage({ id: message.id, text: 'after the ban' })).rejects.toMatchObject({ code: 17 });
  });

  it('a message of a deleted channel is gone, and someone else creating the channel again gets a new, empty one', async () => {
    const { a, ac } = await watchingPair(harness, 'reach-deleted');
    const { message } = await ac.sendMessage({ text: 'old news' });
    await ac.delete();
    await expect(a.getMessage(message.id)).rejects.toMatchObject({ code: 16 });
    const carol = await harness.connect('carol');
    const fresh = carol.channel('messaging', 'reach-deleted', { members: ['carol'] });
    const state = await fresh.watch();
    expect(state.messages).toEqual([]);
    expect(state.members.map((m) => m.user_id)).toEqual(['carol']);
    expect(state.channel.created_by?.id).toBe('carol');
  });

  it('members added with hide_history see nothing from before they joined', async () => {
    const { ac } = await watchingPair(harness, 'reach-history');
    await ac.sendMessage({ text: 'before dave' });
    await ac.addMembers(['dave'], undefined, { hide_history: true });
    await ac.sendMessage({ text: 'after dave' });
    const dave = await harness.connect('dave');
    const state = await dave.channel('messaging', 'reach-history').query({ messages: { limit: 10 } });
    expect(state.messages.map((m) => m.text)).toEqual(['after dave']);
  });

  it('an update whose message cannot be sent changes nothing (no user to send it as)', async () => {
    await watchingPair(harness, 'reach-atomic');
    await expect(serverChannel('reach-atomic').update(data({ name: 'Half done' }), { text: 'who am I?' })).rejects.toMatchObject({ code: 4 });
    const [channel] = await harness.admin.queryChannels({ cid: 'messaging:reach-atomic' });
    expect((channel?.data as { name?: string }).name).toBeUndefined();
  });
});

describe('filter tags', () => {
  it('adds and removes filter tags, shows them in the channel, keeps them across a data update, and queryChannels finds channels by them', async () => {
    const tagged = harness.admin.channel('messaging', 'tags-vip', { created_by_id: 'alice', members: ['alice'] } as never);
    await tagged.create();
    const other = harness.admin.channel('messaging', 'tags-plain', { created_by_id: 'alice', members: ['alice'] } as never);
    await other.create();
    const added = await tagged.addFilterTags(['vip', 'support']);
    expect(added.channel.filter_tags).toEqual(['vip', 'support']);
    await other.addFilterTags(['support']);

    const byTag = async (filter: object) => (await harness.admin.queryChannels({ ...filter, cid: { $in: ['messaging:tags-vip', 'messaging:tags-plain'] } } as never)).map((c) => c.cid).sort();
    expect(await byTag({ filter_tags: { $in: ['vip'] } })).toEqual(['messaging:tags-vip']);
    expect(await byTag({ filter_tags: { $eq: 'support' } })).toEqual(['messaging:tags-plain', 'messaging:tags-vip']);
    expect(await byTag({ filter_tags: { $in: ['nothing'] } })).toEqual([]);

    // A full data update replaces the custom data, not the tags.
    await tagged.update({ name: 'VIP room' } as never);
    const [reread] = await harness.admin.queryChannels({ cid: 'messaging:tags-vip' });
    expect(reread?.data).toMatchObject({ name: 'VIP room', filter_tags: ['vip', 'support'] });

    const removed = await tagged.removeFilterTags(['vip']);
    expect(removed.channel.filter_tags).toEqual(['support']);
    expect(await byTag({ filter_tags: { $in: ['vip'] } })).toEqual([]);
    await expect(tagged.addFilterTags([42 as never])).rejects.toMatchObject({ code: 4 });
  });
});

describe('channel-level settings (config_overrides)', () => {
  it("overrides the type's settings for one channel alone, from the server side only, and keeps them across a data update", async () => {
    const { ac, a } = await watchingPair(harness, 'settings-one');
    const { ac: sibling } = await watchingPair(harness, 'settings-other');
    const overridden = await serverChannel('settings-one').updatePartial({
      set: { config_overrides: { typing_events: false, shared_locations: false, user_message_reminders: false, max_message_length: 10 } },
    });
    expect(overridden.channel.config).toMatchObject({ typing_events: false, shared_locations: false, user_message_reminders: false, max_message_length: 10 });

    // The channel obeys them: no typing events, no shared locations, no reminders, shorter messages.
    const state = await a.channel('messaging', 'settings-one').query({});
    expect(state.channel.config).toMatchObject({ typing_events: false, max_message_length: 10 });
    expect(state.channel.own_capabilities).not.toContain('send-typing-events');
    expect(state.channel.own_capabilities).not.toContain('share-location');
    await expect(ac.sendMessage({ text: 'eleven char' })).rejects.toMatchObject({ code: 4 });
    const { message } = await ac.sendMessage({ text: 'ten chars!' });
    await expect(a.createReminder({ messageId: message.id })).rejects.toMatchObject({ code: 4 });

    // Another channel of the same type keeps the type's settings.
    const other = await a.channel('messaging', 'settings-other').query({});
    expect(other.channel.config).toMatchObject({ typing_events: true, max_message_length: 5000 });
    expect(other.channel.own_capabilities).toContain('send-typing-events');
    await sibling.sendMessage({ text: 'a message longer than ten characters' });

    // A user's own full update keeps them (even sent back as read); a user cannot change them.
    await ac.update({ ...ac.data, name: 'Renamed' } as never);
    expect((await a.channel('messaging', 'settings-one').query({})).channel.config).toMatchObject({ typing_events: false });
    await expect(ac.updatePartial({ set: { config_overrides: { typing_events: true } } })).rejects.toMatchObject({ code: 17 });
    await expect(ac.updatePartial({ unset: ['config_overrides' as never] })).rejects.toMatchObject({ code: 17 });
    // Only the provider's list of settings, with the right types.
    await expect(serverChannel('settings-one').updatePartial({ set: { config_overrides: { read_events: false } as never } })).rejects.toMatchObject({ code: 4 });
    await expect(serverChannel('settings-one').updatePartial({ set: { config_overrides: { typing_events: 'no' } as never } })).rejects.toMatchObject({ code: 4 });

    // Unset: the type's settings again.
    const restored = await serverChannel('settings-one').updatePartial({ unset: ['config_overrides' as never] });
    expect(restored.channel.config).toMatchObject({ typing_events: true, max_message_length: 5000 });
    await ac.sendMessage({ text: 'a long message again, allowed' });
  });
});

describe('many channels at once (PUT /channels/batch)', () => {
  const cids = (ids: string[]) => ids.map((id) => `messaging:${id}`);
  const membersOf = async (id: string) => (await serverChannel(id).queryMembers({})).members.map((m) => m.user_id).sort();

  it('adds and removes members, archives for a member, and changes data over a filter, each as a task', async () => {
    const ids = ['batch-a', 'batch-b', 'batch-c'];
    for (const id of ids) await harness.admin.channel('messaging', id, { created_by_id: 'alice', members: ['alice', 'bob'] } as never).create();
    await serverChannel('batch-c').addFilterTags(['vip']);
    const updater = harness.admin.channelBatchUpdater();

    // A member joins every channel the cids name, as a task whose result names each channel.
    const added = await updater.addMembers({ cids: { $in: cids(ids) } }, [{ user_id: 'carol' }]);
    expect(added.result).toEqual({ 'messaging:batch-a': 'pending', 'messaging:batch-b': 'pending', 'messaging:batch-c': 'pending' });
    const done = await taskEnded(harness.admin, added.task_id!);
    expect(done).toMatchObject({ status: 'completed', result: { channels: 3, failed: 0 } });
    for (const id of ids) expect(await membersOf(id)).toEqual(['alice', 'bob', 'carol']);

    // Only the channels the filter tag selects lose a member.
    const removed = await updater.removeMembers({ filter_tags: { $in: ['vip'] }, cids: { $in: cids(ids) } } as never, ['bob']);
    await taskEnded(harness.admin, removed.task_id!);
    expect(await membersOf('batch-c')).toEqual(['alice', 'carol']);
    expect(await membersOf('batch-a')).toEqual(['alice', 'bob', 'carol']);

    // Archived for alice alone (members named, as the Python SDK's updater sends them): her
    // channel list finds them archived, carol's does not; without members, for every member.
    const archive = await harness.admin.updateChannelsBatch({ operation: 'archive', filter: { cids: cids(['batch-a', 'batch-b']) } as never, members: [{ user_id: 'alice' }] });
    await taskEnded(harness.admin, archive.task_id!);
    const archivedFor = async (user: string) =>
      (await harness.admin.queryChannels({ cid: { $in: cids(ids) }, archived: true } as never, {}, { user_id: user })).map((c) => c.cid).sort();
    expect(await archivedFor('alice')).toEqual(cids(['batch-a', 'batch-b']));
    expect(await archivedFor('carol')).toEqual([]);
    await taskEnded(harness.admin, (await updater.archive({ cids: { $eq: 'messaging:batch-c' } })).task_id!);
    expect(await archivedFor('carol')).toEqual(['messaging:batch-c']);

    // Data: frozen, a custom key set by path, and per-channel settings, on every selected channel.
    await serverChannel('batch-a').updatePartial({ set: { details: { tier: 'gold', region: 'eu' } } as never });
    const changed = await updater.updateData({ cids: { $eq: 'messaging:batch-a' } }, {
      data: { frozen: true, config_overrides: { typing_events: false } },
      custom_set: { 'details.tier': 'platinum', note: 'moved' },
    });
    await taskEnded(harness.admin, changed.task_id!);
    const [a] = await harness.admin.queryChannels({ cid: 'messaging:batch-a' });
    expect(a?.data).toMatchObject({ frozen: true, details: { tier: 'platinum', region: 'eu' }, note: 'moved' });
    expect(a?.data?.config).toMatchObject({ typing_events: false });

    // Refused whole, before any task: no channel selected, an unknown operation or user, a user's token.
    await expect(updater.addMembers({ cids: { $in: ['messaging:nowhere'] } }, ['carol'])).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.updateChannelsBatch({ operation: 'explode' as never, filter: { cids: cids(ids) } as never })).rejects.toMatchObject({ code: 4 });
    await expect(updater.addMembers({ cids: { $in: cids(ids) } }, ['nobody-at-all'])).rejects.toMatchObject({ code: 4 });
    await expect(updater.updateData({ cids: cids(ids) } as never, { frozen: 'yes' } as never)).rejects.toMatchObject({ code: 4 });
    const alice = await harness.connect('alice');
    await expect(alice.updateChannelsBatch({ operation: 'hide', filter: { cids: cids(ids) } as never, members: ['alice'] })).rejects.toMatchObject({ code: 17 });
  });
});
