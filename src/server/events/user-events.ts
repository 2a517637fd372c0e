// Events about a user as a whole (the operator's side): updated, deleted, their messages deleted,
// deactivated and reactivated go to the user's own connections and to the users who share a
// channel with them, who are the ones that may show that user (announceToContacts; anonymous
// visitors hear none of it); a custom user event goes to that user's connections only. Removing a user from the app also
// closes their sockets: 1001 makes the SDK reconnect, and authentication then refuses it.
import type { Event, EventTypes, UserCustomEvent, UserResponse } from 'stream-chat';
import type { ServerContext } from '../http/context';
import { announceToContacts, announceToUsers } from './announce';
import { dropConnection } from '../realtime/watching';

const now = () => new Date().toISOString();

export function announceUserUpdated(ctx: ServerContext, user: UserResponse): void {
  announceToContacts(ctx, user.id, { type: 'user.updated', user, created_at: now() });
}

export type DeletionFlags = Required<Pick<Event, 'hard_delete' | 'mark_messages_deleted'>> & {
  delete_conversation_channels: boolean;
};

/**
 * The SDK marks or drops the user's messages when `mark_messages_deleted` or `hard_delete` is set.
 * `contacts`: the audience found before a hard delete removed the user's memberships.
 */
export function announceUserDeleted(ctx: ServerContext, user: UserResponse, flags: DeletionFlags, contacts?: string[]): void {
  const event: Event & DeletionFlags = { type: 'user.deleted', user, ...flags, created_at: now() };
  announceToContacts(ctx, user.id, event, contacts);
}

/** Client-wide (no cid): the SDK marks the user's messages deleted in every channel it holds. */
export function announceUserMessagesDeleted(ctx: ServerContext, user: UserResponse, hardDelete: boolean, contacts?: string[]): void {
  announceToContacts(ctx, user.id, { type: 'user.messages.deleted', user, hard_delete: hardDelete, created_at: now() }, contacts);
}

/** user.deactivated / user.reactivated, with who did it when the call named them (`created_by_id`). */
export function announceUserStanding(
  ctx: ServerContext,
  type: 'user.deactivated' | 'user.reactivated',
  user: UserResponse,
  createdBy: UserResponse | undefined,
): void {
  // The provider raises these for webhooks; the SDK's EventTypes do not list them.
  const event: Event & { created_by?: UserResponse } = {
    type: type as EventTypes,
    user,
    ...(createdBy ? { created_by: createdBy } : {}),
    created_at: now(),
  };
  announceToContacts(ctx, user.id, event);
}

/** `sendUserCustomEvent`: the site owner's event, to every connection of the user. */
export function sendUserCustomEvent(ctx: ServerContext, userId: string, event: UserCustomEvent): void {
  announceToUsers(ctx, [userId], { ...event, type: event.type as EventTypes, created_at: now() });
}

/**
 * Closes the user's sockets and forgets them at once, so presence is settled (last_active
 * stamped) now, while the user's row still exists, rather than when the close handshake ends.
 * The user hears why first (`user.deactivated`, `user.deleted`), so a widget can say so
 * instead of reconnecting in vain.
 */
export function disconnectUser(ctx: ServerContext, userId: string, why: 'user.deactivated' | 'user.deleted'): void {
  const farewell = { type: why as EventTypes, user: { id: userId }, created_at: now() };
  for (const connection of ctx.hub.registry.ofUser(userId)) {
    ctx.hub.send(connection, farewell);
    connection.close(1001, why);
    dropConnection(ctx, connection.id);
  }
}
