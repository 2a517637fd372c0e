// Who may receive a message's events, the live twin of store/visibility.ts: a shadowed message
// reaches only its author, one with restricted visibility its author and the users it lists, and
// users who blocked the author never get it.
import type { MessageResponse } from 'stream-chat';
import type { ServerContext } from '../http/context';
import type { Connection } from '../realtime/registry';
import type { MessageRow } from '../store/messages';
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

/** messageAudience of a stored message (a thread's parent, a poll's message). */
export function storedAudience(ctx: ServerContext, row: Pick<MessageRow, 'shadowed' | 'user_id' | 'restricted_visibility'>): Audience | undefined {
  return messageAudience(ctx, { shadowed: row.shadowed === 1, user: { id: row.user_id }, restricted_visibility: restrictedTo(row) ?? [] });
}
