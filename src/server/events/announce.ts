// A change announced once: recorded on the change feed (webhooks, push) and sent to the sockets
// that should hear it. For events that need no per-receiver shaping; those that do (message.new
// with each receiver's unread counts) emit and deliver in their own module.
import type { Event } from 'stream-chat';
import type { ServerContext } from '../http/context';
import type { Connection } from '../realtime/registry';

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

/**
 * To the user's own connections and those of every signed-in user who shares a channel with them:
 * user.updated, user.deleted and the like reach whoever may be showing that user, and no
 * anonymous visitor. `contacts` (from onlineContactsOf) stands in when the audience had to be
 * found before the user's memberships went away (a hard delete).
 */
export function announceToContacts(
  ctx: ServerContext,
  userId: string,
  event: Event,
  contacts: Iterable<string> = onlineContactsOf(ctx, userId),
): void {
  ctx.changes.emit(event);
  const audience: Connection[] = [];
  for (const contactId of new Set(contacts)) {
    for (const connection of ctx.hub.registry.ofUser(contactId)) if (!connection.anonymous) audience.push(connection);
  }
  ctx.hub.publish(audience, event);
}

/**
 * The connected users who share a channel with `userId`, and the user if connected, found from
 * whichever side is smaller: each online user checked against the user's channels, or the
 * user's co-members (bounded by their channels' member counts) checked for a socket.
 */
export function onlineContactsOf(ctx: ServerContext, userId: string): string[] {
  const { registry } = ctx.hub;
  const { memberships } = ctx.store;
  const contacts = new Set<string>();
  if (registry.isOnline(userId)) contacts.add(userId);
  const online = registry.onlineUserIds();
  if (online.length < memberships.coMemberBound(userId)) {
    for (const id of online) if (id !== userId && memberships.shareChannel(userId, id)) contacts.add(id);
  } else {
    for (const id of memberships.coMemberIds(userId)) if (registry.isOnline(id)) contacts.add(id);
  }
  return [...contacts];
}
