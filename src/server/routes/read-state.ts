// Read state beyond markRead: mark unread from a message or a time (`POST /channels/{t}/{id}/unread`,
// optionally inside a thread) and mark every channel read (`POST /channels/read`). Only members
// have read state: anyone else gets 403 code 17, like markRead (the provider's ReadChannel
// permission error), so a client cannot create read state in a channel it does not belong to.
import { Hono } from 'hono';
import type { APIResponse, Event } from 'stream-chat';
import { actorFor, requireUser, type UserActor } from '../auth/actor';
import { accessTo, assertCanRead, assertCapability } from '../auth/channel-access';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, requireAuth, sendJson } from './request';
import { namedUserId, optionalString, type JsonObject } from '../http/input';
import { Presenter } from '../present/presenter';
import { envelope } from '../events/notify';
import { threadParent } from '../events/thread-events';
import type { ChannelRow } from '../store/channels';
import type { MessageRow } from '../store/messages';
import { existingChannel } from './channels';

type Unread = { firstUnread?: MessageRow; lastReadAt: string; lastReadMessageId: string | null; count: number };

export function readStateRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);

  routes.post('/channels/:type/:id/unread', auth, async (c) => {
    const body = await readJson(c);
    const actor = requireUser(actorFor(ctx.store, c.get('subject'), namedUserId(body)), 'mark channels unread');
    const channel = memberChannel(ctx, c.req.param('type'), c.req.param('id'), actor);
    const threadId = optionalString(body.thread_id, 'thread_id');
    const unread = threadId ? markThreadUnread(ctx, channel, actor, threadId, body) : markChannelUnread(ctx, channel, actor, body);
    const summary = ctx.store.reads.summary(actor.id);
    const event: Event = {
      type: 'notification.mark_unread',
      ...envelope(channel),
      user: new Presenter(ctx).user(actor.id),
      created_at: new Date().toISOString(),
      ...(unread.firstUnread ? { first_unread_message_id: unread.firstUnread.id } : {}),
      last_read_at: unread.lastReadAt,
      ...(unread.lastReadMessageId ? { last_read_message_id: unread.lastReadMessageId } : {}),
      unread_messages: unread.count,
      ...(threadId ? { thread_id: threadId } : {}),
      total_unread_count: summary.total,
      unread_count: summary.total,
      unread_channels: summary.channels,
      unread_threads: ctx.store.threads.unreadCount(actor.id),
    };
    ctx.hub.toUser(actor.id, event);
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  routes.post('/channels/read', auth, async (c) => {
    const body = await readJson(c);
    const actor = requireUser(actorFor(ctx.store, c.get('subject'), namedUserId(body)), 'mark channels read');
    const { store, hub } = ctx;
    const at = new Date().toISOString();
    const cids = store.reads.unreadChannels(actor.id);
    const read = store.transaction(() => {
      store.threads.readAll(actor.id, at);
      return cids.flatMap((cid) => {
        const channel = store.channels.get(cid);
        if (!channel) return [];
        const latest = store.messages.latestInChannel(cid);
        store.reads.markRead(cid, actor.id, at, latest?.id ?? null);
        return [{ channel, latestId: latest?.id }];
      });
    });
    const user = new Presenter(ctx).user(actor.id);
    for (const { channel, latestId } of read) {
      hub.toChannel(channel.cid, {
        type: 'message.read',
        ...envelope(channel),
        user,
        created_at: at,
        ...(latestId ? { last_read_message_id: latestId } : {}),
      });
    }
    // unread_channels 0 makes the SDK zero every loaded channel's unread count.
    hub.toUser(actor.id, {
      type: 'notification.mark_read',
      user,
      created_at: at,
      total_unread_count: 0,
      unread_count: 0,
      unread_channels: 0,
      unread_threads: 0,
    });
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  return routes;
}

/** The channel, if the actor is a member with read events there (403 code 17 otherwise). */
export function memberChannel(ctx: ServerContext, type: string, id: string, actor: UserActor): ChannelRow {
  const channel = existingChannel(ctx, type, id);
  const access = accessTo(ctx, channel, actor);
  assertCanRead(channel, actor, access);
  assertCapability(channel, actor, access, 'read-events');
  if (!access.member) throw ApiError.notAllowed(`only members have read state in ${channel.cid}; ${actor.id} is not a member`);
  return channel;
}

/** The first message to count as unread: `message_id`, or the first at/after `message_timestamp`. */
function anchor(body: JsonObject, find: (id: string) => MessageRow | undefined, since: (at: string) => MessageRow | undefined) {
  const messageId = optionalString(body.message_id, 'message_id');
  if (messageId) {
    const message = find(messageId);
    if (!message) throw ApiError.input(`message ${messageId} does not exist here`);
    return { message, at: message.created_at };
  }
  const timestamp = body.message_timestamp;
  const time = typeof timestamp === 'string' || typeof timestamp === 'number' ? new Date(timestamp) : new Date(NaN);
  if (Number.isNaN(time.getTime())) throw ApiError.input('message_id or message_timestamp is required');
  const at = time.toISOString();
  return { message: since(at), at };
}

function markChannelUnread(ctx: ServerContext, channel: ChannelRow, actor: UserActor, body: JsonObject): Unread {
  const { store } = ctx;
  const inChannel = (row: MessageRow | undefined) =>
    row && row.cid === channel.cid && (!row.parent_id || row.show_in_channel === 1) ? row : undefined;
  const { message, at } = anchor(
    body,
    (id) => inChannel(store.messages.get(id)),
    (time) => store.messageQueries.firstSince(channel.cid, time, actor.id),
  );
  const previous = message ? store.messageQueries.previousInChannel(channel.cid, message, actor.id) : undefined;
  const count = message ? store.messageQueries.countFrom(channel.cid, actor.id, message) : 0;
  const lastReadAt = previous?.created_at ?? new Date(Date.parse(at) - 1).toISOString();
  store.reads.markUnread(channel.cid, actor.id, lastReadAt, previous?.id ?? null, count);
  return { ...(message ? { firstUnread: message } : {}), lastReadAt, lastReadMessageId: previous?.id ?? null, count };
}

function markThreadUnread(ctx: ServerContext, channel: ChannelRow, actor: UserActor, threadId: string, body: JsonObject): Unread {
  const { store } = ctx;
  const parent = threadParent(ctx, channel, threadId);
  if (!store.threads.participant(parent.id, actor.id)) {
    throw ApiError.input(`${actor.id} does not participate in thread ${parent.id}`);
  }
  const replies = store.messageQueries.latestReplies(parent.id, parent.reply_count);
  const { message, at } = anchor(
    body,
    (id) => replies.find((reply) => reply.id === id),
    (time) => replies.find((reply) => reply.created_at >= time),
  );
  const index = message ? replies.indexOf(message) : replies.length;
  const previous = index > 0 ? replies[index - 1] : undefined;
  const count = message ? store.messageQueries.repliesFrom(parent.id, actor.id, message) : 0;
  const lastReadAt = previous?.created_at ?? new Date(Date.parse(at) - 1).toISOString();
  store.threads.setRead(parent.id, actor.id, lastReadAt, previous?.id ?? null, count);
  return { ...(message ? { firstUnread: message } : {}), lastReadAt, lastReadMessageId: previous?.id ?? null, count };
}
