// Changes to stored messages: edits, soft and hard deletes, undelete, pins and their expiry.
// A soft delete only stamps deleted_at (the presenter shows the message as type "deleted"), so
// undelete restores it exactly; a hard delete strips the content for good.
import type { Db } from './db';
import type { MessageRow } from './messages';

/** Columns an edit may write; anything else is the server's. */
export type MessageFields = Partial<{
  text: string;
  attachments: unknown[];
  custom: Record<string, unknown>;
  mentioned_user_ids: string[];
  quoted_message_id: string | null;
  message_text_updated_at: string;
  pinned_at: string | null;
  pinned_by_id: string | null;
  pin_expires: string | null;
  /** Translations (store/message-translations.ts); an edit of the text sets them to null. */
  i18n: Record<string, string> | null;
}>;

const JSON_COLUMNS = new Set(['attachments', 'custom', 'mentioned_user_ids', 'i18n']);

export function createMessageEditStore(db: Db) {
  const byId = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE id = ?');
  const softDelete = db.prepare('UPDATE messages SET deleted_at = ?, updated_at = ? WHERE id = ?');
  const hardDelete = db.prepare(
    `UPDATE messages SET deleted_at = COALESCE(deleted_at, @now), updated_at = @now, hard_deleted = 1,
       text = '', attachments = '[]', custom = '{}', mentioned_user_ids = '[]', quoted_message_id = NULL,
       pinned_at = NULL, pinned_by_id = NULL, pin_expires = NULL, message_text_updated_at = NULL, i18n = NULL
     WHERE id = @id`,
  );
  const undelete = db.prepare('UPDATE messages SET deleted_at = NULL, updated_at = ? WHERE id = ? AND hard_deleted = 0');
  const pinnedPage = db.prepare<[string, string, number], MessageRow>(
    `SELECT * FROM messages WHERE cid = ? AND pinned_at IS NOT NULL AND deleted_at IS NULL
       AND (pin_expires IS NULL OR pin_expires > ?)
     ORDER BY pinned_at DESC LIMIT ?`,
  );
  const expired = db.prepare<[string], MessageRow>(
    'SELECT * FROM messages WHERE pin_expires IS NOT NULL AND pin_expires <= ? AND pinned_at IS NOT NULL',
  );
  const nextExpiry = db.prepare<[], { at: string | null }>(
    'SELECT MIN(pin_expires) AS at FROM messages WHERE pin_expires IS NOT NULL AND pinned_at IS NOT NULL',
  );
  const unpin = db.prepare(
    'UPDATE messages SET pinned_at = NULL, pinned_by_id = NULL, pin_expires = NULL, updated_at = ? WHERE id = ?',
  );

  /** Writes the given columns and bumps updated_at; returns the stored row. */
  function write(id: string, fields: MessageFields, now: string): MessageRow {
    const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
    const sets = entries.map(([column]) => `${column} = @${column}`);
    const params: Record<string, unknown> = { id, updated_at: now };
    for (const [column, value] of entries) {
      params[column] = JSON_COLUMNS.has(column) && value !== null ? JSON.stringify(value) : value;
    }
    // Column names come from the MessageFields type, never from request input.
    db.prepare(`UPDATE messages SET ${[...sets, 'updated_at = @updated_at'].join(', ')} WHERE id = @id`).run(params);
    return byId.get(id) as MessageRow;
  }

  return {
    write,
    softDelete(id: string, now: string): MessageRow {
      softDelete.run(now, now, id);
      return byId.get(id) as MessageRow;
    },
    hardDelete(id: string, now: string): MessageRow {
      hardDelete.run({ id, now });
      return byId.get(id) as MessageRow;
    },
    undelete(id: string, now: string): MessageRow {
      undelete.run(now, id);
      return byId.get(id) as MessageRow;
    },
    /** The channel's current pins, most recently pinned first. */
    pinned: (cid: string, now: string, limit = 10) => pinnedPage.all(cid, now, limit),
    /** Pins whose pin_expires has passed: unpins them and returns the unpinned rows. */
    expirePins(now: string): MessageRow[] {
      const rows = expired.all(now);
      for (const row of rows) unpin.run(now, row.id);
      return rows.map((row) => byId.get(row.id) as MessageRow);
    },
    nextPinExpiry: () => nextExpiry.get()?.at ?? null,
  };
}
