// Flags: a user reporting a message or another user for moderators to review, and the
// moderators' verdicts. Flagging the same target again updates the reason; unflagging removes
// the row. Automatic moderation (a blocklist that flags) files its flag in the author's name on a
// message it marked (messages.moderation): the author's flag on such a message is the automod's.
// The site owner's server may also flag a message for its own author; on an unmarked message
// that flag is the author's. One review (`flag_reviews`, with the reviewer's details) covers
// every flag on a target; a report is a flagged message with all its flags.
import type { Db } from './db';
import { filtersToSql, type FieldDef, type FilterSchema } from './filters-to-sql';

export type FlagKind = 'message' | 'user';
export type FlagRow = {
  user_id: string;
  target_kind: FlagKind;
  target_id: string;
  reason: string | null;
  created_at: string;
  updated_at: string;
};

type Review = {
  review_result: string | null;
  reviewed_by: string | null;
  reviewed_at: string | null;
  /** The reviewer's notes (`review_details`), JSON. */
  review_details: string | null;
};

/** A flag with what the queries need to know about its target. */
export type FlagEntry = FlagRow & Review & { channel_cid: string | null; automod: number };

/** Everything flagged about one message. */
export type ReportRow = Review & {
  id: string;
  flags_count: number;
  first_reporter_id: string;
  automod: number;
  created_at: string;
  updated_at: string;
};

export type FlagQuery = { filter: unknown; limit: number; offset: number };

const ENTRIES = `(
  SELECT f.*, m.cid AS channel_cid, m.user_id AS message_user_id,
    COALESCE(m.user_id, CASE WHEN f.target_kind = 'user' THEN f.target_id END) AS flagged_user_id,
    CASE WHEN f.user_id = m.user_id AND m.moderation IS NOT NULL THEN 1 ELSE 0 END AS automod,
    r.review_result, r.reviewed_by, r.reviewed_at, r.review_details
  FROM flags f
  LEFT JOIN messages m ON f.target_kind = 'message' AND m.id = f.target_id
  LEFT JOIN flag_reviews r ON r.target_kind = f.target_kind AND r.target_id = f.target_id
)`;

const COMMON: Record<string, FieldDef> = {
  channel_cid: { kind: 'text', sql: 'e.channel_cid' },
  message_id: { kind: 'text', sql: "(CASE WHEN e.target_kind = 'message' THEN e.target_id END)" },
  message_user_id: { kind: 'text', sql: 'e.message_user_id' },
  reporter_id: { kind: 'text', sql: 'e.user_id' },
  review_result: { kind: 'text', sql: 'e.review_result' },
  reviewed_by: { kind: 'text', sql: 'e.reviewed_by' },
  is_reviewed: { kind: 'boolean', sql: '(e.reviewed_at IS NOT NULL)' },
  created_by_automod: { kind: 'boolean', sql: 'e.automod' },
  created_at: { kind: 'date', sql: 'e.created_at' },
};

// `user_id` means the user the flag is about: the flagged user (queryFlags; for a message, its
// author), the flagged message's author (queryMessageFlags, as the provider documents it), the
// message's author (reports). The reporter is `reporter_id`.
const schema = (userId: string, extra: Record<string, FieldDef> = {}): FilterSchema => ({
  jsonColumn: "'{}'",
  fields: { ...COMMON, ...extra, user_id: { kind: 'text', sql: userId } },
});
const FLAGS = schema('e.flagged_user_id');
const MESSAGE_FLAGS = schema('e.message_user_id');
const REPORTS = schema('e.message_user_id', { report_id: { kind: 'text', sql: 'e.target_id' } });

export function createFlagStore(db: Db) {
  const put = db.prepare(
    `INSERT INTO flags (user_id, target_kind, target_id, reason, created_at, updated_at)
     VALUES (@userId, @kind, @targetId, @reason, @now, @now)
     ON CONFLICT (user_id, target_kind, target_id) DO UPDATE SET reason = @reason, updated_at = @now`,
  );
  const one = db.prepare<[string, string, string], FlagRow>(
    'SELECT * FROM flags WHERE user_id = ? AND target_kind = ? AND target_id = ?',
  );
  const remove = db.prepare('DELETE FROM flags WHERE user_id = ? AND target_kind = ? AND target_id = ?');
  const putReview = db.prepare(
    `INSERT INTO flag_reviews (target_kind, target_id, review_result, reviewed_by, reviewed_at, review_details)
     VALUES (@kind, @targetId, @result, @reviewedBy, @now, @details)
     ON CONFLICT (target_kind, target_id) DO UPDATE
       SET review_result = @result, reviewed_by = @reviewedBy, reviewed_at = @now, review_details = @details`,
  );

  const flaggedOf = db.prepare<[string], { id: string }>(
    `SELECT DISTINCT m.id FROM flags f JOIN messages m ON m.id = f.target_id
     WHERE f.target_kind = 'message' AND m.user_id = ?`,
  );
  // The one write to messages moderation review makes: a held message is shown to everyone.
  const release = db.prepare(
    `UPDATE messages SET shadowed = 0 WHERE id = ? AND shadowed = 1
       AND json_extract(moderation, '$.action') = 'shadow_block'`,
  );

  function entries(where: FilterSchema, filter: unknown, only: string, limit: number, offset: number): FlagEntry[] {
    const sql = filtersToSql(filter, where);
    return db
      .prepare(
        `SELECT e.* FROM ${ENTRIES} e WHERE ${only} AND ${sql.sql}
         ORDER BY e.created_at DESC, e.target_id, e.user_id LIMIT ? OFFSET ?`,
      )
      .all(...sql.params, limit, offset) as FlagEntry[];
  }

  return {
    flag(userId: string, kind: FlagKind, targetId: string, reason: string | null, now: string): FlagRow {
      put.run({ userId, kind, targetId, reason, now });
      return one.get(userId, kind, targetId) as FlagRow;
    },
    get: (userId: string, kind: FlagKind, targetId: string) => one.get(userId, kind, targetId),
    unflag: (userId: string, kind: FlagKind, targetId: string) => remove.run(userId, kind, targetId).changes > 0,
    /** Every flag, on messages and users (`POST /moderation/flags`). */
    query: ({ filter, limit, offset }: FlagQuery) => entries(FLAGS, filter, '1', limit, offset),
    /** Flags on messages (`GET /moderation/flags/message`). */
    queryMessageFlags: ({ filter, limit, offset }: FlagQuery) =>
      entries(MESSAGE_FLAGS, filter, "e.target_kind = 'message'", limit, offset),
    /** One report per flagged message (`POST /moderation/reports`); its id is the message id. */
    queryReports({ filter, limit, offset }: FlagQuery): ReportRow[] {
      const sql = filtersToSql(filter, REPORTS);
      return db
        .prepare(
          `SELECT e.target_id AS id, COUNT(*) AS flags_count, MAX(e.automod) AS automod,
             MIN(e.created_at) AS created_at, MAX(e.updated_at) AS updated_at,
             e.review_result, e.reviewed_by, e.reviewed_at, e.review_details,
             (SELECT f.user_id FROM flags f WHERE f.target_kind = 'message' AND f.target_id = e.target_id
              ORDER BY f.created_at, f.user_id LIMIT 1) AS first_reporter_id
           FROM ${ENTRIES} e WHERE e.target_kind = 'message' AND ${sql.sql}
           GROUP BY e.target_id ORDER BY MIN(e.created_at) DESC, e.target_id LIMIT ? OFFSET ?`,
        )
        .all(...sql.params, limit, offset) as ReportRow[];
    },
    /** The flagged messages `authorId` wrote. */
    flaggedMessagesOf: (authorId: string) => flaggedOf.all(authorId).map((row) => row.id),
    /** Publishes a message the blocklist held back (`shadow_block`); false if it was not held. */
    release: (messageId: string) => release.run(messageId).changes > 0,
    /** Records a moderator's verdict (and their notes, if any) on everything flagged about the target. */
    review(kind: FlagKind, targetId: string, result: string, reviewedBy: string | null, now: string, details?: object): void {
      putReview.run({ kind, targetId, result, reviewedBy, now, details: details ? JSON.stringify(details) : null });
    },
  };
}
