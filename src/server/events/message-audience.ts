// Who may receive a message's events, the live twin of store/visibility.ts: a shadowed message
// reaches only its author, one with restricted visibility its author and the users it lists, and
// users who blocked the author never get it.
import type { MessageResponse } from 'stream-chat';
import type { ServerContext } from '../http/context';
import type { Connection } from '../realtime/registry';
import { restrictedTo, seesRestricted } from '../store/visibility';

export type Audience = (connection: Connection) => boolean;

/** undefined: everyone watching. */
export function messageAudience(ctx: ServerContext, message: Pick<MessageResponse, 'shadowed' | 'user' | 'restricted_visibility'>): Audience | undefined {
  const authorId = message.user?.id;
  if (!authorId) return undefined;
  if (message.shadowed) return (connection) => connection.userId === authorId;
  const listed = restrictedTo(message);
  const blockers = ctx.store.blocks.blockersOf(authorId);
  if (listed) return (connection) => seesRestricted(listed, authorId, connection.userId) && !blockers.has(connection.userId);
  return blockers.size ? (connection) => !blockers.has(connection.userId) : undefined;
}
