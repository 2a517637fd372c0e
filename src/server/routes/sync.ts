// `POST /sync` (`client.sync(channel_cids, last_sync_at, {watch, with_inaccessible_cids})`):
// what happened in those channels since `last_sync_at` (features/sync). A user syncs as
// themselves; a server-side call names the user (`user_id`). With `watch: true` and the
// request's connection_id, the readable channels are watched, as a watching query would.
import { Hono } from 'hono';
import type { Event, SyncResponse } from 'stream-chat';
import { actorFor, requireUser, userActor } from '../auth/actor';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { namedUserId, optionalBoolean, requiredString } from '../http/input';
import { elapsed, readJson, requireAuth, sendJson } from './request';
import { MAX_SYNC_CIDS, syncEvents } from '../features/sync/sync-events';
import { startWatching } from '../realtime/watching';
import { watchingConnection } from './query-options';

export function syncRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();

  routes.post('/sync', requireAuth(ctx), async (c) => {
    const body = await readJson(c);
    const cids = channelCids(body.channel_cids);
    const text = requiredString(body.last_sync_at, 'last_sync_at');
    const lastSyncAt = Date.parse(text);
    if (Number.isNaN(lastSyncAt)) throw ApiError.input('last_sync_at must be an RFC3339 timestamp');
    const watch = optionalBoolean(body.watch, 'watch') ?? false;
    const withInaccessible = optionalBoolean(body.with_inaccessible_cids, 'with_inaccessible_cids') ?? false;
    const acting = requireUser(actorFor(ctx.store, c.get('subject'), namedUserId(body)), 'sync');
    // A server-side call sees what the named user sees.
    const actor = acting.server ? userActor(ctx.store.users.ensure(acting.id)) : acting;

    const { events, inaccessible, readable } = syncEvents(ctx, actor, cids, lastSyncAt);
    const connection = watch ? watchingConnection(c, ctx, actor) : undefined;
    if (connection) {
      for (const cid of readable) if (!ctx.store.channels.get(cid)?.deleted_at) startWatching(ctx, connection, cid);
    }
    const now = new Date().toISOString();
    const removed: Event[] = withInaccessible
      ? []
      : inaccessible.map((cid) => {
          const at = cid.indexOf(':');
          return { type: 'notification.removed_from_channel', cid, channel_type: cid.slice(0, at), channel_id: cid.slice(at + 1), created_at: now };
        });
    const response: SyncResponse = {
      events: [...events, ...removed],
      ...(withInaccessible ? { inaccessible_cids: inaccessible } : {}),
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  return routes;
}

function channelCids(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) throw ApiError.input('channel_cids must be a non-empty list of channel cids');
  if (value.length > MAX_SYNC_CIDS) throw ApiError.input(`channel_cids may hold at most ${MAX_SYNC_CIDS} channels`);
  return value.map((cid) => {
    if (typeof cid !== 'string' || !/^[^:]+:[^:]+$/.test(cid)) throw ApiError.input('channel_cids must contain channel cids (type:id)');
    return cid;
  });
}
