// Watching a channel means receiving its events. user.watching.start/stop are announced per
// user (the SDK keys watchers by user id): start on the user's first watching connection, stop
// when the last one stops watching or closes; coalesced in big rooms, and not at all for channel
// types without connect events.
import type { ServerContext } from '../http/context';
import { Presenter } from '../present/presenter';
import { isBigRoom, WATCHING_COALESCE_MS } from './big-room';
import { userDisconnected } from './presence';
import type { Connection } from './registry';

export function startWatching(ctx: ServerContext, connection: Connection, cid: string): void {
  const firstForUser = ctx.hub.registry.watch(connection, cid);
  if (firstForUser && !connection.anonymous) announce(ctx, cid, 'user.watching.start', connection.userId);
}

export function stopWatching(ctx: ServerContext, connection: Connection, cid: string): void {
  const lastForUser = ctx.hub.registry.unwatch(connection, cid);
  if (lastForUser && !connection.anonymous) announce(ctx, cid, 'user.watching.stop', connection.userId);
}

/** A socket closed: forget it and tell the channels it watched. */
export function dropConnection(ctx: ServerContext, connectionId: string): void {
  const connection = ctx.hub.registry.remove(connectionId);
  if (!connection) return;
  ctx.hub.presence.forget(connection);
  // While shutting down the database may already be closed; nobody is left to tell anyway.
  if (connection.anonymous || ctx.hub.closing) return;
  for (const cid of connection.watching) {
    if (!ctx.hub.registry.isUserWatching(connection.userId, cid)) {
      announce(ctx, cid, 'user.watching.stop', connection.userId);
    }
  }
  userDisconnected(ctx, connection);
}

type WatchingChange = { type: 'user.watching.start' | 'user.watching.stop'; userId: string };
/** Per server, each big room's latest change not yet announced. */
const unannounced = new WeakMap<ServerContext, Map<string, WatchingChange>>();

/**
 * user.watching.start/stop to the channel's watchers, if its type has connect events. In a big
 * room a join would otherwise cost a frame to every watcher, so a storm of N joins N² frames:
 * there, the changes of a second are coalesced into one event with the latest user and the
 * current watcher_count (the SDK takes the count from it; the list of watchers is a page anyway).
 */
function announce(ctx: ServerContext, cid: string, type: WatchingChange['type'], userId: string): void {
  const [channelType = ''] = splitCid(cid);
  if (ctx.store.channelTypes.get(channelType)?.config.connect_events === false) return;
  let pending = unannounced.get(ctx);
  if (!pending) unannounced.set(ctx, (pending = new Map()));
  if (!pending.has(cid) && !isBigRoom(ctx.hub.registry, cid)) {
    send(ctx, cid, { type, userId });
    return;
  }
  const waiting = pending.has(cid);
  pending.set(cid, { type, userId });
  if (waiting) return;
  ctx.timers.at(`watching:${cid}`, Date.now() + WATCHING_COALESCE_MS, () => {
    const latest = pending.get(cid);
    pending.delete(cid);
    if (latest && !ctx.hub.closing) send(ctx, cid, latest);
  });
}

function send(ctx: ServerContext, cid: string, { type, userId }: WatchingChange): void {
  const [channelType = '', channelId = ''] = splitCid(cid);
  ctx.hub.toChannel(cid, {
    type,
    cid,
    channel_type: channelType,
    channel_id: channelId,
    user: new Presenter(ctx).user(userId),
    watcher_count: ctx.hub.registry.watcherCount(cid),
    created_at: new Date().toISOString(),
  });
}

function splitCid(cid: string): [string, string] {
  const at = cid.indexOf(':');
  return [cid.slice(0, at), cid.slice(at + 1)];
}
