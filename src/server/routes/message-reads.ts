// Reading messages outside a channel query: one message (`GET /messages/{id}`), several by id
// (`GET /channels/{type}/{id}/messages?ids=a,b`, the SDK's getMessagesById) and a thread's
// replies (`GET /messages/{id}/replies`, Thread.queryReplies). Each is presented to the caller,
// with their own reactions and reminder.
import { Hono } from 'hono';
import type { GetMessageAPIResponse, GetMultipleMessagesAPIResponse, GetRepliesAPIResponse } from 'stream-chat';
import { actorFor } from '../auth/actor';
import { accessTo, assertCanRead, messageVisibility, visibleMessages } from '../auth/channel-access';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, requireAuth, sendJson } from './request';
import { isObject } from '../http/input';
import { messageInReach } from '../auth/message-access';
import { Presenter } from '../present/presenter';
import { existingChannel } from './channels';
import { pageOptions } from './query-options';

const MAX_IDS = 100;

export function messageReadRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);

  routes.get('/messages/:id', auth, (c) => {
    const actor = actorFor(ctx.store, c.get('subject'), c.req.query('user_id'));
    // A pending message is read by its author too (features/messages/pending-messages.ts).
    const { message } = messageInReach(ctx, c.req.param('id'), actor, { pending: true });
    const [presented] = new Presenter(ctx, actor.id).messages([message]);
    if (!presented) throw new Error(`message ${message.id} could not be presented`);
    return sendJson({ message: presented, duration: elapsed(c) } satisfies GetMessageAPIResponse);
  });

  routes.get('/channels/:type/:id/messages', auth, (c) => {
    const actor = actorFor(ctx.store, c.get('subject'), c.req.query('user_id'));
    const channel = existingChannel(ctx, c.req.param('type'), c.req.param('id'));
    const access = accessTo(ctx, channel, actor);
    assertCanRead(channel, actor, access);
    const ids = [...new Set((c.req.query('ids') ?? '').split(',').map((id) => id.trim()).filter(Boolean))];
    if (!ids.length) throw ApiError.input('ids is a required field');
    if (ids.length > MAX_IDS) throw ApiError.input(`at most ${MAX_IDS} ids can be fetched at once`);
    const rows = visibleMessages(ctx, channel, actor, access.member, ctx.store.messageQueries.inChannel(channel.cid, ids));
    const messages = new Presenter(ctx, actor.id).messages(rows);
    return sendJson({ messages, duration: elapsed(c) } satisfies GetMultipleMessagesAPIResponse);
  });

  routes.get('/messages/:id/replies', auth, (c) => {
    const query = c.req.query();
    const actor = actorFor(ctx.store, c.get('subject'), query.user_id);
    const { message: parent, channel, access } = messageInReach(ctx, c.req.param('id'), actor);
    if (parent.parent_id) throw ApiError.input(`message ${parent.id} is a reply, not a thread`);
    // The provider pages replies by cursor alone: `offset` is accepted and has no effect (of 10
    // replies, limit 3 and offset 3 answer the newest three, 8 to 10).
    const rows = ctx.store.messageQueries.replies(
      parent.id,
      { ...pageOptions(query, 'replies', 100), offset: 0, newestFirst: newestFirst(query.sort) },
      messageVisibility(channel, actor, access.member),
    );
    const messages = new Presenter(ctx, actor.id).messages(rows);
    return sendJson({ messages, duration: elapsed(c) } satisfies GetRepliesAPIResponse);
  });

  return routes;
}

/**
 * Which end of the thread a page without a cursor starts from: the newest replies, as with the
 * provider, unless `sort=[{"field":"created_at","direction":1}]` (JSON in the query string) asks
 * for the oldest.
 */
function newestFirst(sort: string | undefined): boolean {
  if (!sort) return true;
  let parsed: unknown;
  try {
    parsed = JSON.parse(sort);
  } catch {
    throw ApiError.input('sort must be JSON');
  }
  const first = Array.isArray(parsed) ? parsed[0] : parsed;
  if (first === undefined) return true;
  if (!isObject(first)) throw ApiError.input('sort must be a list of {field, direction}');
  const direction = first.field === 'created_at' ? first.direction : first.created_at;
  if (direction === undefined) throw ApiError.input('replies can only be sorted by created_at');
  return direction === -1 || direction === '-1';
}
