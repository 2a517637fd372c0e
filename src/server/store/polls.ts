// Polls, their options and their votes. A vote row has an option_id; an answer row (an open
// ended reply, at most one per user) has answer_text instead. Counts and "latest" lists are
// computed by SQL from the votes, never kept as counters, so they cannot drift.
import { placeholders, statementCache, type Db } from './db';
import { filtersToSql, sortToSql, type FilterSchema, type SqlFragment } from './filters-to-sql';

export type PollRow = {
  id: string;
  name: string;
  description: string;
  created_by_id: string;
  voting_visibility: string;
  enforce_unique_vote: number;
  max_votes_allowed: number | null;
  allow_answers: number;
  allow_user_suggested_options: number;
  is_closed: number;
  custom: string;
  message_id: string | null;
  cid: string | null;
  created_at: string;
  updated_at: string;
};

export type PollOptionRow = {
  id: string;
  poll_id: string;
  text: string;
  position: number;
  custom: string;
  created_at: string;
  updated_at: string;
};

export type PollVoteRow = {
  id: string;
  poll_id: string;
  option_id: string | null;
  answer_text: string | null;
  user_id: string;
  created_at: string;
  updated_at: string;
};

/** The writable fields of a poll (everything but its id, creator, message and times). */
export type PollFields = Pick<
  PollRow,
  | 'name'
  | 'description'
  | 'voting_visibility'
  | 'enforce_unique_vote'
  | 'max_votes_allowed'
  | 'allow_answers'
  | 'allow_user_suggested_options'
  | 'is_closed'
  | 'custom'
>;

/** How many of the latest votes per option (and answers) a poll response lists. */
export const LATEST_LIMIT = 10;

export type PollStats = {
  countsByOption: Map<string, number>;
  answers: number;
  latestByOption: Map<string, PollVoteRow[]>;
  latestAnswers: PollVoteRow[];
};

export function createPollStore(db: Db) {
  const prepared = statementCache(db);
  const insertPoll = db.prepare(
    `INSERT INTO polls (id, name, description, created_by_id, voting_visibility, enforce_unique_vote,
       max_votes_allowed, allow_answers, allow_user_suggested_options, is_closed, custom, created_at, updated_at)
     VALUES (@id, @name, @description, @created_by_id, @voting_visibility, @enforce_unique_vote,
       @max_votes_allowed, @allow_answers, @allow_user_suggested_options, @is_closed, @custom, @now, @now)`,
  );
  const updatePoll = db.prepare(
    `UPDATE polls SET name = @name, description = @description, voting_visibility = @voting_visibility,
       enforce_unique_vote = @enforce_unique_vote, max_votes_allowed = @max_votes_allowed,
       allow_answers = @allow_answers, allow_user_suggested_options = @allow_user_suggested_options,
       is_closed = @is_closed, custom = @custom, updated_at = @now WHERE id = @id`,
  );
  const byId = db.prepare<[string], PollRow>('SELECT * FROM polls WHERE id = ?');
  const deletePoll = db.prepare('DELETE FROM polls WHERE id = ?');
  const attach = db.prepare('UPDATE polls SET message_id = ?, cid = ? WHERE id = ?');
  const touch = db.prepare('UPDATE polls SET updated_at = ? WHERE id = ?');

  const insertOption = db.prepare(
    `INSERT INTO poll_options (id, poll_id, text, position, custom, created_at, updated_at)
     VALUES (@id, @poll_id, @text, @position, @custom, @now, @now)`,
  );
  const updateOption = db.prepare(
    'UPDATE poll_options SET text = @text, custom = @custom, updated_at = @now WHERE id = @id AND poll_id = @poll_id',
  );
  const optionsOf = db.prepare<[string], PollOptionRow>(
    'SELECT * FROM poll_options WHERE poll_id = ? ORDER BY position, created_at, id',
  );
  const optionById = db.prepare<[string, string], PollOptionRow>('SELECT * FROM poll_options WHERE poll_id = ? AND id = ?');
  const deleteOption = db.prepare('DELETE FROM poll_options WHERE poll_id = ? AND id = ?');
  const optionIdUsed = db.prepare<[string], { id: string }>('SELECT id FROM poll_options WHERE id = ?');
  const nextPosition = db.prepare<[string], { next: number }>(
    'SELECT COALESCE(MAX(position) + 1, 0) AS next FROM poll_options WHERE poll_id = ?',
  );

  const insertVote = db.prepare(
    `INSERT INTO poll_votes (id, poll_id, option_id, answer_text, user_id, created_at, updated_at)
     VALUES (@id, @poll_id, @option_id, @answer_text, @user_id, @now, @now)`,
  );
  const voteById = db.prepare<[string, string], PollVoteRow>('SELECT * FROM poll_votes WHERE poll_id = ? AND id = ?');
  const votesOfUser = db.prepare<[string, string], PollVoteRow>(
    'SELECT * FROM poll_votes WHERE poll_id = ? AND user_id = ? ORDER BY created_at, id',
  );
  const deleteVote = db.prepare('DELETE FROM poll_votes WHERE poll_id = ? AND id = ?');
  const changeVote = db.prepare(
    `UPDATE poll_votes SET option_id = @option_id, answer_text = @answer_text, updated_at = @now
     WHERE poll_id = @poll_id AND id = @id`,
  );
  const counts = db.prepare<[string], { option_id: string; n: number }>(
    `SELECT option_id, COUNT(*) AS n FROM poll_votes WHERE poll_id = ? AND option_id IS NOT NULL GROUP BY option_id`,
  );
  const answerCount = db.prepare<[string], { n: number }>(
    'SELECT COUNT(*) AS n FROM poll_votes WHERE poll_id = ? AND answer_text IS NOT NULL',
  );
  const latestVotes = db.prepare<[string, number], PollVoteRow>(
    `SELECT id, poll_id, option_id, answer_text, user_id, created_at, updated_at FROM (
       SELECT *, ROW_NUMBER() OVER (PARTITION BY option_id ORDER BY created_at DESC, id DESC) AS rank
       FROM poll_votes WHERE poll_id = ? AND option_id IS NOT NULL
     ) WHERE rank <= ? ORDER BY created_at DESC, id DESC`,
  );
  const latestAnswers = db.prepare<[string, number], PollVoteRow>(
    `SELECT * FROM poll_votes WHERE poll_id = ? AND answer_text IS NOT NULL
     ORDER BY created_at DESC, id DESC LIMIT ?`,
  );

  function stats(pollId: string): PollStats {
    const latestByOption = new Map<string, PollVoteRow[]>();
    for (const vote of latestVotes.all(pollId, LATEST_LIMIT)) {
      const optionId = vote.option_id as string;
      latestByOption.set(optionId, [...(latestByOption.get(optionId) ?? []), vote]);
    }
    return {
      countsByOption: new Map(counts.all(pollId).map((row) => [row.option_id, row.n])),
      answers: answerCount.get(pollId)?.n ?? 0,
      latestByOption,
      latestAnswers: latestAnswers.all(pollId, LATEST_LIMIT),
    };
  }

  function getMany(ids: Iterable<string>): Map<string, PollRow> {
    const unique = [...new Set(ids)];
    const found = new Map<string, PollRow>();
    if (!unique.length) return found;
    const rows = prepared<string[], PollRow>(`SELECT * FROM polls WHERE id IN (${placeholders(unique.length)})`).all(...unique);
    for (const row of rows) found.set(row.id, row);
    return found;
  }

  function queryVotes(pollId: string, filter: unknown, sort: unknown, limit: number, offset: number): PollVoteRow[] {
    const where = filtersToSql(filter, VOTE_SCHEMA);
    const order = sortToSql(sort, VOTE_SCHEMA, { fallback: [{ field: 'created_at', direction: -1 }], tiebreak: 'v.id ASC' });
    return db
      .prepare(`SELECT v.* FROM poll_votes v WHERE v.poll_id = ? AND ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`)
      .all(pollId, ...where.params, ...order.params, limit, offset) as PollVoteRow[];
  }

  /** Polls `visible` lets through (a SQL condition on `p`), filtered and sorted as asked. */
  function queryPolls(filter: unknown, sort: unknown, limit: number, offset: number, visible: SqlFragment): PollRow[] {
    const where = filtersToSql(filter, POLL_SCHEMA);
    const order = sortToSql(sort, POLL_SCHEMA, { fallback: [{ field: 'created_at', direction: -1 }], tiebreak: 'p.id ASC' });
    return db
      .prepare(`SELECT p.* FROM polls p WHERE ${where.sql} AND ${visible.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`)
      .all(...where.params, ...visible.params, ...order.params, limit, offset) as PollRow[];
  }

  return {
    create: (row: PollFields & { id: string; created_by_id: string; now: string }) => void insertPoll.run(row),
    update: (id: string, fields: PollFields, now: string) => void updatePoll.run({ ...fields, id, now }),
    touch: (id: string, now: string) => void touch.run(now, id),
    get: (id: string) => byId.get(id),
    getMany,
    remove: (id: string) => void deletePoll.run(id),
    attach: (id: string, messageId: string, cid: string) => void attach.run(messageId, cid, id),
    options: (pollId: string) => optionsOf.all(pollId),
    option: (pollId: string, optionId: string) => optionById.get(pollId, optionId),
    addOption: (option: Omit<PollOptionRow, 'position' | 'created_at' | 'updated_at'> & { now: string }) =>
      void insertOption.run({ ...option, position: nextPosition.get(option.poll_id)?.next ?? 0 }),
    updateOption: (option: Pick<PollOptionRow, 'id' | 'poll_id' | 'text' | 'custom'> & { now: string }) =>
      void updateOption.run(option),
    removeOption: (pollId: string, optionId: string) => deleteOption.run(pollId, optionId).changes > 0,
    /** Option ids are unique across polls. */
    optionExists: (optionId: string) => optionIdUsed.get(optionId) !== undefined,
    addVote: (vote: Omit<PollVoteRow, 'created_at' | 'updated_at'> & { now: string }) => void insertVote.run(vote),
    vote: (pollId: string, voteId: string) => voteById.get(pollId, voteId),
    votesOf: (pollId: string, userId: string) => votesOfUser.all(pollId, userId),
    removeVote: (pollId: string, voteId: string) => void deleteVote.run(pollId, voteId),
    /** Changes a vote in place: its id stays, which is how the SDK matches poll.vote_changed. */
    changeVote: (vote: Pick<PollVoteRow, 'id' | 'poll_id' | 'option_id' | 'answer_text'> & { now: string }) =>
      void changeVote.run(vote),
    stats,
    queryVotes,
    queryPolls,
  };
}

const VOTE_SCHEMA: FilterSchema = {
  // Votes have no custom fields; an unknown field name reads a column that is always null.
  jsonColumn: "'{}'",
  fields: {
    id: { kind: 'text', sql: 'v.id' },
    option_id: { kind: 'text', sql: 'v.option_id' },
    user_id: { kind: 'text', sql: 'v.user_id' },
    is_answer: { kind: 'boolean', sql: '(v.answer_text IS NOT NULL)' },
    created_at: { kind: 'date', sql: 'v.created_at' },
    updated_at: { kind: 'date', sql: 'v.updated_at' },
  },
};

const POLL_SCHEMA: FilterSchema = {
  jsonColumn: 'p.custom',
  fields: {
    id: { kind: 'text', sql: 'p.id' },
    poll_id: { kind: 'text', sql: 'p.id' },
    name: { kind: 'text', sql: 'p.name' },
    voting_visibility: { kind: 'text', sql: 'p.voting_visibility' },
    max_votes_allowed: { kind: 'number', sql: 'p.max_votes_allowed' },
    allow_user_suggested_options: { kind: 'boolean', sql: 'p.allow_user_suggested_options' },
    allow_answers: { kind: 'boolean', sql: 'p.allow_answers' },
    is_closed: { kind: 'boolean', sql: 'p.is_closed' },
    created_at: { kind: 'date', sql: 'p.created_at' },
    updated_at: { kind: 'date', sql: 'p.updated_at' },
    created_by_id: { kind: 'text', sql: 'p.created_by_id' },
  },
};
