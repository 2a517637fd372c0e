// The reactions table: one row per (message, user, type). Messages read their reaction summary
// (groups, latest, own) for a whole page at once, so a page of 25 messages costs three queries
// whatever their reactions.
import { placeholders, statementCache, type Db } from './db';
import { filtersToSql, sortToSql, type FilterSchema } from './filters-to-sql';

export type ReactionRow = {
  message_id: string;
  user_id: string;
  type: string;
  score: number;
  custom: string;
  created_at: string;
  updated_at: string;
};

export type ReactionGroupRow = {
  message_id: string;
  type: string;
  count: number;
  sum_scores: number;
  first_reaction_at: string;
  last_reaction_at: string;
};

export type NewReaction = {
  messageId: string;
  userId: string;
  type: string;
  score: number;
  custom: Record<string, unknown>;
  now: string;
};

/** How many reactions a message carries in `latest_reactions` (the provider's default). */
export const LATEST_REACTIONS = 10;

const SCHEMA: FilterSchema = {
  jsonColumn: 'r.custom',
  fields: {
    type: { kind: 'text', sql: 'r.type' },
    user_id: { kind: 'text', sql: 'r.user_id' },
    score: { kind: 'number', sql: 'r.score' },
    created_at: { kind: 'date', sql: 'r.created_at' },
    updated_at: { kind: 'date', sql: 'r.updated_at' },
  },
};

export function createReactionStore(db: Db) {
  const prepared = statementCache(db);
  const upsert = db.prepare(
    `INSERT INTO reactions (message_id, user_id, type, score, custom, created_at, updated_at)
     VALUES (@messageId, @userId, @type, @score, @custom, @now, @now)
     ON CONFLICT (message_id, user_id, type) DO UPDATE SET score = @score, custom = @custom, updated_at = @now`,
  );
  const ofUsers = db.prepare<[string, string], ReactionRow>(
    'SELECT * FROM reactions WHERE message_id = ? AND user_id IN (SELECT value FROM json_each(?)) ORDER BY created_at',
  );
  const ofMessage = db.prepare<[string, number], ReactionRow>('SELECT * FROM reactions WHERE message_id = ? ORDER BY created_at LIMIT ?');
  const one = db.prepare<[string, string, string], ReactionRow>(
    'SELECT * FROM reactions WHERE message_id = ? AND user_id = ? AND type = ?',
  );
  const remove = db.prepare('DELETE FROM reactions WHERE message_id = ? AND user_id = ? AND type = ?');
  const removeOthers = db.prepare('DELETE FROM reactions WHERE message_id = ? AND user_id = ? AND type != ?');
  const removeAll = db.prepare('DELETE FROM reactions WHERE message_id = ?');
  const ofUser = db.prepare<[string, string], ReactionRow>(
    'SELECT * FROM reactions WHERE message_id = ? AND user_id = ? ORDER BY created_at',
  );


  return {
    /** Adds or replaces the user's reaction of that type; `unique` first drops their other types. */
    put(reaction: NewReaction, unique: boolean): ReactionRow {
      if (unique) removeOthers.run(reaction.messageId, reaction.userId, reaction.type);
      upsert.run({ ...reaction, custom: JSON.stringify(reaction.custom) });
      return one.get(reaction.messageId, reaction.userId, reaction.type) as ReactionRow;
    },
    get: (messageId: string, userId: string, type: string) => one.get(messageId, userId, type),
    remove: (messageId: string, userId: string, type: string) => remove.run(messageId, userId, type).changes > 0,
    removeAllOf: (messageId: string) => void removeAll.run(messageId),
    ofUser: (messageId: string, userId: string) => ofUser.all(messageId, userId),

    /** Per message and type: count, score sum and first/last reaction time. */
    groups(messageIds: string[]): ReactionGroupRow[] {
      if (!messageIds.length) return [];
      return prepared<string[], ReactionGroupRow>(
          `SELECT message_id, type, COUNT(*) AS count, SUM(score) AS sum_scores,
                  MIN(created_at) AS first_reaction_at, MAX(created_at) AS last_reaction_at
           FROM reactions WHERE message_id IN (${placeholders(messageIds.length)})
           GROUP BY message_id, type ORDER BY MIN(created_at)`,
      ).all(...messageIds);
    },

    /** The newest LATEST_REACTIONS reactions of each message, newest first. */
    latest(messageIds: string[]): ReactionRow[] {
      if (!messageIds.length) return [];
      return prepared<[...string[], number], ReactionRow>(
          `SELECT message_id, user_id, type, score, custom, created_at, updated_at FROM (
             SELECT r.*, ROW_NUMBER() OVER (PARTITION BY message_id ORDER BY created_at DESC, user_id) AS n
             FROM reactions r WHERE message_id IN (${placeholders(messageIds.length)}))
           WHERE n <= ? ORDER BY message_id, created_at DESC`,
      ).all(...messageIds, LATEST_REACTIONS);
    },

    /** One user's reactions on each of the messages. */
    own(messageIds: string[], userId: string): ReactionRow[] {
      if (!messageIds.length) return [];
      return prepared<string[], ReactionRow>(
          `SELECT * FROM reactions WHERE message_id IN (${placeholders(messageIds.length)}) AND user_id = ?
           ORDER BY created_at`,
      ).all(...messageIds, userId);
    },

    /** One message's reactions, oldest first, at most `limit`. */
    ofMessage: (messageId: string, limit: number): ReactionRow[] => ofMessage.all(messageId, limit),
    /** The reactions each of `userIds` left on one message (a fan-out's receivers, in one query). */
    ofUsers(messageId: string, userIds: string[]): ReactionRow[] {
      if (!userIds.length) return [];
      return ofUsers.all(messageId, JSON.stringify(userIds));
    },

    /** queryReactions: a filtered, sorted page of one message's reactions. */
    query(messageId: string, filter: unknown, sort: unknown, limit: number, offset: number): ReactionRow[] {
      const where = filtersToSql(filter, SCHEMA);
      const order = sortToSql(sort, SCHEMA, {
        fallback: [{ field: 'created_at', direction: -1 }],
        tiebreak: 'r.user_id ASC, r.type ASC',
      });
      return db
        .prepare(
          `SELECT r.* FROM reactions r WHERE r.message_id = ? AND ${where.sql}
           ORDER BY ${order.sql} LIMIT ? OFFSET ?`,
      ).all(messageId, ...where.params, ...order.params, limit, offset) as ReactionRow[];
    },
  };
}
