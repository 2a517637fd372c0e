// Message reads beyond channel history: thread replies (paged like history, on the
// (parent_id, created_at) index), messages by id, and the counts behind "mark unread".
import { placeholders, statementCache, type Db } from './db';
import { ApiError } from '../http/errors';
import { after, before, window, type Bound, type MessageRow, type PageOptions, type Position } from './messages';
import { SEEN_BY, seenByEveryone, seenByParams, visibilityBounds, type Visibility } from './visibility';

/** Channel history: top-level messages and replies also shown in the channel. */
const IN_CHANNEL = '(parent_id IS NULL OR show_in_channel = 1)';

export type ReplyOptions = PageOptions & { newestFirst: boolean };

export function createMessageQueryStore(db: Db) {
  const prepared = statementCache(db);
  const replyAt = db.prepare<[string, string], Position>(
    'SELECT created_at, seq FROM messages WHERE id = ? AND parent_id = ?',
  );
  // What "mark unread" reads is what the reader sees of the channel (SEEN_BY, seenByParams).
  const previous = db.prepare<[string, string, string, string, string, number], MessageRow>(
    `SELECT * FROM messages WHERE cid = ? AND ${IN_CHANNEL} AND pending = 0 AND ${SEEN_BY}
       AND created_at <= ? AND (created_at < ? OR seq < ?)
     ORDER BY created_at DESC, seq DESC LIMIT 1`,
  );
  const firstSince = db.prepare<[string, string, string, string], MessageRow>(
    `SELECT * FROM messages WHERE cid = ? AND ${IN_CHANNEL} AND pending = 0 AND ${SEEN_BY} AND created_at >= ?
     ORDER BY created_at ASC, seq ASC LIMIT 1`,
  );
  const countFrom = db.prepare<[string, string, string, string, string, string, number], { n: number }>(
    `SELECT COUNT(*) AS n FROM messages WHERE cid = ? AND ${IN_CHANNEL} AND deleted_at IS NULL AND pending = 0 AND user_id != ?
       AND ${SEEN_BY} AND created_at >= ? AND (created_at > ? OR seq >= ?)`,
  );
  const repliesFrom = db.prepare<[string, string, string, string, string, string, number], { n: number }>(
    `SELECT COUNT(*) AS n FROM messages WHERE parent_id = ? AND deleted_at IS NULL AND pending = 0 AND user_id != ?
       AND ${SEEN_BY} AND created_at >= ? AND (created_at > ? OR seq >= ?)`,
  );
  const lastSent = db.prepare<[string, string], { at: string }>(
    'SELECT created_at AS at FROM messages WHERE user_id = ? AND cid = ? ORDER BY created_at DESC LIMIT 1',
  );
  const latestReplies = db.prepare<[string, number], MessageRow>(
    'SELECT * FROM messages WHERE parent_id = ? AND pending = 0 ORDER BY created_at DESC, seq DESC LIMIT ?',
  );
  // A thread's read marker goes to all the channel's watchers: only a reply everyone may see.
  const latestSharedReply = db.prepare<[string], MessageRow>(
    `SELECT * FROM messages WHERE parent_id = ? AND ${seenByEveryone()}
     ORDER BY created_at DESC, seq DESC LIMIT 1`,
  );

  function scanReplies(parentId: string, bounds: Bound[], order: 'ASC' | 'DESC', limit: number, offset = 0) {
    const where = bounds.map((b) => `AND ${b.sql}`).join(' ');
    return db
      .prepare(
        `SELECT * FROM messages WHERE parent_id = ? ${where}
         ORDER BY created_at ${order}, seq ${order} LIMIT ? OFFSET ?`,
      )
      .all(parentId, ...bounds.flatMap((b) => b.params), limit, offset) as MessageRow[];
  }

  function replyPosition(parentId: string, id: string): Position {
    const found = replyAt.get(id, parentId);
    if (!found) throw ApiError.input(`message ${id} is not a reply of ${parentId}`);
    return found;
  }

  /**
   * A page of a thread's replies, always oldest first (Thread.loadPage appends or prepends the
   * page as a block). Without a cursor, `newestFirst` (no sort, or created_at -1, the SDK's
   * default) takes the newest replies; an ascending sort takes the oldest.
   */
  function replies(parentId: string, options: ReplyOptions, visibility?: Visibility): MessageRow[] {
    const { limit } = options;
    if (limit === 0) return [];
    const visible = visibilityBounds(visibility);
    if (options.id_around) {
      const anchor = replyPosition(parentId, options.id_around);
      const older = scanReplies(parentId, [...visible, before(anchor, false)], 'DESC', limit - 1);
      const newer = scanReplies(parentId, [...visible, after(anchor, false)], 'ASC', limit - 1);
      const middle = scanReplies(parentId, [...visible, before(anchor, true), after(anchor, true)], 'ASC', 1);
      return window(older, middle, newer, limit - 1);
    }
    const upper: Bound[] = [...visible];
    const lower: Bound[] = [];
    if (options.id_lt) upper.push(before(replyPosition(parentId, options.id_lt), false));
    if (options.id_lte) upper.push(before(replyPosition(parentId, options.id_lte), true));
    if (options.id_gt) lower.push(after(replyPosition(parentId, options.id_gt), false));
    if (options.id_gte) lower.push(after(replyPosition(parentId, options.id_gte), true));
    if (options.created_at_before) upper.push({ sql: 'created_at < ?', params: [options.created_at_before] });
    if (options.created_at_after) lower.push({ sql: 'created_at > ?', params: [options.created_at_after] });
    const forward = upper.length === visible.length && (lower.length > 0 || !options.newestFirst);
    if (forward) return scanReplies(parentId, [...visible, ...lower], 'ASC', limit, options.offset);
    return scanReplies(parentId, [...upper, ...lower], 'DESC', limit, options.offset).reverse();
  }

  return {
    replies,
    /** When the user last sent a message in the channel (slow mode). */
    lastSentAt: (cid: string, userId: string) => lastSent.get(userId, cid)?.at,
    /** The newest `limit` replies of a thread, oldest first. */
    latestReplies: (parentId: string, limit: number) => latestReplies.all(parentId, limit).reverse(),
    /** The thread's newest reply that everyone may see: the read marker others hear of. */
    latestSharedReply: (parentId: string) => latestSharedReply.get(parentId),
    /** Messages of one channel by id, in the order asked; ids elsewhere are left out. */
    inChannel(cid: string, ids: string[]): MessageRow[] {
      if (!ids.length) return [];
      const rows = prepared<string[], MessageRow>(`SELECT * FROM messages WHERE cid = ? AND id IN (${placeholders(ids.length)})`).all(cid, ...ids);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },
    /** The channel message just before `at` that the reader sees, if any. */
    previousInChannel: (cid: string, at: Position, readerId: string) => previous.get(cid, ...seenByParams(readerId), at.created_at, at.created_at, at.seq),
    /** The first channel message at or after `time` that the reader sees. */
    firstSince: (cid: string, time: string, readerId: string) => firstSince.get(cid, ...seenByParams(readerId), time),
    /** Messages from others the user sees at or after `at` in the channel: the unread count of a mark-unread. */
    countFrom: (cid: string, userId: string, at: Position) =>
      countFrom.get(cid, userId, ...seenByParams(userId), at.created_at, at.created_at, at.seq)?.n ?? 0,
    repliesFrom: (parentId: string, userId: string, at: Position) =>
      repliesFrom.get(parentId, userId, ...seenByParams(userId), at.created_at, at.created_at, at.seq)?.n ?? 0,
  };
}
