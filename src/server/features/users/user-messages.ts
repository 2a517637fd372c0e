// Changing every message of one user (deleting or deactivating the user, reactivating them with
// restore_messages), a chunk at a time with a breath between chunks so other requests keep
// flowing while a prolific user is walked.
import type { ServerContext } from '../../http/context';
import type { MessageRow } from '../../store/messages';

/**
 * soft: marked deleted, content kept (undeletable); pruning: marked deleted, content and reactions
 * gone; hard: what a hard message delete leaves (an empty tombstone); remove: the rows themselves
 * go, with their threads (the user's row is about to go too).
 */
export type MessageDeletion = 'soft' | 'pruning' | 'hard' | 'remove';

export type Breathe = () => Promise<void>;

const CHUNK = 200;

/** Deletes the user's messages; every soft mark carries `at`. */
export async function deleteMessagesOf(ctx: ServerContext, userId: string, how: MessageDeletion, at: string, breathe: Breathe): Promise<void> {
  const { store } = ctx;
  for (let after = 0; ; ) {
    const rows = store.users.messagesOf(userId, after, CHUNK);
    const last = rows.at(-1);
    if (!last) return;
    store.transaction(() => {
      if (how === 'remove') store.users.removeMessages(rows);
      else for (const row of rows) deleteMessage(ctx, row, how, at);
    });
    after = last.seq;
    await breathe();
  }
}

function deleteMessage(ctx: ServerContext, row: MessageRow, how: Exclude<MessageDeletion, 'remove'>, at: string): void {
  const { store } = ctx;
  if (row.hard_deleted) return;
  if (how === 'soft') {
    if (!row.deleted_at) store.messageEdits.softDelete(row.id, at);
    return;
  }
  store.reactions.removeAllOf(row.id);
  if (how === 'hard') {
    store.reminders.removeAllOf(row.id);
    store.messageEdits.hardDelete(row.id, at);
    return;
  }
  store.messageEdits.write(row.id, { text: '', attachments: [], custom: {}, mentioned_user_ids: [] }, at);
  if (!row.deleted_at) store.messageEdits.softDelete(row.id, at);
}

/** Undeletes the messages soft-deleted at exactly `at` (with the user's deactivation), no others. */
export async function restoreMessagesOf(ctx: ServerContext, userId: string, at: string, breathe: Breathe): Promise<void> {
  const { store } = ctx;
  const now = new Date().toISOString();
  for (let after = 0; ; ) {
    const rows = store.users.messagesDeletedAt(userId, at, after, CHUNK);
    const last = rows.at(-1);
    if (!last) return;
    store.transaction(() => {
      for (const row of rows) store.messageEdits.undelete(row.id, now);
    });
    after = last.seq;
    await breathe();
  }
}
