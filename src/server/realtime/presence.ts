// user.presence.changed: announced when a user's first connection opens (online) and when their
// last one closes (offline, last_active stamped). It goes to the connections subscribed to that
// user through a `presence: true` query and to everyone watching a channel the user belongs to
// (unless it is a big room), which is where member lists and watcher rows show a presence dot.
import type { ServerContext } from '../http/context';
import { Presenter } from '../present/presenter';
import { isBigRoom } from './big-room';
import type { Connection } from './registry';

/** Call after the connection joined the registry and got its health.check. */
export function userConnected(ctx: ServerContext, connection: Connection): void {
  if (connection.anonymous || ctx.hub.registry.ofUser(connection.userId).length !== 1) return;
  announce(ctx, connection.userId);
}

/** Call after the connection left the registry. */
export function userDisconnected(ctx: ServerContext, connection: Connection): void {
  if (connection.anonymous || ctx.hub.registry.isOnline(connection.userId)) return;
  ctx.store.users.upsert({ id: connection.userId, lastActive: new Date().toISOString() });
  announce(ctx, connection.userId);
}

/** Subscribes the connection to these users' presence (a query asked for `presence: true`). */
export function subscribePresence(ctx: ServerContext, connection: Connection | undefined, userIds: Iterable<string>): void {
  if (connection) ctx.hub.presence.subscribe(connection, userIds);
}

function announce(ctx: ServerContext, userId: string): void {
  const { hub, store } = ctx;
  const audience = new Set<Connection>(hub.presence.subscribers(userId));
  for (const cid of store.memberships.channelsOf(userId)) {
    // A big room's watchers hear a member's presence only if they asked for it (`presence: true`
    // on a query that listed them): otherwise N members coming back after a restart would cost
    // N² frames, as their watching events would (watching.ts).
    if (isBigRoom(hub.registry, cid)) continue;
    for (const connection of hub.registry.watchers(cid)) audience.add(connection);
  }
  if (!audience.size) return;
  hub.publish(audience, {
    type: 'user.presence.changed',
    user: new Presenter(ctx).user(userId),
    created_at: new Date().toISOString(),
  });
}
