// The users table: identity, role, display fields and custom data (a JSON column), the user's
// lifecycle (deactivation, deletion, token revocation), and the footprint a user leaves in other
// tables, which deleting and exporting a user walk.
import type { Db } from './db';
import { nowIso, placeholders } from './db';
import { readStateChanged } from './reads';
import { ApiError } from '../http/errors';
import { filtersToSql, sortToSql, type FilterSchema, type SqlFragment } from './filters-to-sql';
import type { MessageRow } from './messages';
import type { ReactionRow } from './reactions';
import { seenByEveryone } from './visibility';

export type UserRow = {
  id: string;
  role: string;
  name: string | null;
  image: string | null;
  custom: string;
  created_at: string;
  updated_at: string;
  last_active: string | null;
  /** The user's lifecycle (migration 5): deactivated users cannot connect or call anything. */
  deactivated_at: string | null;
  deleted_at: string | null;
  /** Tokens issued (iat) before this instant are refused. */
  revoke_tokens_issued_before: string | null;
};

/** The writable part of a user; `undefined` keeps the stored value. */
export type UserPatch = {
  id: string;
  role?: string;
  name?: string | null;
  image?: string | null;
  custom?: Record<string, unknown>;
  lastActive?: string;
};

/** The user's own fields as a whole (a partial update computes them from the stored row). */
export type UserFields = { role: string; name: string | null; image: string | null; custom: Record<string, unknown> };

/** The lifecycle columns; `undefined` keeps the stored value. */
export type Lifecycle = Partial<Pick<UserRow, 'deactivated_at' | 'deleted_at' | 'revoke_tokens_issued_before'>>;

export type UserQuery = {
  filter: unknown;
  sort: unknown;
  limit: number;
  offset: number;
  /** Connected user ids, for the computed `online` field. */
  onlineIds: string[];
  /** Deactivated users are left out unless asked for (`include_deactivated_users`). */
  includeDeactivated: boolean;
};

/** Users kept in memory by id (about half a kilobyte each). */
const ROW_CACHE_MAX = 20_000;

export function createUserStore(db: Db) {
  const byId = db.prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?');
  const insert = db.prepare(
    `INSERT INTO users (id, role, name, image, custom, created_at, updated_at, last_active)
     VALUES (@id, @role, @name, @image, @custom, @now, @now, @last_active)`,
  );
  const update = db.prepare(
    `UPDATE users SET role = @role, name = @name, image = @image, custom = @custom,
       last_active = @last_active, updated_at = @now WHERE id = @id`,
  );
  const count = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM users');
  const write = db.prepare(
    'UPDATE users SET role = @role, name = @name, image = @image, custom = @custom, updated_at = @now WHERE id = @id',
  );
  const footprint = createFootprint(db);
  const removal = db.prepare<[string], { deleted_at: string }>('SELECT deleted_at FROM deleted_users WHERE id = ?');

  // Rows by id, bounded: a channel's page presents a few hundred users, and joining a big room
  // read them all again for every joiner. Kept only outside a transaction (a row read inside one
  // may yet be rolled back), frozen (a caller that changed one would change it for everyone),
  // and dropped by every write below before it runs.
  const rows = new Map<string, Readonly<UserRow>>();
  function remember(row: UserRow): UserRow {
    if (db.inTransaction) return row;
    if (rows.size >= ROW_CACHE_MAX) rows.delete(rows.keys().next().value as string);
    rows.set(row.id, Object.freeze(row));
    return row;
  }

  function get(id: string): UserRow | undefined {
    const known = rows.get(id);
    if (known) return known;
    const row = byId.get(id);
    return row && remember(row);
  }

  // One statement for any number of ids: preparing one per list length cost more than the query.
  const many = db.prepare<[string], UserRow>('SELECT * FROM users WHERE id IN (SELECT value FROM json_each(?))');
  function getMany(ids: Iterable<string>): Map<string, UserRow> {
    const found = new Map<string, UserRow>();
    const missing: string[] = [];
    for (const id of ids) {
      if (found.has(id)) continue;
      const known = rows.get(id);
      if (known) found.set(id, known);
      else missing.push(id);
    }
    if (!missing.length) return found;
    for (const row of many.all(JSON.stringify([...new Set(missing)]))) found.set(row.id, remember(row));
    return found;
  }

  /** Inserts or merges: fields left undefined keep their stored values; custom fields merge. */
  function upsert(patch: UserPatch): UserRow {
    const now = nowIso();
    const existing = get(patch.id);
    const custom = { ...(existing ? (JSON.parse(existing.custom) as object) : {}), ...patch.custom };
    const row = {
      id: patch.id,
      role: patch.role ?? existing?.role ?? 'user',
      name: patch.name !== undefined ? patch.name : (existing?.name ?? null),
      image: patch.image !== undefined ? patch.image : (existing?.image ?? null),
      custom: JSON.stringify(custom),
      last_active: patch.lastActive ?? existing?.last_active ?? null,
      now,
    };
    rows.delete(patch.id);
    (existing ? update : insert).run(row);
    return get(patch.id) as UserRow;
  }

  /** A user that authenticated with a valid token exists from then on, even before connecting. */
  function ensure(id: string): UserRow {
    return get(id) ?? upsert({ id });
  }

  function query({ filter, sort, limit, offset, onlineIds, includeDeactivated }: UserQuery): UserRow[] {
    const schema = userSchema(onlineIds);
    const where = filtersToSql(filter, schema);
    const order = sortToSql(sort, schema, {
      fallback: [{ field: 'created_at', direction: 1 }],
      tiebreak: 'u.id ASC',
    });
    // Deleted users no longer appear in queries; deactivated ones only when asked for.
    const standing = includeDeactivated ? 'u.deleted_at IS NULL' : 'u.deleted_at IS NULL AND u.deactivated_at IS NULL';
    return db
      .prepare(`SELECT u.* FROM users u WHERE ${standing} AND ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`)
      .all(...where.params, ...order.params, limit, offset) as UserRow[];
  }

  /** Replaces the user's own fields (custom data as a whole). */
  function replace(id: string, fields: UserFields): UserRow | undefined {
    rows.delete(id);
    write.run({ id, ...fields, custom: JSON.stringify(fields.custom), now: nowIso() });
    return get(id);
  }

  /** Sets lifecycle columns (deactivated_at, deleted_at, revoke_tokens_issued_before). */
  function setLifecycle(id: string, changes: Lifecycle): UserRow | undefined {
    const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
    if (entries.length) {
      rows.delete(id);
      // Column names come from the Lifecycle type, never from request input.
      const sets = entries.map(([column]) => `${column} = @${column}`).join(', ');
      db.prepare(`UPDATE users SET ${sets}, updated_at = @now WHERE id = @id`).run({ id, now: nowIso(), ...Object.fromEntries(entries) });
    }
    return get(id);
  }

  return {
    get,
    getMany,
    upsert,
    ensure,
    query,
    replace,
    setLifecycle,
    count: () => count.get()?.n ?? 0,
    /** When the id was last removed for good (hard-deleted), if ever; kept when the id is used again. */
    removedAt: (id: string): string | undefined => removal.get(id)?.deleted_at,
    ...footprint,
    removeCompletely(userId: string, newOwnerId: string | null): void {
      rows.delete(userId);
      footprint.removeCompletely(userId, newOwnerId);
    },
  };
}

/** What a user left elsewhere: their messages, reactions and 1:1 conversations, and its removal. */
function createFootprint(db: Db) {
  const messagesAfter = db.prepare<[string, number, number], MessageRow>(
    'SELECT * FROM messages WHERE user_id = ? AND seq > ? ORDER BY seq LIMIT ?',
  );
  const deletedAt = db.prepare<[string, string, number, number], MessageRow>(
    'SELECT * FROM messages WHERE user_id = ? AND deleted_at = ? AND hard_deleted = 0 AND seq > ? ORDER BY seq LIMIT ?',
  );
  const reactions = db.prepare<[string], ReactionRow>('SELECT * FROM reactions WHERE user_id = ? ORDER BY created_at');
  // Distinct channels (created from a member list) that hold only the user and one other.
  const conversations = db.prepare<[string], { cid: string }>(
    `SELECT c.cid FROM channels c JOIN members m ON m.cid = c.cid
     WHERE m.user_id = ? AND c.id LIKE '!members-%' AND c.member_count <= 2`,
  );
  // A removed message takes its thread with it: replies never point at a missing parent.
  const removeReplies = db.prepare('DELETE FROM messages WHERE parent_id = ?');
  const removeMessage = db.prepare('DELETE FROM messages WHERE id = ?');
  const recountReplies = db.prepare(
    // As a send counts them (features/messages/store-message.ts): replies everyone may see.
    `UPDATE messages SET reply_count = (
       SELECT COUNT(*) FROM messages r
       WHERE r.parent_id = @id AND ${seenByEveryone('r')}
     ) WHERE id = @id`,
  );
  const channelsOf = db.prepare<[string], { cid: string }>('SELECT cid FROM members WHERE user_id = ?');
  const recountMembers = db.prepare(
    'UPDATE channels SET member_count = (SELECT COUNT(*) FROM members WHERE cid = @cid) WHERE cid = @cid',
  );
  // Every row that names the user (the foreign keys to users(id)), dependants first.
  const removeAll = [
    'DELETE FROM poll_votes WHERE user_id = @id',
    'DELETE FROM polls WHERE created_by_id = @id',
    'DELETE FROM reactions WHERE user_id = @id',
    'DELETE FROM reads WHERE user_id = @id',
    'DELETE FROM members WHERE user_id = @id',
    'DELETE FROM thread_participants WHERE user_id = @id',
    'DELETE FROM user_mutes WHERE user_id = @id OR target_id = @id',
    'DELETE FROM channel_mutes WHERE user_id = @id',
    "DELETE FROM flags WHERE user_id = @id OR (target_kind = 'user' AND target_id = @id)",
    'DELETE FROM reminders WHERE user_id = @id',
    'DELETE FROM drafts WHERE user_id = @id',
    'DELETE FROM channel_bans WHERE user_id = @id',
    'DELETE FROM devices WHERE user_id = @id',
    'DELETE FROM push_preferences WHERE user_id = @id',
    'UPDATE channels SET created_by_id = @newOwnerId WHERE created_by_id = @id',
    'DELETE FROM users WHERE id = @id',
    // The tombstone: a token issued before this instant must not bring the user back.
    `INSERT INTO deleted_users (id, deleted_at) VALUES (@id, @now)
     ON CONFLICT (id) DO UPDATE SET deleted_at = excluded.deleted_at`,
  ].map((sql) => db.prepare(sql));

  /** Removes messages for good, with their threads; the threads they replied in lose a reply. */
  function removeMessages(rows: Pick<MessageRow, 'id' | 'parent_id'>[]): void {
    for (const row of rows) {
      removeReplies.run(row.id);
      removeMessage.run(row.id);
      if (row.parent_id) recountReplies.run({ id: row.parent_id });
    }
  }

  return {
    /** The user's messages after `afterSeq`, oldest first: a chunk of a walk over all of them. */
    messagesOf: (userId: string, afterSeq: number, limit: number) => messagesAfter.all(userId, afterSeq, limit),
    /** The user's messages soft-deleted at exactly `at` (by their deactivation), a chunk at a time. */
    messagesDeletedAt: (userId: string, at: string, afterSeq: number, limit: number) => deletedAt.all(userId, at, afterSeq, limit),
    reactionsOf: (userId: string) => reactions.all(userId),
    conversationsOf: (userId: string) => conversations.all(userId).map((row) => row.cid),
    removeMessages,
    /**
     * Removes the user and every row that names them; channels they created pass to `newOwnerId`.
     * The id is recorded in deleted_users with the removal's date (see removedAt).
     */
    removeCompletely(userId: string, newOwnerId: string | null): void {
      removeMessages(messagesAfter.all(userId, 0, Number.MAX_SAFE_INTEGER));
      const channels = channelsOf.all(userId).map((row) => row.cid);
      const now = nowIso();
      readStateChanged(db, userId);
      for (const statement of removeAll) statement.run({ id: userId, newOwnerId, now });
      for (const cid of channels) recountMembers.run({ cid });
    },
  };
}

function userSchema(onlineIds: string[]): FilterSchema {
  return {
    jsonColumn: 'u.custom',
    fields: {
      id: { kind: 'text', sql: 'u.id' },
      name: { kind: 'text', sql: 'u.name' },
      role: { kind: 'text', sql: 'u.role' },
      created_at: { kind: 'date', sql: 'u.created_at' },
      updated_at: { kind: 'date', sql: 'u.updated_at' },
      last_active: { kind: 'date', sql: 'u.last_active' },
      // An app-wide ban in force (shadow bans are not shown).
      banned: {
        kind: 'boolean',
        sql: "EXISTS (SELECT 1 FROM global_bans b WHERE b.user_id = u.id AND b.shadow = 0 AND (b.expires IS NULL OR b.expires > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))",
      },
      online: {
        compile: (op, value): SqlFragment => {
          if (op !== '$eq' || typeof value !== 'boolean') {
            throw ApiError.input('online only supports {online: true|false}');
          }
          const marks = placeholders(onlineIds.length);
          const isOnline = onlineIds.length ? `u.id IN (${marks})` : '0';
          return { sql: value ? `(${isOnline})` : `(NOT ${isOnline})`, params: [...onlineIds] };
        },
      },
    },
  };
}
