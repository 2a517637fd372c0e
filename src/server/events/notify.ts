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
import { Grouped, withFields } from '../realtime/hub';
import { messageAudience } from './message-audience';
import type { Connection } from '../realtime/registry';

export function envelope(row: ChannelRow) {
  return { cid: row.cid, channel_type: row.type, channel_id: row.id };
}

type UnreadFields = Pick<Event, 'total_unread_count' | 'unread_count' | 'unread_channels'>;

/**
 * Unread totals as each receiver should see them, computed at most once per user. One indexed
 * query each: measured, that is about half the cost of one query for a thousand users at once.
 */
function unreadCounter(ctx: ServerContext) {
  const cache = new Map<string, UnreadFields>();
  return (userId: string) => {
    let counts = cache.get(userId);
    if (!counts) {
      const { total, channels } = ctx.store.reads.summary(userId);
      cache.set(userId, (counts = { total_unread_count: total, unread_count: total, unread_channels: channels }));
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
    watcher_count: hub.registry.watcherCount(row.cid),
  };
  const audience = messageAudience(ctx, message);
  // One frame per distinct set of unread counts: the message is serialised once. A receiver's
  // group is their two totals as one number (`summaryKeys`; the totals are kept in memory that
  // way: store/reads.ts), so finding it makes neither a string nor an object per receiver.
  const event = { type: 'message.new' as const, ...base };
  const shared = JSON.stringify(event);
  const summaryKey = store.reads.summaryKeys();
  hub.toChannel(
    row.cid,
    new Grouped(
      (connection) => summaryKey(connection.userId),
      (_, connection) => withFields(shared, unread(connection.userId)),
    ),
    audience,
  );
  // The change feed (sync log, webhooks, push) hears it once the watchers' frames are written:
  // nothing it does changes them, and they go out sooner.
  if (emit) ctx.changes.emit(event, { skipPush, json: shared });

  // Thread-only replies stay inside the thread: no channel-list notification.
  if (message.parent_id && !message.show_in_channel) return;
  const presenter = new Presenter(ctx);
  for (const [memberId, away] of membersAway(ctx, row)) {
    const reached = audience ? away.filter(audience) : away;
    const user = reached.length ? store.users.get(memberId) : undefined;
    if (!user) continue;
    const channel = presentChannel(presenter, row, accessTo(ctx, row, userActor(user)));
    hub.publish(reached, { type: 'notification.message_new', ...base, channel, ...unread(memberId) });
  }
}

/**
 * Members connected elsewhere: each member's connections that do not watch the channel, found
 * from the online users, or from the members when those are far fewer. Membership is asked of the
 * store only for users who have such a connection, so a room whose members all watch it costs
 * no query.
 */
function membersAway(ctx: ServerContext, row: ChannelRow): Map<string, Connection[]> {
  const { registry } = ctx.hub;
  // Every connection watches the channel (the channel's watchers are a subset of all the
  // connections, and as many): nobody is away, and the online users need no walk.
  if (registry.watchingConnections(row.cid) === registry.connectionCount) return new Map();
  const online = registry.onlineUserIds();
  // Walking the online users is in memory, a member list is a query: prefer the first until it is several times longer.
  const fromOnline = online.length < row.member_count * 4;
  const found = new Map<string, Connection[]>();
  for (const userId of fromOnline ? online : ctx.store.channels.memberIds(row.cid)) {
    if (!registry.hasConnectionAway(userId, row.cid)) continue;
    if (fromOnline && ctx.store.channels.member(row.cid, userId) === undefined) continue;
    found.set(userId, registry.ofUser(userId).filter((connection) => !connection.watching.has(row.cid)));
  }
  return found;
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
