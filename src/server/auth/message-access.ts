// Finding a message for an action on it (`/messages/{id}/…`) and deciding whether the actor may
// change it. The rules follow the capabilities (auth/permissions.ts): one's own messages need
// update-own-message / delete-own-message, anyone else's need the -any- variant; a hard delete
// always needs delete-any-message. Server-side calls may do everything.
import type { Actor } from './actor';
import { accessTo, assertCanRead, visibleMessages } from './channel-access';
import type { ChannelAccess } from './channel-access';
import type { ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import type { ChannelRow, MemberRow } from '../store/channels';
import type { MessageRow } from '../store/messages';

export type MessageTarget = {
  message: MessageRow;
  channel: ChannelRow;
  access: ChannelAccess & { member?: MemberRow };
};

/**
 * The message and its channel, if the actor may read that channel and see the message (not
 * shadowed from them or pending for someone else, not from someone they blocked, not truncated
 * away); 404 (code 16) otherwise. A pending message its author (or the server) reaches is an
 * input error for every action but those that pass `pending: true` (read, commit, hard delete).
 */
export function messageInReach(ctx: ServerContext, id: string, actor: Actor, { pending = false } = {}): MessageTarget {
  const message = ctx.store.messages.get(id);
  if (!message) throw ApiError.notFound(`message with id ${id} not found`);
  const channel = ctx.store.channels.get(message.cid);
  if (!channel || channel.deleted_at) throw ApiError.notFound(`channel ${message.cid} does not exist`);
  const access = accessTo(ctx, channel, actor);
  assertCanRead(channel, actor, access);
  if (!visibleMessages(ctx, channel, actor, access.member, [message]).length) throw ApiError.notFound(`message with id ${id} not found`);
  if (message.pending && !pending) {
    throw ApiError.input(`message ${id} is pending: until it is committed it can only be read, committed or hard deleted`);
  }
  return { message, channel, access };
}

export type Change = 'update' | 'delete' | 'hard-delete';

/** Throws 403 (code 17) unless the actor may make this change to the message. */
export function assertMayChange(target: MessageTarget, actor: Actor, change: Change): void {
  const { message, access } = target;
  const own = actor.id !== null && message.user_id === actor.id;
  const verb = change === 'update' ? 'update' : 'delete';
  const needed =
    change === 'hard-delete' ? ['delete-any-message'] : own ? [`${verb}-own-message`, `${verb}-any-message`] : [`${verb}-any-message`];
  if (needed.some((capability) => access.has(capability))) return;
  const what = change === 'hard-delete' ? 'hard delete' : verb;
  throw ApiError.notAllowed(
    `User '${actor.id ?? ''}' with role '${actor.role}' is not allowed to ${what} ${own ? 'their own' : "another user's"} message ${message.id}`,
  );
}

export function assertNotDeleted(message: MessageRow, action: string): void {
  if (message.deleted_at) throw ApiError.input(`message ${message.id} was deleted and cannot be ${action}`);
}
