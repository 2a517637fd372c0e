// Watching a channel means receiving its events. user.watching.start/stop are announced per
// user (the SDK keys watchers by user id): start on the user's first watching connection, stop
// when the last one stops watching or closes.
import type { ServerContext } from '../http/context';
import { Presenter } from '../present/presenter';
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

function announce(
  ctx: ServerContext,
  cid: string,
  type: 'user.watching.start' | 'user.watching.stop',
  userId: string,
): void {
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
