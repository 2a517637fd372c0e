// Channels through the SDK: access rules, creation, distinct member channels, queryChannels
// filters and sorting, message pagination.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelData, ChannelFilters, StreamChat } from 'stream-chat';
import { createUsers, startHarness, type Harness } from '../../helpers';

let harness: Harness;

/** Channel data with custom fields, which the SDK's types only know after module augmentation. */
const custom = (data: Record<string, unknown>) => data as ChannelData;
let alice: StreamChat;
let bob: StreamChat;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob', 'carol', 'dave');
  alice = await harness.connect('alice');
  bob = await harness.connect('bob');
});

afterAll(async () => {
  await harness?.close();
});

describe('access', () => {
  it('refuses a user who is not a member of a messaging channel: watch() rejects with code 17', async () => {
    await alice.channel('messaging', 'private', { members: ['alice', 'carol'] }).watch();
    const outsider = bob.channel('messaging', 'private');
    await expect(outsider.watch()).rejects.toMatchObject({ code: 17, status: 403 });
    await expect(outsider.watch()).rejects.toThrow(/StreamChat error code 17/);
  });

  it('makes the creator owner and data.members members, with a complete channel response', async () => {
    const state = await alice.channel('team', 'crew', custom({ name: 'Crew', members: ['bob'], color: 'teal' })).watch();
    expect(state.channel).toMatchObject({
      id: 'crew',
      type: 'team',
      cid: 'team:crew',
      name: 'Crew',
      color: 'teal',
      member_count: 2,
      frozen: false,
      disabled: false,
      created_by: expect.objectContaining({ id: 'alice' }),
    });
    expect(state.channel.config).toMatchObject({ typing_events: true, read_events: true, max_message_length: 5000 });
    expect(state.channel.own_capabilities).toEqual(
      expect.arrayContaining(['read-events', 'send-message', 'upload-file', 'typing-events', 'update-channel']),
    );
    expect(state.members.map((m) => [m.user_id, m.role])).toEqual([
      ['alice', 'owner'],
      ['bob', 'member'],
    ]);
    expect(state.membership?.user_id).toBe('alice');
    expect(state.messages).toEqual([]);
    expect(state.pinned_messages).toEqual([]);
    expect(state.read?.map((r) => r.user.id).sort()).toEqual(['alice', 'bob']);

    const asMember = await bob.channel('team', 'crew').watch();
    expect(asMember.channel.own_capabilities).toContain('send-message');
    expect(asMember.channel.own_capabilities).not.toContain('update-channel');
  });

  it('opens livestream channels to every signed-in user, without read events', async () => {
    await alice.channel('livestream', 'keynote').watch();
    const viewer = bob.channel('livestream', 'keynote');
    const state = await viewer.watch();
    expect(state.channel.own_capabilities).toContain('send-message');
    expect(state.channel.own_capabilities).not.toContain('read-events');
    const { message } = await viewer.sendMessage({ text: 'great talk' });
    expect(message.text).toBe('great talk');
  });

  it('refuses a second message with the same id as an input error (code 4)', async () => {
    const channel = alice.channel('messaging', 'dupes', { members: ['alice'] });
    await channel.watch();
    await channel.sendMessage({ id: 'same-id', text: 'first' });
    await expect(channel.sendMessage({ id: 'same-id', text: 'again' })).rejects.toMatchObject({ code: 4, status: 400 });
  });

  it('answers a resent message id as the provider does, and keeps the first copy alone', async () => {
    const channel = alice.channel('messaging', 'resent', { members: ['alice', 'bob'] });
    await channel.watch();
    const { message } = await channel.sendMessage({ id: 'resent-1', text: 'the answer was lost on the way back' });
    const again = channel.sendMessage({ id: 'resent-1', text: 'the answer was lost on the way back' });
    await expect(again).rejects.toThrow('StreamChat error code 4: SendMessage failed with error: "a message with ID resent-1 already exists"');
    // What a client does then: read the stored message by its id.
    expect((await alice.getMessage('resent-1')).message).toMatchObject({ id: 'resent-1', text: message.text, created_at: message.created_at });
    const state = await bob.channel('messaging', 'resent').query({ messages: { limit: 10 } });
    expect(state.messages.map((m) => m.id)).toEqual(['resent-1']);
  });
});

describe('distinct member channels', () => {
  it('finds the channel of a member list again instead of creating a duplicate', async () => {
    const first = alice.channel('messaging', { members: ['alice', 'dave'] });
    const created = await first.watch();
    expect(created.channel.id).toMatch(/^!members-/);
    expect(first.cid).toBe(created.channel.cid);

    const dave = await harness.connect('dave');
    const second = dave.channel('messaging', { members: ['dave', 'alice'] });
    const found = await second.watch();
    expect(found.channel.cid).toBe(created.channel.cid);

    const listed = await harness.admin.queryChannels({ members: { $eq: ['alice', 'dave'] } }, {}, { watch: false });
    expect(listed.map((c) => c.cid)).toEqual([created.channel.cid]);
  });
});

describe('queryChannels', () => {
  beforeAll(async () => {
    const make = async (id: string, name: string, members: string[], extra: Record<string, unknown> = {}) => {
      const channel = alice.channel('messaging', id, custom({ name, members, ...extra }));
      await channel.watch();
      return channel;
    };
    await make('q-design', 'Design Review', ['alice', 'bob'], { topic: 'ui', priority: 2 });
    await make('q-dev', 'Developers', ['alice', 'bob'], { topic: 'code', priority: 5 });
    await make('q-random', 'Random Chatter', ['alice'], { topic: 'fun', priority: 1 });
    // Activity order: q-random is the most recent, then q-design.
    await alice.channel('messaging', 'q-design').sendMessage({ text: 'mockups ready' });
    await alice.channel('messaging', 'q-random').sendMessage({ text: 'lunch?' });
  });

  const cids = (channels: { cid: string }[]) => channels.map((c) => c.cid);

  it('filters by $in members and lists only channels the user belongs to', async () => {
    const asBob = await bob.queryChannels({ members: { $in: ['bob'] }, id: { $in: ['q-design', 'q-dev', 'q-random'] } });
    expect(cids(asBob).sort()).toEqual(['messaging:q-design', 'messaging:q-dev']);
    // Without a members filter bob still never sees alice's private channel.
    const everything = await bob.queryChannels({ id: { $in: ['q-design', 'q-dev', 'q-random'] } });
    expect(cids(everything)).not.toContain('messaging:q-random');
  });

  it('matches $autocomplete on any word of the name', async () => {
    const found = await alice.queryChannels({ name: { $autocomplete: 'rev' }, members: { $in: ['alice'] } });
    expect(cids(found)).toEqual(['messaging:q-design']);
    const prefix = await alice.queryChannels({ name: { $autocomplete: 'dev' } });
    expect(cids(prefix)).toEqual(['messaging:q-dev']);
  });

  it('combines $and / $or with custom fields and sorts by them', async () => {
    const found = await alice.queryChannels(
      {
        $and: [
          { members: { $in: ['alice'] } },
          { $or: [{ topic: 'ui' }, { priority: { $gte: 5 } }, { name: { $autocomplete: 'chat' } }] },
        ],
      } as ChannelFilters,
      [{ priority: -1 }],
    );
    expect(cids(found)).toEqual(['messaging:q-dev', 'messaging:q-design', 'messaging:q-random']);
  });

  it('sorts by last_message_at and pages with limit and offset', async () => {
    const filter = { id: { $in: ['q-design', 'q-dev', 'q-random'] } };
    const sorted = await alice.queryChannels(filter, [{ last_message_at: -1 }]);
    expect(cids(sorted)).toEqual(['messaging:q-random', 'messaging:q-design', 'messaging:q-dev']);
    const page = await alice.queryChannels(filter, [{ last_message_at: -1 }], { limit: 1, offset: 1 });
    expect(cids(page)).toEqual(['messaging:q-design']);
    expect(page[0]?.state.latestMessages.map((m) => m.text)).toEqual(['mockups ready']);
  });

  it('refuses unknown operators with code 4', async () => {
    await expect(alice.queryChannels({ name: { $regex: 'x' } } as never)).rejects.toMatchObject({ code: 4 });
  });
});

describe('message pagination', () => {
  const ids = Array.from({ length: 30 }, (_, i) => `page-${String(i).padStart(2, '0')}`);

  beforeAll(async () => {
    const channel = alice.channel('messaging', 'history', { members: ['alice', 'bob'] });
    await channel.watch();
    for (const id of ids) await channel.sendMessage({ id, text: id });
  });

  it('returns the latest page oldest-first, and id_lt pages backwards from a message', async () => {
    const channel = bob.channel('messaging', 'history');
    const latest = await channel.query({ messages: { limit: 10 } });
    expect(latest.messages.map((m) => m.id)).toEqual(ids.slice(20));

    const older = await channel.query({ messages: { limit: 10, id_lt: 'page-20' } });
    expect(older.messages.map((m) => m.id)).toEqual(ids.slice(10, 20));
    const oldest = await channel.query({ messages: { limit: 10, id_lt: 'page-03' } });
    expect(oldest.messages.map((m) => m.id)).toEqual(ids.slice(0, 3));
    const newer = await channel.query({ messages: { limit: 5, id_gt: 'page-24' } });
    expect(newer.messages.map((m) => m.id)).toEqual(ids.slice(25, 30));
  });

  it('centres id_around on the target, shifting the window at the edges', async () => {
    const channel = bob.channel('messaging', 'history');
    const middle = await channel.query({ messages: { limit: 7, id_around: 'page-15' } });
    expect(middle.messages.map((m) => m.id)).toEqual(ids.slice(12, 19));
    expect(middle.messages[3]?.id).toBe('page-15');

    const start = await channel.query({ messages: { limit: 7, id_around: 'page-01' } });
    expect(start.messages.map((m) => m.id)).toEqual(ids.slice(0, 7));
    const end = await channel.query({ messages: { limit: 7, id_around: 'page-29' } });
    expect(end.messages.map((m) => m.id)).toEqual(ids.slice(23, 30));
  });

  it('loads older messages through the SDK state (channel.query with id_lt) without gaps', async () => {
    const fresh = await harness.connect('bob');
    const channel = fresh.channel('messaging', 'history');
    await channel.watch({ messages: { limit: 10 } });
    const firstId = channel.state.messages[0]?.id;
    await channel.query({ messages: { limit: 10, id_lt: firstId } }, 'current');
    expect(channel.state.messages.map((m) => m.id)).toEqual(ids.slice(10));
  });
});

describe('users and members', () => {
  it('queryUsers filters with $autocomplete / $in and sorts', async () => {
    const { users } = await alice.queryUsers({ name: { $autocomplete: 'ca' } });
    expect(users.map((u) => u.id)).toEqual(['carol']);
    const sorted = await alice.queryUsers({ id: { $in: ['alice', 'bob', 'dave'] } }, [{ id: -1 }]);
    expect(sorted.users.map((u) => u.id)).toEqual(['dave', 'bob', 'alice']);
    const online = await alice.queryUsers({ id: { $in: ['alice', 'carol'] }, online: true });
    expect(online.users.map((u) => u.id)).toEqual(['alice']);
  });

  it('queryMembers lists a channel member page', async () => {
    const channel = alice.channel('team', 'crew');
    await channel.watch();
    const { members } = await channel.queryMembers({ name: { $autocomplete: 'bo' } });
    expect(members.map((m) => m.user_id)).toEqual(['bob']);
  });
});
