// Thread bookkeeping and its events. A stored reply updates the thread's participants and their
// unread counts, then each participant's connections get notification.thread_message_new with
// their own unread_threads (ThreadManager marks the thread unseen or its order stale from it).
// Reading a thread is message.read with `thread` for the channel's watchers (the channel itself
// ignores it, Thread applies it) and notification.mark_read with thread_id for the reader.
import type { Event } from 'stream-chat';
import { userActor } from '../auth/actor';
import type { ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { Presenter } from '../present/presenter';
import type { ChannelRow } from '../store/channels';
import type { MessageRow } from '../store/messages';
import { presentThread } from '../present/thread';
import { envelope } from './notify';
import { storedAudience } from './message-audience';

export function recordThreadReply(ctx: ServerContext, channel: ChannelRow, reply: MessageRow): void {
  const { store, hub } = ctx;
  const parent = reply.parent_id ? store.messages.get(reply.parent_id) : undefined;
  if (!parent) return;
  store.transaction(() =>
    store.threads.recordReply({
      parentId: parent.id,
      parentAuthorId: parent.user_id,
      parentCreatedAt: parent.created_at,
      cid: channel.cid,
      userId: reply.user_id,
      messageId: reply.id,
      now: reply.created_at,
    }),
  );
  const [message] = new Presenter(ctx).messages([reply]);
  if (!message) return;
  // Those who blocked the author hear nothing of the reply.
  const blockers = store.blocks.blockersOf(reply.user_id);
  for (const participant of store.threads.participants(parent.id)) {
    if (!hub.registry.isOnline(participant.user_id) || blockers.has(participant.user_id)) continue;
    hub.toUser(participant.user_id, {
      type: 'notification.thread_message_new',
      ...envelope(channel),
      message,
      message_id: reply.id,
      parent_id: parent.id,
      thread_id: parent.id,
      user: message.user ?? undefined,
      unread_threads: store.threads.unreadCount(participant.user_id),
      created_at: reply.created_at,
    });
  }
}

/** Thread for `threadId` in `channel`, or an input error naming what is wrong. */
export function threadParent(ctx: ServerContext, channel: ChannelRow, threadId: string): MessageRow {
  const parent = ctx.store.messages.get(threadId);
  if (!parent || parent.cid !== channel.cid) {
    throw ApiError.input(`thread ${threadId} does not exist in channel ${channel.cid}`);
  }
  if (parent.parent_id) throw ApiError.input(`message ${threadId} is a reply, not a thread`);
  return parent;
}

/** Marks the thread read for a participant and announces it; returns the message.read event. */
export function markThreadRead(ctx: ServerContext, channel: ChannelRow, userId: string, threadId: string): Event {
  const { store, hub } = ctx;
  const parent = threadParent(ctx, channel, threadId);
  const at = new Date().toISOString();
  const latest = store.messageQueries.latestSharedReply(parent.id);
  store.threads.setRead(parent.id, userId, at, latest?.id ?? null);
  const user = store.users.get(userId);
  const presenter = new Presenter(ctx);
  const thread = user
    ? presentThread(ctx, presenter, userActor(user), channel, parent, store.threads.get(parent.id), { replyLimit: 0, participantLimit: 100 })
    : undefined;
  const read: Event = {
    type: 'message.read',
    ...envelope(channel),
    user: presenter.user(userId),
    created_at: at,
    ...(latest ? { last_read_message_id: latest.id } : {}),
    ...(thread ? { thread } : {}),
  };
  // Who may not see the parent does not hear of its thread.
  hub.toChannel(channel.cid, read, storedAudience(ctx, parent));
  const unread = store.reads.summary(userId);
  hub.toUser(userId, {
    ...read,
    type: 'notification.mark_read',
    thread_id: parent.id,
    total_unread_count: unread.total,
    unread_count: unread.total,
    unread_channels: unread.channels,
    unread_threads: store.threads.unreadCount(userId),
  });
  return read;
}

/** thread.updated to the channel's watchers after a thread's title or custom data changed. */
export function notifyThreadUpdated(ctx: ServerContext, channel: ChannelRow, thread: Event['thread']): void {
  if (!thread) return;
  const parent = ctx.store.messages.get(thread.parent_message_id);
  // The thread as its editor sees it, less the replies not everyone may see; and only to those
  // who may see its parent.
  const shared = { ...thread, latest_replies: (thread.latest_replies ?? []).filter((reply) => !reply.shadowed && !reply.restricted_visibility?.length) };
  ctx.hub.toChannel(
    channel.cid,
    { type: 'thread.updated', ...envelope(channel), thread: shared, created_at: new Date().toISOString() },
    parent ? storedAudience(ctx, parent) : undefined,
  );
}
