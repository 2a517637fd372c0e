// Threads through the SDK: replies on the parent, the user's thread list with its read state,
// thread notifications, reading a thread, paging replies, and thread updates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsers, nextEvent, startHarness, type Harness } from '../../helpers';
import { watchingPair } from '../../scenes';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob', 'erin', 'frank', 'gina', 'hank', 'ivan', 'judy');
});

afterAll(async () => {
  await harness?.close();
});

describe('thread replies', () => {
  it('bumps reply_count and lists thread_participants on the parent, by message.updated to the other watcher', async () => {
    const { ac, bc } = await watchingPair(harness, 'thread-parent');
    const { message: parent } = await ac.sendMessage({ text: 'thread starter' });
    const updated = nextEvent(ac, 'message.updated', (e) => e.message?.id === parent.id);
    await bc.sendMessage({ text: 'first reply', parent_id: parent.id });
    const { message } = await updated;
    expect(message).toMatchObject({ reply_count: 1 });
    expect(message?.thread_participants?.map((u) => u.id)).toEqual(['alice', 'bob']);
    const fromQuery = (await ac.query({})).messages.find((m) => m.id === parent.id);
    expect(fromQuery?.thread_participants?.map((u) => u.id)).toEqual(['alice', 'bob']);
  });

  it('shows a reply sent with show_in_channel in the channel history, and a thread-only one not', async () => {
    const { ac, bc } = await watchingPair(harness, 'thread-show');
    const { message: parent } = await ac.sendMessage({ text: 'parent' });
    await bc.sendMessage({ text: 'thread only', parent_id: parent.id });
    await bc.sendMessage({ text: 'also in channel', parent_id: parent.id, show_in_channel: true });
    const { messages } = await ac.query({ messages: { limit: 10 } });
    expect(messages.map((m) => m.text)).toEqual(['parent', 'also in channel']);
  });

  it('pages replies as the provider does: the newest by default, whatever the offset; the oldest when sorted ascending', async () => {
    const { ac, bc } = await watchingPair(harness, 'thread-offset');
    const { message: parent } = await ac.sendMessage({ text: 'ten replies' });
    for (let i = 1; i <= 10; i++) await bc.sendMessage({ text: `reply ${i}`, parent_id: parent.id });
    const texts = (page: { messages: Array<{ text?: string }> }) => page.messages.map((m) => m.text);
    expect(texts(await ac.getReplies(parent.id, { limit: 3, offset: 3 }))).toEqual(['reply 8', 'reply 9', 'reply 10']);
    expect(texts(await ac.getReplies(parent.id, { limit: 3 }))).toEqual(['reply 8', 'reply 9', 'reply 10']);
    expect(texts(await ac.getReplies(parent.id, { limit: 3 }, [{ created_at: 1 }]))).toEqual(['reply 1', 'reply 2', 'reply 3']);
  });

  it('pages replies like Thread does: newest first by default, then id_lt for older ones, and id_around', async () => {
    const { ac, bc } = await watchingPair(harness, 'thread-pages');
    const { message: parent } = await ac.sendMessage({ text: 'long thread' });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await bc.sendMessage({ text: `r${i}`, parent_id: parent.id })).message.id);
    const newest = await ac.getReplies(parent.id, { limit: 5 }, [{ created_at: -1 }]);
    expect(newest.messages.map((m) => m.text)).toEqual(['r7', 'r8', 'r9', 'r10', 'r11']);
    const older = await ac.getReplies(parent.id, { limit: 5, id_lt: ids[7] }, [{ created_at: -1 }]);
    expect(older.messages.map((m) => m.text)).toEqual(['r2', 'r3', 'r4', 'r5', 'r6']);
    const oldest = await ac.getReplies(parent.id, { limit: 5 }, [{ created_at: 1 }]);
    expect(oldest.messages.map((m) => m.text)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4']);
    const around = await ac.getReplies(parent.id, { limit: 5, id_around: ids[6] });
    expect(around.messages.map((m) => m.text)).toEqual(['r4', 'r5', 'r6', 'r7', 'r8']);
    await expect(ac.getReplies(parent.id, { limit: 5, id_lt: 'not-a-reply' })).rejects.toMatchObject({ code: 4 });
  });
});

describe('the user\'s threads', () => {
  it('lists threads with latest replies, participants and per-user unread counts, paged with next', async () => {
    const { a, ac, bc } = await watchingPair(harness, 'thread-list', 'erin', 'frank');
    for (const name of ['one', 'two', 'three']) {
      const { message } = await ac.sendMessage({ text: name });
      await bc.sendMessage({ text: `${name} reply`, parent_id: message.id });
    }
    const first = await a.queryThreads({ limit: 2, reply_limit: 10, participant_limit: 10 });
    expect(first.threads.map((t) => t.state.getLatestValue().parentMessage.text)).toEqual(['three', 'two']);
    expect(first.next).toEqual(expect.any(String));
    const second = await a.queryThreads({ limit: 2, next: first.next });
    expect(second.threads.map((t) => t.state.getLatestValue().parentMessage.text)).toEqual(['one']);
    expect(second.next).toBeUndefined();

    const state = first.threads[0]!.state.getLatestValue();
    expect(state.replies.map((m) => m.text)).toEqual(['three reply']);
    expect(state.participants?.map((p) => p.user_id)).toEqual(['erin', 'frank']);
    expect(state.read.erin?.unreadMessageCount).toBe(1);
    expect(state.read.frank?.unreadMessageCount).toBe(0);
    expect(first.threads[0]!.ownUnreadCount).toBe(1);
  });

  it('notifies participants with notification.thread_message_new and counts unread threads in me.unread_threads', async () => {
    const { a, ac, bc } = await watchingPair(harness, 'thread-notify', 'gina', 'hank');
    const { message: parent } = await ac.sendMessage({ text: 'ask' });
    const notified = nextEvent(a, 'notification.thread_message_new');
    await bc.sendMessage({ text: 'answer', parent_id: parent.id });
    const event = await notified;
    expect(event).toMatchObject({ cid: 'messaging:thread-notify', unread_threads: 1 });
    expect(event.message?.parent_id).toBe(parent.id);
    const again = harness.client();
    const connected = await again.connectUser({ id: 'gina' }, harness.token('gina'));
    expect(connected?.me?.unread_threads).toBe(1);
    await again.disconnectUser();
    // Reading the channel is not reading its threads: ThreadManager keeps its count.
    const channelRead = nextEvent(a, 'notification.mark_read');
    await ac.markRead();
    expect((await channelRead).unread_threads).toBe(1);
  });

  it('marks a thread read: message.read with thread to watchers, notification.mark_read with thread_id, channel read state untouched', async () => {
    const { a, b, ac, bc } = await watchingPair(harness, 'thread-read', 'ivan', 'judy');
    const { message: parent } = await ac.sendMessage({ text: 'topic' });
    await bc.sendMessage({ text: 'channel message' });
    await bc.sendMessage({ text: 'reply', parent_id: parent.id });
    const { threads } = await a.queryThreads({});
    const thread = threads.find((t) => t.id === parent.id)!;
    expect(thread.ownUnreadCount).toBe(1);
    thread.registerSubscriptions();
    const bobSees = nextEvent(b, 'message.read', (e) => e.thread?.parent_message_id === parent.id);
    const notified = nextEvent(a, 'notification.mark_read', (e) => e.thread_id === parent.id);
    await thread.markAsRead();
    expect((await bobSees).user?.id).toBe('ivan');
    expect((await notified).unread_threads).toBe(0);
    expect(thread.ownUnreadCount).toBe(0);
    // The channel message stays unread: reading a thread is not reading its channel.
    const read = (await ac.query({})).read?.find((r) => r.user.id === 'ivan');
    expect(read?.unread_messages).toBe(1);
    thread.unregisterSubscriptions();
  });

  it('gets one thread with reply_limit replies; a reply id is code 4 and an unknown id 16', async () => {
    const { a, ac, bc } = await watchingPair(harness, 'thread-get');
    const { message: parent } = await ac.sendMessage({ text: 'root' });
    const { message: reply } = await bc.sendMessage({ text: 'r1', parent_id: parent.id });
    await bc.sendMessage({ text: 'r2', parent_id: parent.id });
    const thread = await a.getThread(parent.id, { reply_limit: 1 });
    const state = thread.state.getLatestValue();
    expect(state.replies.map((m) => m.text)).toEqual(['r2']);
    expect(state.replyCount).toBe(2);
    expect(state.channel.cid).toBe('messaging:thread-get');
    await expect(a.getThread(reply.id)).rejects.toMatchObject({ code: 4 });
    await expect(a.getThread('no-such-thread')).rejects.toMatchObject({ code: 16 });
  });

  it('updates title and custom data with thread.updated, and refuses reserved fields with code 4', async () => {
    const { a, ac, bc } = await watchingPair(harness, 'thread-update');
    const { message: parent } = await ac.sendMessage({ text: 'root' });
    await bc.sendMessage({ text: 'r', parent_id: parent.id });
    const updated = nextEvent(bc.getClient(), 'thread.updated');
    const { thread } = await a.partialUpdateThread(parent.id, { set: { title: 'Release plan', priority: 'high' } });
    expect(thread).toMatchObject({ title: 'Release plan', priority: 'high', parent_message_id: parent.id });
    expect((await updated).thread).toMatchObject({ title: 'Release plan', priority: 'high' });
    const raw = await harness.request(`/threads/${parent.id}`, {
      method: 'PATCH',
      token: harness.token('alice'),
      userId: 'alice',
      body: { set: { reply_count: 99 } },
    });
    expect(raw.status).toBe(400);
    expect(raw.body.code).toBe(4);
    await expect(a.partialUpdateThread(parent.id, { set: { channel: {} } })).rejects.toThrow(/reserved/);
  });
});
