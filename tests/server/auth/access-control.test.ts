// Channel types, permissions and roles through the server-side SDK: what a type says is what
// the backend does, and a grant taken away removes the capability and refuses the call together.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsers, startHarness, type Harness } from '../helpers';
import { watchingPair } from '../scenes';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob', 'carol');
});

afterAll(async () => {
  await harness?.close();
});

describe('channel types', () => {
  it('lists the built-in types with their config, grants and the default rule set (allow-all 999, deny-all 1)', async () => {
    const { channel_types: types } = await harness.admin.listChannelTypes();
    expect(Object.keys(types)).toEqual(expect.arrayContaining(['messaging', 'team', 'livestream']));
    const messaging = await harness.admin.getChannelType('messaging');
    expect(messaging).toMatchObject({ name: 'messaging', typing_events: true, max_message_length: 5000 });
    expect(messaging.grants.channel_member).toContain('create-message');
    expect(messaging.permissions).toEqual([
      expect.objectContaining({ name: 'Allow all', action: 'Allow', priority: 999, roles: ['*'], resources: ['*'] }),
      expect.objectContaining({ name: 'Deny all', action: 'Deny', priority: 1 }),
    ]);
    expect(messaging.commands.map((c) => c.name)).toContain('giphy');
  });

  it('creates a type whose config the backend obeys: no reactions, no typing, short messages, only /mute', async () => {
    await harness.admin.createChannelType({
      name: 'quiet',
      reactions: false,
      typing_events: false,
      max_message_length: 10,
      commands: ['mute'],
    });
    const alice = await harness.connect('alice');
    const channel = alice.channel('quiet', 'room', { members: ['alice', 'bob'] });
    const state = await channel.watch();
    expect(state.channel.config).toMatchObject({ reactions: false, typing_events: false, max_message_length: 10 });
    expect(state.channel.config?.commands?.map((c) => c.name)).toEqual(['mute']);
    expect(state.channel.own_capabilities).not.toContain('send-reaction');
    expect(state.channel.own_capabilities).not.toContain('send-typing-events');
    const { message } = await channel.sendMessage({ text: 'short' });
    await expect(channel.sendMessage({ text: 'far too long a message' })).rejects.toMatchObject({ code: 4 });
    await expect(channel.sendReaction(message.id, { type: 'like' })).rejects.toMatchObject({ code: 17 });

    // Only the commands the type offers run; search skips the type when it is turned off.
    await expect(channel.sendMessage({ text: '/ban @bob' })).rejects.toMatchObject({ code: 4 });
    await harness.admin.updateChannelType('quiet', { search: false });
    expect((await alice.search({ cid: 'quiet:room' }, 'short')).results).toEqual([]);
    await harness.admin.updateChannelType('quiet', { search: true });
    expect((await alice.search({ cid: 'quiet:room' }, 'short')).results).toHaveLength(1);

    await harness.admin.updateChannelType('quiet', { reactions: true });
    await channel.query({});
    expect(channel.data?.own_capabilities).toContain('send-reaction');
    await channel.sendReaction(message.id, { type: 'like' });
  });

  it('refuses a duplicate or badly named type, unknown settings and permissions (4), and deleting a type in use', async () => {
    await expect(harness.admin.createChannelType({ name: 'messaging' })).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.createChannelType({ name: 'Bad Name!' })).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.updateChannelType('messaging', { max_message_length: -1 } as never)).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.updateChannelType('messaging', { grants: { user: ['fly'] } })).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.updateChannelType('messaging', { wings: true } as never)).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.getChannelType('nope')).rejects.toMatchObject({ code: 16 });
    await expect(harness.admin.deleteChannelType('quiet')).rejects.toMatchObject({ code: 4 });
    await harness.admin.createChannelType({ name: 'scratch' });
    await harness.admin.deleteChannelType('scratch');
    await expect(harness.admin.getChannelType('scratch')).rejects.toMatchObject({ code: 16 });
  });

  it('is server-side only: a user token is refused with 17', async () => {
    const alice = await harness.connect('alice');
    await expect(alice.listChannelTypes()).rejects.toMatchObject({ code: 17 });
    await expect(alice.createChannelType({ name: 'mine' })).rejects.toMatchObject({ code: 17 });
  });
});

describe('grants and rules', () => {
  it('a grant removed makes the capability disappear and the call fail; restoring it brings both back', async () => {
    await harness.admin.createChannelType({ name: 'granted' });
    const { ac, bc } = await watchingPair(harness, 'g1', 'alice', 'bob', 'granted');
    const { message } = await ac.sendMessage({ text: 'pin me' });
    expect(bc.data?.own_capabilities).toContain('pin-message');

    const memberGrants = (await harness.admin.getChannelType('granted')).grants.channel_member ?? [];
    await harness.admin.updateChannelType('granted', { grants: { channel_member: memberGrants.filter((p) => p !== 'pin-message') } });
    await bc.query({});
    expect(bc.data?.own_capabilities).not.toContain('pin-message');
    await expect(bc.getClient().pinMessage(message)).rejects.toMatchObject({ code: 17 });

    await harness.admin.updateChannelType('granted', { grants: { channel_member: memberGrants } });
    await bc.query({});
    expect(bc.data?.own_capabilities).toContain('pin-message');
    await bc.getClient().pinMessage(message);
  });

  it('a Deny rule above the default allow-all forbids an action whatever the grants say', async () => {
    await harness.admin.createChannelType({ name: 'ruled' });
    const { bc } = await watchingPair(harness, 'r1', 'alice', 'bob', 'ruled');
    await bc.sendMessage({ text: 'before the rule' });
    const defaults = (await harness.admin.getChannelType('ruled')).permissions;
    await harness.admin.updateChannelType('ruled', {
      permissions: [{ name: 'No members writing', action: 'Deny', priority: 1000, resources: ['CreateMessage'], roles: ['channel_member'], owner: false }, ...defaults],
    });
    await bc.query({});
    expect(bc.data?.own_capabilities).not.toContain('send-message');
    await expect(bc.sendMessage({ text: 'after the rule' })).rejects.toMatchObject({ code: 17 });
    // Reading is another action: untouched.
    expect(bc.data?.own_capabilities).toContain('read-events');
  });

  it('app grants decide app-wide actions: taking mute-user from users refuses muting', async () => {
    const alice = await harness.connect('alice');
    await harness.admin.updateAppSettings({ grants: { user: ['update-user-owner', 'flag-user', 'mute-user', 'search-user'] } });
    await expect(alice.muteUser('carol')).resolves.toBeTruthy();
    await harness.admin.updateAppSettings({ grants: { user: ['update-user-owner', 'flag-user', 'search-user'] } });
    await expect(alice.muteUser('bob')).rejects.toMatchObject({ code: 17 });
    await harness.admin.updateAppSettings({ grants: {} });
    await alice.muteUser('bob');
  });

  it('disable_permissions_checks lets a non-member read a members-only channel', async () => {
    await watchingPair(harness, 'private-room', 'alice', 'bob');
    const carol = await harness.connect('carol');
    await expect(carol.channel('messaging', 'private-room').query({})).rejects.toMatchObject({ code: 17 });
    await harness.admin.updateAppSettings({ disable_permissions_checks: true });
    try {
      const state = await carol.channel('messaging', 'private-room').query({});
      expect(state.channel.own_capabilities).toContain('send-message');
    } finally {
      await harness.admin.updateAppSettings({ disable_permissions_checks: false });
    }
  });
});

describe('permissions and roles', () => {
  it('lists built-in permissions, creates a custom one that a grant can give, and deletes it once ungranted', async () => {
    const { permissions } = await harness.admin.listPermissions();
    expect(permissions?.map((p) => p.id)).toEqual(expect.arrayContaining(['create-message', 'update-channel', 'ban-user']));
    expect((await harness.admin.getPermission('create-message')).permission).toMatchObject({ id: 'create-message', custom: false });

    await harness.admin.createPermission({ id: 'post-in-bulletins', name: 'Post in bulletins', action: 'CreateMessage', condition: {} });
    expect((await harness.admin.getPermission('post-in-bulletins')).permission).toMatchObject({ custom: true });
    await harness.admin.createChannelType({ name: 'bulletin', grants: { channel_member: ['read-channel', 'post-in-bulletins'] } });
    const { bc } = await watchingPair(harness, 'b1', 'alice', 'bob', 'bulletin');
    expect(bc.data?.own_capabilities).toContain('send-message');
    await bc.sendMessage({ text: 'custom permission at work' });

    await expect(harness.admin.deletePermission('post-in-bulletins')).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.createPermission({ id: 'create-message', name: 'x', action: 'CreateMessage', condition: {} })).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.createPermission({ id: 'odd', name: 'x', action: 'Teleport', condition: {} })).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.deletePermission('create-message')).rejects.toMatchObject({ code: 4 });
  });

  it('creates, lists and deletes custom roles; a role given to a user follows the app grants', async () => {
    await harness.admin.createRole('support_agent');
    const { roles } = await harness.admin.listRoles();
    expect(roles.map((r) => r.name)).toEqual(expect.arrayContaining(['admin', 'user', 'channel_moderator', 'support_agent']));
    await expect(harness.admin.createRole('support_agent')).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.deleteRole('admin')).rejects.toMatchObject({ code: 4 });

    await harness.admin.upsertUsers([{ id: 'agent-ann', role: 'support_agent' }]);
    await harness.admin.updateChannelType('messaging', { grants: { support_agent: ['read-channel', 'create-message'] } });
    await watchingPair(harness, 'support-ann', 'alice', 'bob');
    const agent = await harness.connect('agent-ann');
    const state = await agent.channel('messaging', 'support-ann').query({});
    expect(state.channel.own_capabilities).toEqual(expect.arrayContaining(['send-message']));
    await expect(harness.admin.deleteRole('support_agent')).rejects.toMatchObject({ code: 4 });
    await harness.admin.createRole('temporary');
    await harness.admin.deleteRole('temporary');
    await expect(harness.admin.deleteRole('temporary')).rejects.toMatchObject({ code: 16 });
  });
});

describe('channel types and blocklists', () => {
  it('refuses a blocklist that does not exist (4)', async () => {
    await expect(harness.admin.updateChannelType('messaging', { blocklist: 'never-made' })).rejects.toMatchObject({ code: 4 });
  });
});

describe('app-wide permissions of users', () => {
  it('search-user taken away refuses queryUsers', async () => {
    const alice = await harness.connect('alice');
    await alice.queryUsers({ id: 'bob' });
    await harness.admin.updateAppSettings({ grants: { user: ['update-user-owner', 'flag-user', 'mute-user', 'block-user'] } });
    try {
      await expect(alice.queryUsers({ id: 'bob' })).rejects.toMatchObject({ code: 17 });
    } finally {
      await harness.admin.updateAppSettings({ grants: {} });
    }
  });

  it('refuses deleting a blocklist a channel type uses, and a type that still has (even deleted) channels', async () => {
    await harness.admin.createBlockList({ name: 'in-use', words: ['x'] });
    await harness.admin.createChannelType({ name: 'listed', blocklist: 'in-use' } as never);
    await expect(harness.admin.deleteBlockList('in-use')).rejects.toMatchObject({ code: 4 });
    const { ac } = await watchingPair(harness, 'only-one', 'alice', 'bob', 'listed');
    await ac.delete();
    await expect(harness.admin.deleteChannelType('listed')).rejects.toMatchObject({ code: 4 });
  });
});
