// Bans: from one channel (`channel_bans`) or from the whole app (`global_bans`, cid null here).
// A banned user keeps reading but may not write until unbanned or until the ban expires; a
// shadow ban lets them write, but what they send is seen by them alone. Expired rows stay (the
// ban query can still list them) and are simply no longer in force.
import { nowIso, type Db } from './db';
import { filtersToSql, sortToSql, type FilterSchema } from './filters-to-sql';

export type BanRow = {
  /** null: an app-wide ban. */
  cid: string | null;
  user_id: string;
  created_by_id: string | null;
  reason: string | null;
  expires: string | null;
  shadow: number;
  created_at: string;
};

export type BanQuery = { filter: unknown; sort: unknown; limit: number; offset: number; excludeExpired: boolean; now: string };

const ALL_BANS = `(
  SELECT cid, user_id, created_by_id, reason, expires, shadow, created_at FROM channel_bans
  UNION ALL
  SELECT NULL, user_id, created_by_id, reason, expires, shadow, created_at FROM global_bans
)`;

const SCHEMA: FilterSchema = {
  jsonColumn: "'{}'",
  fields: {
    channel_cid: { kind: 'text', sql: 'b.cid' },
    user_id: { kind: 'text', sql: 'b.user_id' },
    banned_by_id: { kind: 'text', sql: 'b.created_by_id' },
    reason: { kind: 'text', sql: 'b.reason' },
    created_at: { kind: 'date', sql: 'b.created_at' },
  },
};

export function createBanStore(db: Db) {
  const upsertChannel = db.prepare(
    `INSERT INTO channel_bans (cid, user_id, created_by_id, reason, expires, shadow, created_at)
     VALUES (@cid, @user_id, @created_by_id, @reason, @expires, @shadow, @created_at)
     ON CONFLICT (cid, user_id) DO UPDATE SET created_by_id = excluded.created_by_id, reason = excluded.reason,
       expires = excluded.expires, shadow = excluded.shadow, created_at = excluded.created_at`,
  );
  const upsertGlobal = db.prepare(
    `INSERT INTO global_bans (user_id, created_by_id, reason, expires, shadow, created_at)
     VALUES (@user_id, @created_by_id, @reason, @expires, @shadow, @created_at)
     ON CONFLICT (user_id) DO UPDATE SET created_by_id = excluded.created_by_id, reason = excluded.reason,
       expires = excluded.expires, shadow = excluded.shadow, created_at = excluded.created_at`,
  );
  const removeChannel = db.prepare<[string, string], BanRow>(
    'DELETE FROM channel_bans WHERE cid = ? AND user_id = ? RETURNING *',
  );
  const removeGlobal = db.prepare<[string], BanRow>('DELETE FROM global_bans WHERE user_id = ? RETURNING NULL AS cid, *');
  const inChannel = db.prepare<[string, string, string], BanRow>(
    'SELECT * FROM channel_bans WHERE cid = ? AND user_id = ? AND (expires IS NULL OR expires > ?)',
  );
  const global = db.prepare<[string, string], BanRow>(
    'SELECT NULL AS cid, * FROM global_bans WHERE user_id = ? AND (expires IS NULL OR expires > ?)',
  );
  // Both kinds in one statement, for the check every send makes.
  const applying = db.prepare<[{ cid: string; user: string; now: string }], BanRow>(
    `SELECT * FROM (
       SELECT NULL AS cid, user_id, created_by_id, reason, expires, shadow, created_at FROM global_bans
         WHERE user_id = @user AND (expires IS NULL OR expires > @now)
       UNION ALL
       SELECT cid, user_id, created_by_id, reason, expires, shadow, created_at FROM channel_bans
         WHERE cid = @cid AND user_id = @user AND (expires IS NULL OR expires > @now)
     ) ORDER BY shadow, cid IS NOT NULL LIMIT 1`,
  );
  // Many users at once, for a response listing a page of them.
  const inChannelOf = db.prepare<[string, string, string], BanRow>(
    'SELECT * FROM channel_bans WHERE cid = ? AND user_id IN (SELECT value FROM json_each(?)) AND (expires IS NULL OR expires > ?)',
  );
  const globalOf = db.prepare<[string, string], BanRow>(
    'SELECT NULL AS cid, * FROM global_bans WHERE user_id IN (SELECT value FROM json_each(?)) AND (expires IS NULL OR expires > ?)',
  );

  // Everyone with a ban row, kept in memory: every send checks its author and every message
  // presented checks its user, and most users never had a ban. Only this store adds bans (the
  // server is its database's one writer: a ban written into the file by another program counts
  // from the next start), so someone outside the set has none and no query is run. Read when the
  // store opens, outside any transaction; rows removed later (an unban, a user deleted, whether
  // or not it is rolled back) leave their user in the set, which costs only the query it saves
  // for others, and a ban rolled back leaves one the same way.
  const withRows = new Set(db.prepare<[], string>('SELECT user_id FROM channel_bans UNION SELECT user_id FROM global_bans').pluck().all());
  const mayBeBanned = (userId: string) => withRows.has(userId);

  return {
    ban: (row: BanRow) => {
      if (row.cid === null) upsertGlobal.run(row);
      else upsertChannel.run(row);
      withRows.add(row.user_id);
    },
    /** The ban lifted, if there was one. */
    unban: (cid: string | null, userId: string): BanRow | undefined =>
      cid === null ? removeGlobal.get(userId) : removeChannel.get(cid, userId),
    /** The channel ban in force now, if any. */
    inChannel: (cid: string, userId: string, now?: string) => (mayBeBanned(userId) ? inChannel.get(cid, userId, now ?? nowIso()) : undefined),
    /** The app-wide ban in force now, if any. */
    global: (userId: string, now?: string) => (mayBeBanned(userId) ? global.get(userId, now ?? nowIso()) : undefined),
    /** The ban that applies in the channel now: a full ban before a shadow one, an app-wide one first. */
    applying: (cid: string, userId: string, now?: string) =>
      mayBeBanned(userId) ? applying.get({ cid, user: userId, now: now ?? nowIso() }) : undefined,
    /** The channel bans in force now among `userIds`, by user. */
    inChannelOf: (cid: string, userIds: string[], now?: string): Map<string, BanRow> => {
      const candidates = userIds.filter(mayBeBanned);
      return new Map(candidates.length ? inChannelOf.all(cid, JSON.stringify(candidates), now ?? nowIso()).map((row) => [row.user_id, row]) : []);
    },
    /** The app-wide bans in force now among `userIds`, by user. */
    globalOf: (userIds: string[], now?: string): Map<string, BanRow> => {
      const candidates = userIds.filter(mayBeBanned);
      return new Map(candidates.length ? globalOf.all(JSON.stringify(candidates), now ?? nowIso()).map((row) => [row.user_id, row]) : []);
    },
    query({ filter, sort, limit, offset, excludeExpired, now }: BanQuery): BanRow[] {
      const where = filtersToSql(filter, SCHEMA);
      const order = sortToSql(sort, SCHEMA, {
        fallback: [{ field: 'created_at', direction: -1 }],
        tiebreak: 'b.user_id ASC, b.cid ASC',
      });
      const live = excludeExpired ? 'AND (b.expires IS NULL OR b.expires > ?)' : '';
      return db
        .prepare(`SELECT b.* FROM ${ALL_BANS} b WHERE ${where.sql} ${live} ORDER BY ${order.sql} LIMIT ? OFFSET ?`)
        .all(...where.params, ...(excludeExpired ? [now] : []), ...order.params, limit, offset) as BanRow[];
    },
  };
}
