// The drafts table: at most one draft per user and composer, the channel's own (parent_id '',
// so the primary key works without NULLs) or a thread's. The message is kept as the JSON the
// SDK sent (a DraftMessage), already validated by the route.
import type { Db } from './db';
import { filtersToSql, sortToSql, type FilterSchema } from './filters-to-sql';

export type DraftRow = {
  user_id: string;
  cid: string;
  /** '' for the channel composer, otherwise the thread's parent message id. */
  parent_id: string;
  message: string;
  created_at: string;
};

export function createDraftStore(db: Db) {
  const upsert = db.prepare(
    `INSERT INTO drafts (user_id, cid, parent_id, message, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (user_id, cid, parent_id) DO UPDATE SET message = excluded.message, created_at = excluded.created_at`,
  );
  const byKey = db.prepare<[string, string, string], DraftRow>(
    'SELECT * FROM drafts WHERE user_id = ? AND cid = ? AND parent_id = ?',
  );
  const remove = db.prepare('DELETE FROM drafts WHERE user_id = ? AND cid = ? AND parent_id = ?');

  function query(userId: string, filter: unknown, sort: unknown, limit: number, offset: number): DraftRow[] {
    const where = filtersToSql(filter, DRAFT_SCHEMA);
    const order = sortToSql(sort, DRAFT_SCHEMA, {
      fallback: [{ field: 'created_at', direction: -1 }],
      tiebreak: 'd.cid ASC, d.parent_id ASC',
    });
    return db
      .prepare(`SELECT d.* FROM drafts d WHERE d.user_id = ? AND ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`)
      .all(userId, ...where.params, ...order.params, limit, offset) as DraftRow[];
  }

  return {
    save: (row: DraftRow) => void upsert.run(row.user_id, row.cid, row.parent_id, row.message, row.created_at),
    get: (userId: string, cid: string, parentId: string) => byKey.get(userId, cid, parentId),
    /** Returns the removed draft, if there was one. */
    remove: (userId: string, cid: string, parentId: string): DraftRow | undefined => {
      const row = byKey.get(userId, cid, parentId);
      if (row) remove.run(userId, cid, parentId);
      return row;
    },
    query,
  };
}

const DRAFT_SCHEMA: FilterSchema = {
  jsonColumn: 'd.message',
  fields: {
    channel_cid: { kind: 'text', sql: 'd.cid' },
    created_at: { kind: 'date', sql: 'd.created_at' },
    // A channel draft has no parent: `{parent_id: {$exists: false}}` finds it.
    parent_id: { kind: 'text', sql: "NULLIF(d.parent_id, '')" },
  },
};
