// Who may receive a message's events, the live twin of store/visibility.ts: a shadowed message
// reaches only its author, and users who blocked the author never get it.
import type { MessageResponse } from 'stream-chat';
import type { ServerContext } from '../http/context';
import type { Connection } from '../realtime/registry';

export type Audience = (connection: Connection) => boolean;

/** undefined: everyone watching. */
export function messageAudience(ctx: ServerContext, message: Pick<MessageResponse, 'shadowed' | 'user'>): Audience | undefined {
  const authorId = message.user?.id;
  if (!authorId) return undefined;
  if (message.shadowed) return (connection) => connection.userId === authorId;
  const blockers = ctx.store.blocks.blockersOf(authorId);
  return blockers.size ? (connection) => !blockers.has(connection.userId) : undefined;
}
