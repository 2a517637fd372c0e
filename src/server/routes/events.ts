// Client-sent channel events and read state: `POST /channels/{type}/{id}/event` (typing.start,
// typing.stop, message.read and custom events) and `POST /channels/{type}/{id}/read` (markRead, up to a message with `message_id`).
import { Hono } from 'hono';
import type { APIResponse, Event, EventAPIResponse } from 'stream-chat';
import { actorFor, requireUser, type UserActor } from '../auth/actor';
import { accessTo, assertCanRead, assertCapability, visibleMessages, type ChannelAccess } from '../auth/channel-access';
import { assertNotBanned } from '../features/moderation/bans';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, requireAuth, sendJson } from './request';
import { isObject, namedUserId, optionalString, requiredString, withoutKeys } from '../http/input';
import { notifyChannelEvent, notifyRead } from '../events/notify';
import { markThreadRead } from '../events/thread-events';
import type { ChannelRow } from '../store/channels';
import { existingChannel } from './channels';

/** Event namespaces only the server emits; a client may not forge them. */
const SERVER_NAMESPACES = /^(message|channel|member|notification|user|reaction|poll|health|connection|draft|reminder|thread|ai_indicator)\./;
/** Envelope fields the server sets on every event. */
const ENVELOPE = new Set(['type', 'cid', 'channel_id', 'channel_type', 'user', 'user_id', 'created_at']);

export function eventRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);

  routes.post('/channels/:type/:id/event', auth, async (c) => {
    const body = await readJson(c);
    if (!isObject(body.event)) throw ApiError.input('event is a required field');
    const type = requiredString(body.event.type, 'event.type');
    const actor = requireUser(actorFor(ctx.store, c.get('subject'), namedUserId(body.event)), 'send events');
    const row = existingChannel(ctx, c.req.param('type'), c.req.param('id'));
    const access = accessTo(ctx, row, actor);
    // The provider takes a client's message.read as marking the channel read (older SDKs sent it).
    if (type === 'message.read') return sendJson({ event: markRead(row, actor, access, undefined, undefined), duration: elapsed(c) } satisfies EventAPIResponse);
    const typing = type === 'typing.start' || type === 'typing.stop';
    if (!typing && SERVER_NAMESPACES.test(type)) throw ApiError.input(`event type ${type} cannot be sent by clients`);
    assertCapability(row, actor, access, typing ? 'send-typing-events' : 'send-custom-events');
    assertNotBanned(ctx, row, actor.id);
    const event = notifyChannelEvent(ctx, row, actor.id, { type, ...withoutKeys(body.event, ENVELOPE) });
    const response: EventAPIResponse = { event, duration: elapsed(c) };
    return sendJson(response);
  });

  routes.post('/channels/:type/:id/read', auth, async (c) => {
    const body = await readJson(c);
    const actor = requireUser(actorFor(ctx.store, c.get('subject'), namedUserId(body)), 'mark channels read');
    const row = existingChannel(ctx, c.req.param('type'), c.req.param('id'));
    const event = markRead(row, actor, accessTo(ctx, row, actor), optionalString(body.thread_id, 'thread_id'), optionalString(body.message_id, 'message_id'));
    const response: EventAPIResponse = { event, duration: elapsed(c) };
    return sendJson(response);
  });

  /**
   * Marks the channel (or one of its threads) read for a member, and tells who should hear. With
   * `message_id`, the provider's "last read by the client": read up to that message, and what came
   * after it from others stays unread (a client that was away has not seen it yet).
   */
  function markRead(row: ChannelRow, actor: UserActor, access: ChannelAccess, threadId: string | undefined, messageId: string | undefined): Event {
    assertCanRead(row, actor, access);
    assertCapability(row, actor, access, 'read-events');
    if (!access.member) throw ApiError.notAllowed(`only members have read state in ${row.cid}`);
    // A thread's read state is its own: the channel's stays as it is.
    if (threadId) return markThreadRead(ctx, row, actor.id, threadId);
    const at = new Date().toISOString();
    const lastRead = messageId ? readUpTo(row, actor, access, messageId) : undefined;
    if (lastRead && lastRead.unread > 0) {
      ctx.store.reads.markUnread(row.cid, actor.id, lastRead.message.created_at, lastRead.message.id, lastRead.unread);
      return notifyRead(ctx, row, actor.id, at, lastRead.message.id);
    }
    const latest = ctx.store.messages.latestInChannel(row.cid);
    ctx.store.reads.markRead(row.cid, actor.id, at, latest?.id ?? null);
    return notifyRead(ctx, row, actor.id, at, latest?.id);
  }

  /** The message a client read up to, and how many messages from others it has not seen after it. */
  function readUpTo(row: ChannelRow, actor: UserActor, access: ChannelAccess, messageId: string) {
    const message = ctx.store.messages.get(messageId);
    if (!message || message.cid !== row.cid || !visibleMessages(ctx, row, actor, access.member, [message]).length) {
      throw ApiError.input(`message ${messageId} does not exist in channel ${row.cid}`);
    }
    const after = { created_at: message.created_at, seq: message.seq + 1 };
    return { message, unread: ctx.store.messageQueries.countFrom(row.cid, actor.id, after) };
  }

  // Delivery receipts are off in every channel config; answer politely if a client sends them.
  routes.post('/channels/delivered', auth, async (c) => {
    await readJson(c);
    const response: APIResponse = { duration: elapsed(c) };
    return sendJson(response);
  });

  return routes;
}
