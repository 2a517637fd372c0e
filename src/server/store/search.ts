// Message search: the `message_search` FTS5 index (migration 4, kept in step with messages by
// triggers) joined back to the messages table. The caller has already turned the request into
// an FTS5 expression, SQL conditions and an order (search/message-filter.ts); this runs them over
// the given channels. Deleted messages are never found.
import type { Db } from './db';
import type { SqlFragment } from './filters-to-sql';
import type { MessageRow } from './messages';
import { visibilityBounds } from './visibility';

export type MessageSearchQuery = {
  /** The channels searched: those the request's channel filter names and the user may read. */
  cids: string[];
  /** FTS5 expression the text must match; undefined searches by the other conditions alone. */
  match?: string;
  where: SqlFragment;
  /** ORDER BY over `m` (messages) and, with a match, `s` (the index). */
  order: SqlFragment;
  /** Only messages after this one in seq order (`-1`: older ones, `1`: newer ones). */
  afterSeq?: { seq: number; direction: 1 | -1 };
  limit: number;
  offset: number;
  /** Who searches: shadowed messages and those of users they blocked are left out. */
  viewerId: string | null;
};

export function createSearchStore(db: Db) {
  function messages(query: MessageSearchQuery): MessageRow[] {
    if (query.cids.length === 0 || query.limit === 0) return [];
    const text = query.match !== undefined;
    const seq = text ? 's.rowid' : 'm.seq';
    const visible = visibilityBounds({ viewerId: query.viewerId });
    // What the searcher cleared for themselves (hide with clear_history, hide_history) stays gone.
    const cleared = query.viewerId
      ? 'AND m.created_at > COALESCE((SELECT history_cleared_at FROM members WHERE cid = m.cid AND user_id = ?), \'\')'
      : '';
    const after = query.afterSeq ? `AND ${seq} ${query.afterSeq.direction === -1 ? '<' : '>'} ?` : '';
    // The channel list is one JSON parameter; SQLite reads it once into a lookup table.
    const sql = `SELECT m.* FROM ${text ? 'message_search s JOIN messages m ON m.seq = s.rowid' : 'messages m'}
      WHERE ${text ? 's.message_search MATCH ? AND' : ''} m.cid IN (SELECT value FROM json_each(?))
        AND m.deleted_at IS NULL AND ${query.where.sql} ${after}
        AND m.created_at > COALESCE((SELECT truncated_at FROM channels WHERE cid = m.cid), '')
        ${cleared}
        ${visible.map((bound) => `AND ${bound.sql}`).join(' ')}
      ORDER BY ${query.order.sql} LIMIT ? OFFSET ?`;
    const params = [
      ...(text ? [query.match] : []),
      JSON.stringify(query.cids),
      ...query.where.params,
      ...(query.afterSeq ? [query.afterSeq.seq] : []),
      ...(query.viewerId ? [query.viewerId] : []),
      ...visible.flatMap((bound) => bound.params),
      ...query.order.params,
      query.limit,
      query.offset,
    ];
    return db.prepare(sql).all(...params) as MessageRow[];
  }

  return { messages };
}
