// Read state beyond markRead: mark unread (from a message, a time, inside a thread), mark every
// channel read, and what happens to someone who is not a member.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsers, nextEvent, startHarness, type Harness } from '../../helpers';
import { watchingPair } from '../../scenes';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob', 'carol', 'dan', 'eve', 'fay', 'gus');
});

afterAll(async () => {
  await harness?.close();
});

/** `writer` sends `texts` to `channel`; returns their ids. */
async function send(channel: { sendMessage(m: { text: string }): Promise<{ message: { id: string } }> }, ...texts: string[]) {
  const ids: string[] = [];
  for (const text of texts) ids.push((await channel.sendMessage({ text })).message.id);
  return ids;
}

describe('mark unread', () => {
  it('marks unread from a message: notification.mark_unread with the fields the SDK reads, and its unread count', async () => {
    const { b, ac, bc } = await watchingPair(harness, 'unread-msg');
    const ids = await send(ac, 'one', 'two', 'three', 'four');
    await bc.markRead();
    expect(bc.state.unreadCount).toBe(0);
    const notified = nextEvent(b, 'notification.mark_unread');
    await bc.markUnread({ message_id: ids[1] });
    const event = await notified;
    expect(event).toMatchObject({
      cid: 'messaging:unread-msg',
      user: expect.objectContaining({ id: 'bob' }),
      unread_messages: 3,
      first_unread_message_id: ids[1],
      last_read_message_id: ids[0],
      unread_channels: 1,
      unread_count: 3,
    });
    expect(Date.parse(event.last_read_at ?? '')).not.toBeNaN();
    expect(bc.state.unreadCount).toBe(3);
    expect(bc.state.read.bob?.first_unread_message_id).toBe(ids[1]);
    const read = (await bc.query({})).read?.find((r) => r.user.id === 'bob');
    expect(read).toMatchObject({ unread_messages: 3, last_read_message_id: ids[0] });
  });

  it('marks unread from a timestamp, counting only other users\' messages', async () => {
    const { b, ac, bc } = await watchingPair(harness, 'unread-time', 'carol', 'dan');
    await send(ac, 'old');
    const since = new Date(Date.now() + 5).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await send(ac, 'new one', 'new two');
    await send(bc, 'my own');
    const notified = nextEvent(b, 'notification.mark_unread');
    await bc.markUnread({ message_timestamp: since });
    expect((await notified).unread_messages).toBe(2);
  });

  it('marks a thread unread with thread_id: the thread\'s unread count, not the channel\'s', async () => {
    const { b, ac, bc } = await watchingPair(harness, 'unread-thread', 'eve', 'fay');
    const [parentId] = await send(ac, 'topic');
    const replies: string[] = [];
    for (const text of ['r1', 'r2', 'r3']) replies.push((await ac.sendMessage({ text, parent_id: parentId })).message.id);
    await bc.sendMessage({ text: 'me too', parent_id: parentId });
    const notified = nextEvent(b, 'notification.mark_unread');
    await bc.markUnread({ message_id: replies[1], thread_id: parentId });
    const event = await notified;
    expect(event).toMatchObject({ thread_id: parentId, unread_messages: 2, first_unread_message_id: replies[1], unread_threads: 1 });
    const { threads } = await b.queryThreads({});
    expect(threads.find((t) => t.id === parentId)?.ownUnreadCount).toBe(2);
  });

  it('refuses a message that is not in the channel with code 4', async () => {
    const { a, bc } = await watchingPair(harness, 'unread-foreign');
    const other = a.channel('messaging', 'unread-elsewhere', { members: ['alice'] });
    await other.watch();
    const [foreignId] = await send(other, 'elsewhere');
    await expect(bc.markUnread({ message_id: foreignId })).rejects.toMatchObject({ code: 4 });
    await expect(bc.markUnread({ message_id: 'no-such-message' })).rejects.toMatchObject({ code: 4 });
  });
});

describe('mark read up to a message', () => {
  it('reads up to the message the client last saw (message_id): what came after it from others stays unread', async () => {
    const { ac, bc } = await watchingPair(harness, 'read-up-to');
    const [seen] = await send(bc, 'seen', 'missed one', 'missed two');
    const read = nextEvent(bc, 'message.read', (e) => e.user?.id === 'alice');
    await ac.markRead({ message_id: seen } as never);
    expect((await read).last_read_message_id).toBe(seen);
    const own = () => harness.admin.channel('messaging', 'read-up-to').query({}).then((state) => state.read?.find((r) => r.user.id === 'alice'));
    expect(await own()).toMatchObject({ unread_messages: 2, last_read_message_id: seen });
    // Without it, everything is read, as before.
    await ac.markRead();
    expect(await own()).toMatchObject({ unread_messages: 0 });
    await expect(ac.markRead({ message_id: 'no-such-message' } as never)).rejects.toMatchObject({ code: 4 });
  });
});

describe('mark all read', () => {
  it('marks every channel read: message.read to each channel\'s watchers, notification.mark_read with zero totals', async () => {
    const first = await watchingPair(harness, 'all-read-1', 'gus', 'alice');
    const second = await watchingPair(harness, 'all-read-2', 'gus', 'alice');
    const firstArrived = nextEvent(first.ac, 'message.new', (e) => e.message?.text === 'a2');
    const secondArrived = nextEvent(second.ac, 'message.new', (e) => e.message?.text === 'b1');
    await send(first.bc, 'a1', 'a2');
    await send(second.bc, 'b1');
    await Promise.all([firstArrived, secondArrived]);
    expect([first.ac.state.unreadCount, second.ac.state.unreadCount]).toEqual([2, 1]);
    const gus = first.a;
    const aliceSees = nextEvent(second.bc, 'message.read', (e) => e.user?.id === 'gus');
    const notified = nextEvent(gus, 'notification.mark_read');
    await gus.markChannelsRead();
    expect(await notified).toMatchObject({ unread_channels: 0, total_unread_count: 0, unread_count: 0 });
    await aliceSees;
    expect(first.ac.state.unreadCount).toBe(0);
    expect(second.ac.state.unreadCount).toBe(0);
    const again = harness.client();
    const connected = await again.connectUser({ id: 'gus' }, harness.token('gus'));
    expect(connected?.me).toMatchObject({ unread_count: 0, unread_channels: 0 });
    await again.disconnectUser();
  });
});

describe('read state of a non-member', () => {
  it('refuses marking read or unread a channel one is not a member of with 403 code 17', async () => {
    const { ac } = await watchingPair(harness, 'members-only-read');
    const [messageId] = await send(ac, 'hello members');
    const asCarol = { token: harness.token('carol'), userId: 'carol' };
    const read = await harness.request('/channels/messaging/members-only-read/read', { ...asCarol, body: {} });
    expect(read.status).toBe(403);
    expect(read.body).toMatchObject({ code: 17, StatusCode: 403 });
    expect(read.body.message).toMatch(/not allowed/);
    const unread = await harness.request('/channels/messaging/members-only-read/unread', { ...asCarol, body: { message_id: messageId } });
    expect(unread.body.code).toBe(17);
    // A server-side call on behalf of a non-member gets the same answer.
    const server = harness.admin.channel('messaging', 'members-only-read');
    await server.query({ watch: false, state: false } as never);
    await expect(server.markRead({ user_id: 'carol' })).rejects.toMatchObject({ code: 17 });
  });
});

describe('message.read sent as an event', () => {
  it('marks the channel read for the sender and reaches the other watchers, whose SDK updates its read state', async () => {
    const { ac, bc } = await watchingPair(harness, 'read-by-event', 'fay', 'gus');
    const ids = await send(ac, 'one', 'two');
    expect(bc.state.unreadCount).toBe(2);
    const seen = nextEvent(ac, 'message.read');
    const answer = await bc.sendEvent({ type: 'message.read' });
    expect(answer.event).toMatchObject({ type: 'message.read', user: { id: 'gus' }, last_read_message_id: ids[1] });
    const event = await seen;
    expect(event.user?.id).toBe('gus');
    expect(ac.state.read.gus?.unread_messages).toBe(0);
    expect(ac.state.read.gus?.last_read_message_id).toBe(ids[1]);
    // Stored, as markRead would: a fresh query shows gus's read state.
    const [fresh] = await harness.admin.queryChannels({ cid: 'messaging:read-by-event' }, {}, { user_id: 'gus' } as never);
    expect(fresh?.state.read.gus?.unread_messages).toBe(0);
  });
});

describe('a muted channel', () => {
  it('does not count new messages as unread for the member who muted it; what was unread before stays', async () => {
    await createUsers(harness, 'hana', 'ivan');
    const { b, ac, bc } = await watchingPair(harness, 'muted-unread', 'hana', 'ivan');
    await send(ac, 'before the mute');
    expect(bc.state.unreadCount).toBe(1);
    await bc.mute();
    const heard = nextEvent(bc, 'message.new');
    await send(ac, 'while muted', 'still muted');
    const event = await heard;
    expect(event).toMatchObject({ total_unread_count: 1, unread_channels: 1 });
    const { channels } = await harness.admin.queryChannels({ cid: 'messaging:muted-unread' }, {}, { user_id: 'ivan' } as never).then((c) => ({ channels: c }));
    expect(channels[0]?.state.read.ivan?.unread_messages).toBe(1);
    const unread = await b.getUnreadCount();
    expect(unread.total_unread_count).toBe(1);

    // Unmuted, new messages count again.
    await bc.unmute();
    await send(ac, 'after the mute');
    expect((await b.getUnreadCount()).total_unread_count).toBe(2);
  });
});
