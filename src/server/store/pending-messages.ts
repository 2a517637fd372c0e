// Pending messages: a message sent with `pending: true` is stored in `messages` with pending = 1
// (store/visibility.ts keeps it for its author alone) and waits here with what its sender gave
// (the metadata) and how it is to be delivered (skip_push). Committing it stamps it as sent now
// and takes it out of here; deleting the message takes it out too (ON DELETE CASCADE).
import type { Db } from './db';
import type { MessageRow } from './messages';

export type PendingRow = {
  message_id: string;
  cid: string;
  user_id: string;
  /** The sender's `pending_message_metadata` (string values), JSON; null when none was given. */
  metadata: string | null;
  skip_push: number;
  created_at: string;
};

export type HeldMessage = { message: MessageRow; pending: PendingRow };

export function createPendingMessageStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO pending_messages (message_id, cid, user_id, metadata, skip_push, created_at)
     VALUES (@message_id, @cid, @user_id, @metadata, @skip_push, @created_at)`,
  );
  const one = db.prepare<[string], PendingRow>('SELECT * FROM pending_messages WHERE message_id = ?');
  const remove = db.prepare('DELETE FROM pending_messages WHERE message_id = ?');
  // The commit is the send: the message enters the channel now, so read state and ordering
  // treat it as new (a reader who read the channel meanwhile has not read it).
  const release = db.prepare('UPDATE messages SET pending = 0, created_at = @now, updated_at = @now WHERE id = @id AND pending = 1');
  const byId = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE id = ?');
  // The sender's newest pending messages in a channel, through pending_messages_sender.
  const ofSender = db.prepare<[string, string, number], PendingRow>(
    `SELECT * FROM pending_messages WHERE cid = ? AND user_id = ? ORDER BY created_at DESC, message_id DESC LIMIT ?`,
  );

  return {
    /** Records what the just-stored pending message waits with (in the storing transaction). */
    hold(message: MessageRow, metadata: Record<string, string> | null, skipPush: boolean): void {
      insert.run({
        message_id: message.id,
        cid: message.cid,
        user_id: message.user_id,
        metadata: metadata ? JSON.stringify(metadata) : null,
        skip_push: skipPush ? 1 : 0,
        created_at: message.created_at,
      });
    },
    get: (messageId: string) => one.get(messageId),
    /** Makes the message an ordinary one sent at `now`; undefined when it was not pending. */
    release(messageId: string, now: string): MessageRow | undefined {
      if (release.run({ id: messageId, now }).changes === 0) return undefined;
      remove.run(messageId);
      return byId.get(messageId);
    },
    remove: (messageId: string) => void remove.run(messageId),
    /** The user's pending messages in the channel, the newest `limit`, oldest first. */
    ofSender(cid: string, userId: string, limit: number): HeldMessage[] {
      const rows = ofSender.all(cid, userId, limit).reverse();
      return rows.flatMap((pending) => {
        const message = byId.get(pending.message_id);
        return message ? [{ message, pending }] : [];
      });
    },
  };
}
