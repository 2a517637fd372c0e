// Reactions: send (`POST /messages/{id}/reaction`), delete (`DELETE …/reaction/{type}`), list
// (`GET …/reactions?limit&offset`) and query (`POST …/reactions` with filter, sort, next).
// Every change is announced with the full updated message: reaction.new, reaction.updated (an
// enforce_unique send that replaced the user's other reactions) or reaction.deleted.
import { Hono } from 'hono';
import type { GetReactionsAPIResponse, QueryReactionsAPIResponse, ReactionAPIResponse } from 'stream-chat';
import { actorFor, requireUser } from '../auth/actor';
import { assertCapability } from '../auth/channel-access';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, requireAuth, sendJson } from './request';
import { boundedInt, isObject, namedUserId, optionalBoolean, withoutKeys } from '../http/input';
import { assertNotDeleted, messageInReach } from '../auth/message-access';
import { assertNotBanned } from '../features/moderation/bans';
import { presentReaction } from '../present/message-extras';
import { cursors, pageOf } from '../http/paging';
import { Presenter } from '../present/presenter';
import { publishMessageEvent } from '../events/message-events';

/** The provider's limit on a reaction type's length. */
const MAX_TYPE_LENGTH = 30;
const RESERVED = new Set(['type', 'score', 'user', 'user_id', 'message_id', 'created_at', 'updated_at']);

export function reactionRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);

  routes.post('/messages/:id/reaction', auth, async (c) => {
    const body = await readJson(c);
    if (!isObject(body.reaction)) throw ApiError.input('reaction is a required field');
    const input = body.reaction;
    const type = reactionType(input.type);
    const score = boundedInt(input.score, 'reaction.score', { fallback: 1, min: 0, max: 1_000_000 });
    const unique = optionalBoolean(body.enforce_unique, 'enforce_unique') ?? false;
    const actor = requireUser(actorFor(ctx.store, c.get('subject'), namedUserId(input) ?? namedUserId(body)), 'react');
    const target = messageInReach(ctx, c.req.param('id'), actor);
    assertCapability(target.channel, actor, target.access, 'send-reaction');
    assertNotBanned(ctx, target.channel, actor.id);
    assertNotDeleted(target.message, 'reacted to');
    const { store } = ctx;
    const replaced = unique && store.reactions.ofUser(target.message.id, actor.id).some((r) => r.type !== type);
    const row = store.transaction(() =>
      store.reactions.put(
        { messageId: target.message.id, userId: actor.id, type, score, custom: withoutKeys(input, RESERVED), now: new Date().toISOString() },
        unique,
      ),
    );
    const reaction = presentReaction(new Presenter(ctx), row);
    const message = publishMessageEvent(ctx, target.channel, replaced ? 'reaction.updated' : 'reaction.new', target.message, actor.id, { reaction });
    return sendJson({ message, reaction, duration: elapsed(c) } satisfies ReactionAPIResponse);
  });

  routes.delete('/messages/:id/reaction/:type', auth, (c) => {
    const actor = requireUser(actorFor(ctx.store, c.get('subject'), c.req.query('user_id')), 'remove reactions');
    const target = messageInReach(ctx, c.req.param('id'), actor);
    const type = reactionType(c.req.param('type'));
    const row = ctx.store.reactions.get(target.message.id, actor.id, type);
    if (!row) throw ApiError.notFound(`reaction ${type} by ${actor.id} on message ${target.message.id} does not exist`);
    ctx.store.reactions.remove(target.message.id, actor.id, type);
    const reaction = presentReaction(new Presenter(ctx), row);
    const message = publishMessageEvent(ctx, target.channel, 'reaction.deleted', target.message, actor.id, { reaction });
    return sendJson({ message, reaction, duration: elapsed(c) } satisfies ReactionAPIResponse);
  });

  routes.get('/messages/:id/reactions', auth, (c) => {
    const actor = actorFor(ctx.store, c.get('subject'), c.req.query('user_id'));
    const target = messageInReach(ctx, c.req.param('id'), actor);
    const limit = boundedInt(c.req.query('limit'), 'limit', { fallback: 10, max: 300 });
    const offset = boundedInt(c.req.query('offset'), 'offset', { fallback: 0, max: 1_000_000 });
    const rows = ctx.store.reactions.query(target.message.id, undefined, undefined, limit, offset);
    const presenter = new Presenter(ctx);
    const reactions = rows.map((row) => presentReaction(presenter, row));
    return sendJson({ reactions, duration: elapsed(c) } satisfies GetReactionsAPIResponse);
  });

  routes.post('/messages/:id/reactions', auth, async (c) => {
    const body = await readJson(c);
    const actor = actorFor(ctx.store, c.get('subject'), namedUserId(body));
    const target = messageInReach(ctx, c.req.param('id'), actor);
    const page = pageOf(body, { fallback: 25, max: 300 });
    const rows = ctx.store.reactions.query(target.message.id, body.filter, body.sort, page.limit, page.offset);
    const presenter = new Presenter(ctx);
    const reactions = rows.map((row) => presentReaction(presenter, row));
    const { next } = cursors(page, rows.length);
    return sendJson({ reactions, ...(next ? { next } : {}), duration: elapsed(c) } satisfies QueryReactionsAPIResponse);
  });

  return routes;
}

/** A reaction type: a non-empty string of at most 30 characters (code 4 otherwise). */
function reactionType(value: unknown): string {
  if (typeof value !== 'string' || !value.trim()) throw ApiError.input('reaction.type is a required field and cannot be empty');
  if ([...value].length > MAX_TYPE_LENGTH) {
    throw ApiError.input(`reaction.type must be at most ${MAX_TYPE_LENGTH} characters long`);
  }
  return value;
}
