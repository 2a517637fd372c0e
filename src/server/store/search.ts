// Message search: the `message_search` FTS5 index (migration 4, kept in step with messages by
// triggers) joined back to the messages table. The caller has already turned the request into
// an FTS5 expression, SQL conditions and an order (search/message-filter.ts); this runs them over
// the given channels. Deleted messages are never found.
//
// An order by relevance reads FTS5's bm25 `rank`, so every match in the searched channels is
// scored and sorted: there is no index order to stop early on. Scoring a match is cheap; what
// costs is reading each match's message (its channel, then the other conditions). So when a
// query matches many messages (a word prefix, a common word), the matches are narrowed on the
// index itself to the searched channels' messages: their seqs, read once from the (cid,
// created_at) index, become a byte map (one byte per seq up to the highest) that the index
// walk checks with substr, a cheaper test than an IN list. Only those matches
// are scored, only the best few are read from messages and checked (ranked() below). bm25 is
// still FTS5's own over the whole index, so the order is exactly the exhaustive query's. The
// next page of such a ranking reuses it while nothing was written in between.
import type { Db } from './db';
import type { SqlFragment } from './filters-to-sql';
import type { MessageRow } from './messages';
import { visibilityBounds } from './visibility';

/**
 * An ORDER BY; `byRank` when it reads the full-text `rank` (relevance) and nothing but the
 * index's row (`s.rank`, `s.rowid`), so it can be sorted before the messages are read.
 */
export type SearchOrderSql = SqlFragment & { byRank?: boolean };

export type MessageSearchQuery = {
  /** The channels searched: those the request's channel filter names and the user may read. */
  cids: string[];
  /** FTS5 expression the text must match; undefined searches by the other conditions alone. */
  match?: string;
  where: SqlFragment;
  /** ORDER BY over `m` (messages) and, with a match, `s` (the index). */
  order: SearchOrderSql;
  /** Only messages after this one in seq order (`-1`: older ones, `1`: newer ones). */
  afterSeq?: { seq: number; direction: 1 | -1 };
  limit: number;
  offset: number;
  /** Who searches: shadowed messages and those of users they blocked are left out. */
  viewerId: string | null;
};

/**
 * Narrowing a ranked search to the channels' messages pays off when the text matches at least
 * this many messages (below it, looking each match up is as cheap as reading the channels)...
 */
export const NARROW_MIN_MATCHES = 5000;
/** ...and the channels hold fewer messages than this (more: the set costs more than it saves). */
export const NARROW_MAX_CHANNEL_MESSAGES = 200_000;

/** No byte map reaches past this seq (32 MB): beyond it, searches are exhaustive. */
export const MAX_SEQ_MAP_BYTES = 32 * 1024 * 1024;

/** The best ranked seqs of a search, in order; `complete` when they are all its matches. */
type Ranking = { seqs: number[]; complete: boolean };

/** Which seqs belong to the searched channels: `map[seq]` is 1 for those. */
type SeqMap = Buffer;

export function createSearchStore(db: Db) {
  const countMatches = db
    .prepare(`SELECT count(*) FROM (SELECT 1 FROM message_search WHERE message_search MATCH ? LIMIT ${NARROW_MIN_MATCHES})`)
    .pluck();
  const channelSeqs = db
    .prepare(
      `SELECT seq FROM messages INDEXED BY messages_cid_created_at
        WHERE cid IN (SELECT value FROM json_each(?)) LIMIT ${NARROW_MAX_CHANNEL_MESSAGES}`,
    )
    .pluck();

  /** The byte map of the channels' (a JSON list) seqs, or null when they are too many or too high. */
  function seqMap(cids: string): SeqMap | null {
    const seqs = channelSeqs.all(cids) as number[];
    if (seqs.length >= NARROW_MAX_CHANNEL_MESSAGES) return null;
    let high = -1;
    for (const seq of seqs) if (seq > high) high = seq;
    if (high < 0 || high + 1 > MAX_SEQ_MAP_BYTES) return null;
    const map = Buffer.alloc(high + 1);
    for (const seq of seqs) map[seq] = 1;
    return map;
  }

  /** The conditions on `m` every search applies, after the text and the order. */
  function conditions(query: MessageSearchQuery, seq: string) {
    const visible = visibilityBounds({ viewerId: query.viewerId });
    // What the searcher cleared for themselves (hide with clear_history, hide_history) stays gone.
    const cleared = query.viewerId
      ? 'AND m.created_at > COALESCE((SELECT history_cleared_at FROM members WHERE cid = m.cid AND user_id = ?), \'\')'
      : '';
    const after = query.afterSeq ? `AND ${seq} ${query.afterSeq.direction === -1 ? '<' : '>'} ?` : '';
    // The channel list is one JSON parameter; SQLite reads it once into a lookup table.
    return {
      sql: `m.cid IN (SELECT value FROM json_each(?))
        AND m.deleted_at IS NULL AND ${query.where.sql} ${after}
        AND m.created_at > COALESCE((SELECT truncated_at FROM channels WHERE cid = m.cid), '')
        ${cleared}
        ${visible.map((bound) => `AND ${bound.sql}`).join(' ')}`,
      params: [
        JSON.stringify(query.cids),
        ...query.where.params,
        ...(query.afterSeq ? [query.afterSeq.seq] : []),
        ...(query.viewerId ? [query.viewerId] : []),
        ...visible.flatMap((bound) => bound.params),
      ],
    };
  }

  // The best ranked seqs of recent narrowed searches, so that the next page of a ranking does
  // not rank again: kept while the database is unchanged (no write on this connection, none
  // committed by another), and used only for pages after the first. A first page always ranks.
  const rankings = new Map<string, Ranking & { version: string }>();
  const RANKINGS_KEPT = 16;
  const totalChanges = db.prepare('SELECT total_changes()').pluck();
  const version = () => `${db.pragma('data_version', { simple: true })}:${totalChanges.get()}`;
  const rankingKey = (query: MessageSearchQuery) => JSON.stringify([query.match, query.cids, query.order.sql, query.order.params]);

  /** The kept ranking for this query, when it may serve a page after the first. */
  function keptRanking(query: MessageSearchQuery) {
    if (query.offset === 0) return undefined;
    const kept = rankings.get(rankingKey(query));
    return kept && kept.version === version() ? kept : undefined;
  }

  /**
   * A relevance search narrowed to the channels' messages, in two steps. First the matches in
   * those channels are ranked on the index alone (the order reads only `s`), keeping the best
   * few pages' worth; then their messages are read and the other conditions applied, in that
   * order, in growing chunks until the page is full. When the best few run out first, the rest
   * of the ranking is made once and read on. The first rows that pass among the best ranked are
   * the first rows that pass among all, so the page is exactly the one a single query would give.
   */
  function ranked(query: MessageSearchQuery, channels: SeqMap | null): MessageRow[] {
    const cids = JSON.stringify(query.cids);
    // Each row's byte in the map says whether it is in the channels (past the map's end substr
    // gives an empty blob). Seqs start at 1; were one ever below, substr would count from the
    // end, and reading the messages after would still leave out what is not in the channels.
    const best = db.prepare(
      `SELECT s.rowid FROM message_search s
        WHERE s.message_search MATCH ? AND substr(?, s.rowid + 1, 1) = x'01'
        ORDER BY ${query.order.sql} LIMIT ?`,
    ).pluck();
    const where = conditions(query, 'm.seq');
    const rows = db.prepare(`SELECT m.* FROM messages m WHERE m.seq IN (SELECT value FROM json_each(?)) AND ${where.sql}`);
    const wanted = query.offset + query.limit;
    const key = rankingKey(query);
    let channelMap: SeqMap | null | undefined = channels ?? undefined;

    /** The best `take` (all: -1), kept for the next page; null when the channels no longer fit a map. */
    const rank = (take: number): Ranking | null => {
      channelMap ??= seqMap(cids);
      if (channelMap === null) return null;
      const seqs = best.all(query.match, channelMap, ...query.order.params, take) as number[];
      const made = { seqs, complete: take < 0 || seqs.length < take };
      rankings.delete(key);
      rankings.set(key, { ...made, version: version() });
      if (rankings.size > RANKINGS_KEPT) rankings.delete(rankings.keys().next().value as string);
      return made;
    };

    // A page after the first starts from the kept ranking, however long; it is made again in
    // full only if the page runs past it.
    const first = Math.max(4 * wanted, 64);
    let ranking = keptRanking(query) ?? rank(first);
    const passed: MessageRow[] = [];
    let checked = 0;
    for (let chunk = first; ranking !== null; chunk *= 16) {
      if (checked >= ranking.seqs.length) {
        if (ranking.complete) break;
        ranking = rank(-1);
        continue;
      }
      const slice = ranking.seqs.slice(checked, checked + chunk);
      checked += slice.length;
      const found = new Map((rows.all(JSON.stringify(slice), ...where.params) as MessageRow[]).map((row) => [row.seq, row]));
      for (const seq of slice) {
        const row = found.get(seq);
        if (row) passed.push(row);
      }
      if (passed.length >= wanted) break;
    }
    // The channels changed so much since a kept ranking that they no longer fit a map.
    if (ranking === null) return exhaustive(query);
    return passed.slice(query.offset, wanted);
  }

  /** The single query: every row that matches, ordered, then the page. */
  function exhaustive(query: MessageSearchQuery): MessageRow[] {
    const text = query.match !== undefined;
    const seq = text ? 's.rowid' : 'm.seq';
    const where = conditions(query, seq);
    const sql = `SELECT m.* FROM ${text ? 'message_search s JOIN messages m ON m.seq = s.rowid' : 'messages m'}
      WHERE ${text ? 's.message_search MATCH ? AND' : ''} ${where.sql}
      ORDER BY ${query.order.sql} LIMIT ? OFFSET ?`;
    const params = [...(text ? [query.match] : []), ...where.params, ...query.order.params, query.limit, query.offset];
    return db.prepare(sql).all(...params) as MessageRow[];
  }

  function messages(query: MessageSearchQuery): MessageRow[] {
    if (query.cids.length === 0 || query.limit === 0) return [];
    if (query.match !== undefined && query.order.byRank === true && !query.afterSeq) {
      if (keptRanking(query)) return ranked(query, null);
      // Narrowed when the text matches many messages and the channels' seqs fit a map.
      if ((countMatches.get(query.match) as number) >= NARROW_MIN_MATCHES) {
        const channels = seqMap(JSON.stringify(query.cids));
        if (channels) return ranked(query, channels);
      }
    }
    return exhaustive(query);
  }

  return { messages };
}
