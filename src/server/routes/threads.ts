// Threads: the user's thread list (`POST /threads`, ThreadManager: limit 25, reply_limit 10,
// participant_limit 10, watch true, paged with `next`), one thread (`GET /threads/{id}`) and
// title/custom updates (`PATCH /threads/{id}` with {set, unset}, announced as thread.updated).
import { Hono, type Context } from 'hono';
import type { GetThreadAPIResponse, QueryThreadsAPIResponse } from 'stream-chat';
import { actorFor, requireUser, type Actor } from '../auth/actor';
import { accessTo, assertCanRead, assertCapability } from '../auth/channel-access';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, requireAuth, sendJson } from './request';
import { boundedInt, namedUserId, objectField, optionalBoolean, optionalString, withoutKeys, type JsonObject } from '../http/input';
import { messageInReach } from '../auth/message-access';
import { cursors, pageOf } from '../http/paging';
import { Presenter } from '../present/presenter';
import { notifyThreadUpdated } from '../events/thread-events';
import { startWatching } from '../realtime/watching';
import { RESERVED_THREAD_FIELDS, presentThread, type ThreadOptions } from '../present/thread';
import { watchingConnection } from './query-options';

/** The SDK's MAX_QUERY_THREADS_LIMIT. */
const MAX_THREADS = 25;

export function threadRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);

  routes.post('/threads', auth, async (c) => {
    const body = await readJson(c);
    const actor = requireUser(actorFor(ctx.store, c.get('subject'), namedUserId(body)), 'query threads');
    const page = pageOf(body, { fallback: 10, max: MAX_THREADS });
    const options = threadOptions(body, { replyLimit: 3, participantLimit: 10 });
    const rows = ctx.store.threads.query({ userId: actor.id, filter: body.filter, sort: body.sort, ...page });
    const connection = optionalBoolean(body.watch, 'watch') !== false ? watchingConnection(c, ctx, actor) : undefined;
    const presenter = new Presenter(ctx, actor.id);
    const threads = rows.flatMap((thread) => {
      const channel = ctx.store.channels.get(thread.cid);
      const parent = ctx.store.messages.get(thread.parent_id);
      if (!channel || !parent || !accessTo(ctx, channel, actor).canRead) return [];
      if (connection) startWatching(ctx, connection, channel.cid);
      return [presentThread(ctx, presenter, actor, channel, parent, thread, options)];
    });
    const { next } = cursors(page, rows.length);
    return sendJson({ threads, ...(next ? { next } : {}), duration: elapsed(c) } satisfies QueryThreadsAPIResponse);
  });

  routes.get('/threads/:id', auth, (c) => {
    const query = c.req.query();
    const actor = actorFor(ctx.store, c.get('subject'), query.user_id);
    const thread = oneThread(c, ctx, actor, threadOptions(query, { replyLimit: 3, participantLimit: 100 }));
    if (query.watch !== 'false') {
      const connection = watchingConnection(c, ctx, actor);
      if (connection) startWatching(ctx, connection, thread.channel_cid);
    }
    return sendJson({ thread, duration: elapsed(c) } satisfies GetThreadAPIResponse);
  });

  routes.patch('/threads/:id', auth, async (c) => {
    const body = await readJson(c);
    const set = objectField(body.set, 'set');
    const unset = body.unset ?? [];
    if (!Array.isArray(unset) || !unset.every((key): key is string => typeof key === 'string')) {
      throw ApiError.input('unset must be a list of field names');
    }
    for (const key of [...Object.keys(set), ...unset]) {
      if (RESERVED_THREAD_FIELDS.has(key)) {
        throw ApiError.input(`You cannot set ${key} field on Thread object. ${key} is reserved for server-side use`);
      }
    }
    const actor = requireUser(actorFor(ctx.store, c.get('subject'), namedUserId(body)), 'update threads');
    const { message: parent, channel, access } = messageInReach(ctx, c.req.param('id'), actor);
    assertCapability(channel, actor, access, 'send-reply');
    const stored = ctx.store.threads.get(parent.id);
    if (!stored) throw ApiError.notFound(`thread ${parent.id} does not exist (it has no replies yet)`);
    const custom: JsonObject = { ...(JSON.parse(stored.custom) as JsonObject), ...withoutKeys(set, new Set(['title'])) };
    for (const key of unset) delete custom[key];
    const title = unset.includes('title') ? '' : (optionalString(set.title, 'set.title') ?? stored.title);
    ctx.store.threads.update(parent.id, title, custom, new Date().toISOString());
    const thread = oneThread(c, ctx, actor, { replyLimit: 3, participantLimit: 100 });
    notifyThreadUpdated(ctx, channel, thread);
    return sendJson({ thread, duration: elapsed(c) } satisfies GetThreadAPIResponse);
  });

  return routes;
}

function oneThread(c: Context<AppEnv>, ctx: ServerContext, actor: Actor, options: ThreadOptions) {
  const { message: parent, channel } = messageInReach(ctx, c.req.param('id') ?? '', actor);
  if (parent.parent_id) throw ApiError.input(`message ${parent.id} is a reply, not a thread`);
  assertCanRead(channel, actor, accessTo(ctx, channel, actor));
  return presentThread(ctx, new Presenter(ctx, actor.id), actor, channel, parent, ctx.store.threads.get(parent.id), options);
}

function threadOptions(source: JsonObject, defaults: ThreadOptions): ThreadOptions {
  return {
    replyLimit: boundedInt(source.reply_limit, 'reply_limit', { fallback: defaults.replyLimit, max: 100 }),
    participantLimit: boundedInt(source.participant_limit, 'participant_limit', { fallback: defaults.participantLimit, max: 100 }),
  };
}
