// The messages table and channel-history pagination. Every page is read through the
// (cid, created_at) index, whose implicit last column is the rowid `seq`; a cursor message is
// turned into its (created_at, seq) position once and compared against that, so paging stays
// one range scan on a channel with a million messages.
import { placeholders, statementCache, type Db } from './db';
import { ApiError } from '../http/errors';
import { seenByEveryone, visibilityBounds, type Bound, type Visibility } from './visibility';

export type MessageRow = {
  seq: number;
  id: string;
  cid: string;
  user_id: string;
  type: string;
  text: string;
  parent_id: string | null;
  show_in_channel: number;
  quoted_message_id: string | null;
  mentioned_user_ids: string;
  attachments: string;
  custom: string;
  reply_count: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** Pins, edits and hard deletes (migration 2). */
  pinned_at: string | null;
  pinned_by_id: string | null;
  pin_expires: string | null;
  message_text_updated_at: string | null;
  hard_deleted: number;
  /** Migration 5: a shadow-banned author's message; automatic moderation's decision (JSON). */
  shadowed: number;
  moderation: string | null;
  /** Migration 9: translations (JSON, the provider's `i18n`), and a message sent pending (1). */
  i18n: string | null;
  pending: number;
  /** The users who alone see the message besides its author (JSON ids), or null: everyone. */
  restricted_visibility: string | null;
};

export type NewMessage = {
  id: string;
  cid: string;
  userId: string;
  type: string;
  text: string;
  parentId: string | null;
  showInChannel: boolean;
  quotedMessageId: string | null;
  mentionedUserIds: string[];
  attachments: unknown[];
  custom: Record<string, unknown>;
  now: string;
  /** Sent by a shadow-banned author: stored, seen by no one else. */
  shadowed?: boolean;
  /** What automatic moderation decided, as JSON (a blocklist match that flags). */
  moderation?: string | null;
  /** Sent pending: stored, seen by its author alone until committed. */
  pending?: boolean;
  /** Seen only by these users and its author (`restricted_visibility`). */
  restrictedVisibility?: string[] | null;
};

/** The SDK's MessagePaginationOptions, already validated. */
export type PageOptions = {
  limit: number;
  offset?: number;
  id_lt?: string;
  id_lte?: string;
  id_gt?: string;
  id_gte?: string;
  id_around?: string;
  created_at_before?: string;
  created_at_before_or_equal?: string;
  created_at_after?: string;
  created_at_after_or_equal?: string;
  created_at_around?: string;
};

export type Position = { created_at: string; seq: number };
export type { Bound };

// Thread replies appear in the channel only when sent with show_in_channel.
const IN_CHANNEL = '(parent_id IS NULL OR show_in_channel = 1)';

export function createMessageStore(db: Db) {
  const prepared = statementCache(db);
  // The stored row comes back from the insert itself (its seq and defaults): no second lookup.
  const insert = db.prepare<[Record<string, unknown>], MessageRow>(
    `INSERT INTO messages (id, cid, user_id, type, text, parent_id, show_in_channel, quoted_message_id,
       mentioned_user_ids, attachments, custom, created_at, updated_at, shadowed, moderation, pending, restricted_visibility)
     VALUES (@id, @cid, @userId, @type, @text, @parentId, @showInChannel, @quotedMessageId,
       @mentionedUserIds, @attachments, @custom, @now, @now, @shadowed, @moderation, @pending, @restrictedVisibility)
     RETURNING *`,
  );
  const byId = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE id = ?');
  const positionOf = db.prepare<[string, string], Position>(
    'SELECT created_at, seq FROM messages WHERE id = ? AND cid = ?',
  );
  const latest = db.prepare<[string], MessageRow>(
    `SELECT * FROM messages WHERE cid = ? AND ${IN_CHANNEL} AND ${seenByEveryone()}
     ORDER BY created_at DESC, seq DESC LIMIT 1`,
  );
  const bumpReplies = db.prepare('UPDATE messages SET reply_count = reply_count + 1 WHERE id = ?');

  function add(message: NewMessage): MessageRow {
    return insert.get({
      ...message,
      showInChannel: message.showInChannel ? 1 : 0,
      shadowed: message.shadowed ? 1 : 0,
      pending: message.pending ? 1 : 0,
      moderation: message.moderation ?? null,
      restrictedVisibility: message.restrictedVisibility?.length ? JSON.stringify(message.restrictedVisibility) : null,
      mentionedUserIds: JSON.stringify(message.mentionedUserIds),
      attachments: JSON.stringify(message.attachments),
      custom: JSON.stringify(message.custom),
    }) as MessageRow;
  }

  function getMany(ids: Iterable<string>): Map<string, MessageRow> {
    const unique = [...new Set(ids)];
    const found = new Map<string, MessageRow>();
    if (!unique.length) return found;
    const rows = prepared<string[], MessageRow>(`SELECT * FROM messages WHERE id IN (${placeholders(unique.length)})`).all(...unique);
    for (const row of rows) found.set(row.id, row);
    return found;
  }

  function position(cid: string, id: string): Position {
    const found = positionOf.get(id, cid);
    if (!found) throw ApiError.input(`message ${id} does not exist in channel ${cid}`);
    return found;
  }

  function scan(cid: string, bounds: Bound[], order: 'ASC' | 'DESC', limit: number, offset = 0): MessageRow[] {
    const where = bounds.map((b) => `AND ${b.sql}`).join(' ');
    return prepared(
      `SELECT * FROM messages WHERE cid = ? AND ${IN_CHANNEL} ${where}
         ORDER BY created_at ${order}, seq ${order} LIMIT ? OFFSET ?`,
    ).all(cid, ...bounds.flatMap((b) => b.params), limit, offset) as MessageRow[];
  }

  /** One page of channel history, oldest first, as ChannelAPIResponse.messages expects. */
  function page(cid: string, options: PageOptions, visibility?: Visibility): MessageRow[] {
    const { limit } = options;
    if (limit === 0) return [];
    const visible = visibilityBounds(visibility);
    if (options.id_around) return aroundMessage(cid, options.id_around, limit, visible);
    if (options.created_at_around) return aroundTime(cid, options.created_at_around, limit, visible);

    const upper: Bound[] = [...visible];
    const lower: Bound[] = [];
    if (options.id_lt) upper.push(before(position(cid, options.id_lt), false));
    if (options.id_lte) upper.push(before(position(cid, options.id_lte), true));
    if (options.id_gt) lower.push(after(position(cid, options.id_gt), false));
    if (options.id_gte) lower.push(after(position(cid, options.id_gte), true));
    if (options.created_at_before) upper.push({ sql: 'created_at < ?', params: [options.created_at_before] });
    if (options.created_at_before_or_equal) {
      upper.push({ sql: 'created_at <= ?', params: [options.created_at_before_or_equal] });
    }
    if (options.created_at_after) lower.push({ sql: 'created_at > ?', params: [options.created_at_after] });
    if (options.created_at_after_or_equal) {
      lower.push({ sql: 'created_at >= ?', params: [options.created_at_after_or_equal] });
    }
    // Only a lower bound means "the next page after the cursor": read forward from it.
    // Anything else reads backwards from the newest message that qualifies.
    if (lower.length && upper.length === visible.length) return scan(cid, [...visible, ...lower], 'ASC', limit, options.offset);
    return scan(cid, [...upper, ...lower], 'DESC', limit, options.offset).reverse();
  }

  /**
   * `limit` messages with the target at index floor(limit / 2) where history allows; the SDK's
   * messagePaginationIdAround reads hasPrev/hasNext from where the target lands.
   */
  function aroundMessage(cid: string, id: string, limit: number, visible: Bound[]): MessageRow[] {
    const anchor = byId.get(id);
    if (!anchor || anchor.cid !== cid) throw ApiError.input(`message ${id} does not exist in channel ${cid}`);
    const older = scan(cid, [...visible, before(anchor, false)], 'DESC', limit - 1);
    const newer = scan(cid, [...visible, after(anchor, false)], 'ASC', limit - 1);
    return window(older, [anchor], newer, limit - 1);
  }

  function aroundTime(cid: string, at: string, limit: number, visible: Bound[]): MessageRow[] {
    const older = scan(cid, [...visible, { sql: 'created_at < ?', params: [at] }], 'DESC', limit);
    const newer = scan(cid, [...visible, { sql: 'created_at >= ?', params: [at] }], 'ASC', limit);
    return window(older, [], newer, limit);
  }

  return {
    add,
    get: (id: string) => byId.get(id),
    getMany,
    page,
    /** The channel's newest message everyone may see: the read marker all its watchers hear of. */
    latestInChannel: (cid: string) => latest.get(cid),
    incrementReplyCount: (id: string) => void bumpReplies.run(id),
  };
}

export function before(at: Position, inclusive: boolean): Bound {
  // The created_at <= ? term is what lets SQLite scan the index range.
  return {
    sql: `(created_at <= ? AND (created_at < ? OR seq ${inclusive ? '<=' : '<'} ?))`,
    params: [at.created_at, at.created_at, at.seq],
  };
}

export function after(at: Position, inclusive: boolean): Bound {
  return {
    sql: `(created_at >= ? AND (created_at > ? OR seq ${inclusive ? '>=' : '>'} ?))`,
    params: [at.created_at, at.created_at, at.seq],
  };
}

/** Joins `older` (nearest first), `middle` and `newer` (nearest first) into `slots` + middle rows. */
export function window(older: MessageRow[], middle: MessageRow[], newer: MessageRow[], slots: number): MessageRow[] {
  const half = Math.floor((slots + middle.length) / 2);
  const olderCount = Math.min(older.length, Math.max(half, slots - newer.length));
  const newerCount = Math.min(newer.length, slots - olderCount);
  return [...older.slice(0, olderCount).reverse(), ...middle, ...newer.slice(0, newerCount)];
}
