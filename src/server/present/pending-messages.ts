// A channel query's `pending_messages`: the viewer's own messages held pending, each with the
// metadata its sender gave (features/messages/pending-messages.ts holds and commits them).
import type { MessageResponse, PendingMessageResponse } from 'stream-chat';
import type { ServerContext } from '../http/context';
import type { Presenter } from './presenter';

/** Pending messages listed in a channel query, as the provider lists them: the newest 100. */
export const PENDING_LISTED = 100;

function metadataOfRow(metadata: string | null): Record<string, string> | undefined {
  return metadata ? (JSON.parse(metadata) as Record<string, string>) : undefined;
}

/** `pending_messages` of a channel query: the viewer's own, with their metadata. */
export function pendingMessagesOf(ctx: ServerContext, viewer: Presenter, cid: string, userId: string): PendingMessageResponse[] {
  const held = ctx.store.pendingMessages.ofSender(cid, userId, PENDING_LISTED);
  if (!held.length) return [];
  const messages = viewer.messages(held.map((entry) => entry.message));
  return held.map((entry, i) => {
    const metadata = metadataOfRow(entry.pending.metadata);
    return { message: messages[i] as MessageResponse, ...(metadata ? { pending_message_metadata: metadata } : {}) };
  });
}
