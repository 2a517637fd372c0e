// A change announced once: recorded on the change feed (webhooks, push) and sent to the sockets
// that should hear it. For events that need no per-receiver shaping; those that do (message.new
// with each receiver's unread counts) emit and deliver in their own module.
import type { Event } from 'stream-chat';
import type { ServerContext } from '../http/context';
import type { Connection } from './registry';

/** To every connection watching the channel (and, for `alsoUsers`, every connection of those users). */
export function announceToChannel(ctx: ServerContext, cid: string, event: Event, alsoUsers: string[] = []): void {
  ctx.changes.emit(event);
  const audience = new Set<Connection>(ctx.hub.registry.watchers(cid));
  for (const userId of alsoUsers) for (const connection of ctx.hub.registry.ofUser(userId)) audience.add(connection);
  ctx.hub.publish(audience, event);
}

/** To every connection of these users (a user's own notifications, an app-wide ban…). */
export function announceToUsers(ctx: ServerContext, userIds: Iterable<string>, event: Event): void {
  ctx.changes.emit(event);
  for (const userId of new Set(userIds)) ctx.hub.toUser(userId, event);
}

/** To every connected client: user.updated, user.deleted reach everyone who may show that user. */
export function announceToEveryone(ctx: ServerContext, event: Event): void {
  ctx.changes.emit(event);
  ctx.hub.publish(ctx.hub.registry.all(), event);
}
