// Message edit history (`POST /messages/history`, the provider's "message history"): each edit
// of a message's text, attachments or custom data, and each soft delete or undelete, keeps what
// the message was before it, with who made the change and when. Written in the edit's own
// transaction; queried with the provider's filter (message_id required), sort and paging.
import type { Db } from './db';
import { filtersToSql, parseSort, sortToSql, type FilterSchema } from './filters-to-sql';
import type { MessageRow } from './messages';

export type HistoryRow = {
  seq: number;
  message_id: string;
  text: string;
  attachments: string;
  custom: string;
  is_deleted: number;
  updated_by_id: string | null;
  updated_at: string;
};

export type HistoryQuery = { filter: unknown; sort: unknown; limit: number; offset: number };

// `user_id` and `created_at` are the SDK's names (QueryMessageHistoryFilters) for the fields
// the provider's documentation calls message_updated_by_id and message_updated_at.
const HISTORY_SCHEMA: FilterSchema = {
  fields: {
    message_id: { kind: 'text', sql: 'h.message_id' },
    message_updated_by_id: { kind: 'text', sql: 'h.updated_by_id' },
    user_id: { kind: 'text', sql: 'h.updated_by_id' },
    message_updated_at: { kind: 'date', sql: 'h.updated_at' },
    created_at: { kind: 'date', sql: 'h.updated_at' },
  },
  jsonColumn: 'h.custom',
};

export function createMessageHistoryStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO message_history (message_id, text, attachments, custom, is_deleted, updated_by_id, updated_at)
     VALUES (@message_id, @text, @attachments, @custom, @is_deleted, @updated_by_id, @updated_at)`,
  );
  const removeAll = db.prepare('DELETE FROM message_history WHERE message_id = ?');

  return {
    /** Keeps `before` (the message as it was) as changed by `updatedById` at `at`. */
    record(before: MessageRow, updatedById: string | null, at: string): void {
      insert.run({
        message_id: before.id,
        text: before.text,
        attachments: before.attachments,
        custom: before.custom,
        is_deleted: before.deleted_at ? 1 : 0,
        updated_by_id: updatedById,
        updated_at: at,
      });
    },
    /** A hard delete leaves nothing of the message, its earlier versions included. */
    removeAllOf: (messageId: string) => void removeAll.run(messageId),
    query({ filter, sort, limit, offset }: HistoryQuery): HistoryRow[] {
      const where = filtersToSql(filter, HISTORY_SCHEMA);
      // Latest first by default, as the provider answers. Versions written within one
      // millisecond keep the order they were written in, in the direction time is sorted.
      const byTime = parseSort(sort).find((field) => field.field === 'message_updated_at' || field.field === 'created_at');
      const order = sortToSql(sort, HISTORY_SCHEMA, {
        fallback: [{ field: 'message_updated_at', direction: -1 }],
        tiebreak: `h.seq ${byTime?.direction === 1 ? 'ASC' : 'DESC'}`,
      });
      return db
        .prepare(`SELECT h.* FROM message_history h WHERE ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`)
        .all(...where.params, ...order.params, limit, offset) as HistoryRow[];
    },
  };
}
