// Channel events and who receives them. Everything a channel's watchers see goes to every
// watching connection, the sender's included (the SDK reconciles its own optimistic state from
// them); members who are connected but not watching get the notification.* variant instead.
import type { ChannelMemberResponse, Event, MessageResponse } from 'stream-chat';
import { userActor } from '../auth/actor';
import { accessTo } from '../auth/channel-access';
import { presentChannel } from '../present/channel';
import type { ServerContext } from '../http/context';
import { Presenter } from '../present/presenter';
import type { ChannelRow } from '../store/channels';
import { messageAudience } from './message-audience';

export function envelope(row: ChannelRow) {
  return { cid: row.cid, channel_type: row.type, channel_id: row.id };
}

/** Unread totals as each receiver should see them, computed at most once per user. */
function unreadCounter(ctx: ServerContext) {
  const cache = new Map<string, Pick<Event, 'total_unread_count' | 'unread_count' | 'unread_channels'>>();
  return (userId: string) => {
    let counts = cache.get(userId);
    if (!counts) {
      const { total, channels } = ctx.store.reads.summary(userId);
      counts = { total_unread_count: total, unread_count: total, unread_channels: channels };
      cache.set(userId, counts);
    }
    return counts;
  };
}

/**
 * message.new to the channel's watchers and notification.message_new to members elsewhere.
 * `emit: false` delivers without recording a change (a held message released later was
 * recorded when it was sent); `skipPush` goes with the change to its subscribers (push).
 */
export function notifyMessageNew(
  ctx: ServerContext,
  row: ChannelRow,
  message: MessageResponse,
  { emit = true, skipPush = false } = {},
): void {
  const { hub, store } = ctx;
  const unread = unreadCounter(ctx);
  const base = {
    ...envelope(row),
    message,
    message_id: message.id,
    user: message.user ?? undefined,
    created_at: message.created_at,
    channel_last_message_at: row.last_message_at ?? undefined,
    channel_member_count: row.member_count,
    watcher_count: hub.registry.watcherUserIds(row.cid).length,
  };
  const audience = messageAudience(ctx, message);
  if (emit) ctx.changes.emit({ type: 'message.new', ...base }, { skipPush });
  hub.toChannel(row.cid, (connection) => ({ type: 'message.new', ...base, ...unread(connection.userId) }), audience);

  // Thread-only replies stay inside the thread: no channel-list notification.
  if (message.parent_id && !message.show_in_channel) return;
  const presenter = new Presenter(ctx);
  for (const memberId of connectedMembers(ctx, row)) {
    const away = hub.registry
      .ofUser(memberId)
      .filter((connection) => !connection.watching.has(row.cid) && (!audience || audience(connection)));
    const user = away.length ? store.users.get(memberId) : undefined;
    if (!user) continue;
    const channel = presentChannel(presenter, row, accessTo(ctx, row, userActor(user)));
    hub.publish(away, { type: 'notification.message_new', ...base, channel, ...unread(memberId) });
  }
}

/** Members with at least one socket, found from whichever side is smaller. */
function connectedMembers(ctx: ServerContext, row: ChannelRow): string[] {
  const online = ctx.hub.registry.onlineUserIds();
  if (online.length < row.member_count) {
    return online.filter((userId) => ctx.store.channels.member(row.cid, userId) !== undefined);
  }
  return ctx.store.channels.memberIds(row.cid).filter((userId) => ctx.hub.registry.isOnline(userId));
}

/** Marks the channel read: message.read to watchers, notification.mark_read to the reader. */
export function notifyRead(
  ctx: ServerContext,
  row: ChannelRow,
  userId: string,
  at: string,
  lastReadMessageId: string | undefined,
): Event {
  const user = new Presenter(ctx).user(userId);
  const read: Event = {
    type: 'message.read',
    ...envelope(row),
    user,
    created_at: at,
    ...(lastReadMessageId ? { last_read_message_id: lastReadMessageId } : {}),
  };
  ctx.changes.emit(read);
  ctx.hub.toChannel(row.cid, read);
  ctx.hub.toUser(userId, {
    ...read,
    type: 'notification.mark_read',
    ...unreadCounter(ctx)(userId),
    // ThreadManager takes its unread thread count from every notification.mark_read.
    unread_threads: ctx.store.threads.unreadCount(userId),
  });
  return read;
}

/** typing.start/stop and custom events: fields from the client, envelope from the server. */
export function notifyChannelEvent(
  ctx: ServerContext,
  row: ChannelRow,
  userId: string,
  fields: Record<string, unknown>,
): Event {
  const event = {
    ...fields,
    ...envelope(row),
    user: new Presenter(ctx).user(userId),
    created_at: new Date().toISOString(),
  } as Event;
  ctx.hub.toChannel(row.cid, event);
  return event;
}

/** New members who are online learn about the channel without reloading their list. */
export function notifyAddedToChannel(
  ctx: ServerContext,
  row: ChannelRow,
  memberIds: string[],
  members: Map<string, ChannelMemberResponse>,
): void {
  const presenter = new Presenter(ctx);
  for (const memberId of memberIds) {
    const connections = ctx.hub.registry.ofUser(memberId);
    const user = connections.length ? ctx.store.users.get(memberId) : undefined;
    if (!user) continue;
    ctx.hub.publish(connections, {
      type: 'notification.added_to_channel',
      ...envelope(row),
      channel: presentChannel(presenter, row, accessTo(ctx, row, userActor(user))),
      member: members.get(memberId),
      created_at: new Date().toISOString(),
    });
  }
}
