// Threads and their participants. A thread row appears with the first reply; its participants
// (the parent's author and everyone who replied) each carry their read state of the thread,
// kept as counters like channel reads so `unread_threads` is one indexed count.
import { placeholders, statementCache, type Db } from './db';
import { filtersToSql, sortToSql, type FilterSchema } from './filters-to-sql';

export type ThreadRow = {
  parent_id: string;
  cid: string;
  created_by_id: string;
  title: string;
  custom: string;
  created_at: string;
  updated_at: string;
  last_message_at: string;
};

export type ParticipantRow = {
  parent_id: string;
  user_id: string;
  created_at: string;
  last_read_at: string;
  last_read_message_id: string | null;
  unread_messages: number;
  last_thread_message_at: string | null;
};

export type ThreadQuery = { userId: string; filter: unknown; sort: unknown; limit: number; offset: number };

const SCHEMA: FilterSchema = {
  jsonColumn: 't.custom',
  fields: {
    channel_cid: { kind: 'text', sql: 't.cid' },
    parent_message_id: { kind: 'text', sql: 't.parent_id' },
    created_by_user_id: { kind: 'text', sql: 't.created_by_id' },
    title: { kind: 'text', sql: 't.title' },
    created_at: { kind: 'date', sql: 't.created_at' },
    updated_at: { kind: 'date', sql: 't.updated_at' },
    last_message_at: { kind: 'date', sql: 't.last_message_at' },
  },
};

export function createThreadStore(db: Db) {
  const prepared = statementCache(db);
  const byId = db.prepare<[string], ThreadRow>('SELECT * FROM threads WHERE parent_id = ?');
  const insert = db.prepare(
    `INSERT OR IGNORE INTO threads (parent_id, cid, created_by_id, created_at, updated_at, last_message_at)
     VALUES (@parentId, @cid, @userId, @now, @now, @now)`,
  );
  const touch = db.prepare('UPDATE threads SET last_message_at = ?, updated_at = ? WHERE parent_id = ?');
  const join = db.prepare(
    `INSERT OR IGNORE INTO thread_participants (parent_id, user_id, created_at, last_read_at)
     VALUES (?, ?, ?, ?)`,
  );
  const replied = db.prepare(
    `UPDATE thread_participants SET last_read_at = @now, last_read_message_id = @messageId, unread_messages = 0,
       last_thread_message_at = @now WHERE parent_id = @parentId AND user_id = @userId`,
  );
  const bumpOthers = db.prepare(
    'UPDATE thread_participants SET unread_messages = unread_messages + 1 WHERE parent_id = ? AND user_id != ?',
  );
  const participants = db.prepare<[string], ParticipantRow>(
    'SELECT * FROM thread_participants WHERE parent_id = ? ORDER BY created_at, user_id',
  );
  const participant = db.prepare<[string, string], ParticipantRow>(
    'SELECT * FROM thread_participants WHERE parent_id = ? AND user_id = ?',
  );
  const setRead = db.prepare(
    `UPDATE thread_participants SET last_read_at = ?, last_read_message_id = ?, unread_messages = ?
     WHERE parent_id = ? AND user_id = ?`,
  );
  const readAll = db.prepare(
    `UPDATE thread_participants SET last_read_at = ?, unread_messages = 0 WHERE user_id = ? AND unread_messages > 0`,
  );
  const unread = db.prepare<[string], { n: number }>(
    'SELECT COUNT(*) AS n FROM thread_participants WHERE user_id = ? AND unread_messages > 0',
  );
  const update = db.prepare('UPDATE threads SET title = ?, custom = ?, updated_at = ? WHERE parent_id = ?');

  return {
    get: (parentId: string) => byId.get(parentId),

    /**
     * A reply was stored: the thread exists (created by its first replier, with the parent's
     * author as participant), the replier participates and has read it, everyone else has one
     * more unread reply.
     */
    recordReply(reply: { parentId: string; parentAuthorId: string; parentCreatedAt: string; cid: string; userId: string; messageId: string; now: string }) {
      insert.run(reply);
      touch.run(reply.now, reply.now, reply.parentId);
      join.run(reply.parentId, reply.parentAuthorId, reply.now, reply.parentCreatedAt);
      join.run(reply.parentId, reply.userId, reply.now, reply.now);
      replied.run(reply);
      bumpOthers.run(reply.parentId, reply.userId);
    },

    participants: (parentId: string) => participants.all(parentId),
    participant: (parentId: string, userId: string) => participant.get(parentId, userId),

    /** Participants of many threads at once (for thread_participants on a page of messages). */
    participantsOf(parentIds: string[]): ParticipantRow[] {
      if (!parentIds.length) return [];
      return prepared<string[], ParticipantRow>(
        `SELECT * FROM thread_participants WHERE parent_id IN (${placeholders(parentIds.length)})
         ORDER BY created_at, user_id`,
      ).all(...parentIds);
    },

    setRead: (parentId: string, userId: string, at: string, lastReadMessageId: string | null, unreadMessages = 0) =>
      setRead.run(at, lastReadMessageId, unreadMessages, parentId, userId).changes > 0,
    readAll: (userId: string, at: string) => void readAll.run(at, userId),
    unreadCount: (userId: string) => unread.get(userId)?.n ?? 0,

    update(parentId: string, title: string, custom: Record<string, unknown>, now: string): ThreadRow {
      update.run(title, JSON.stringify(custom), now, parentId);
      return byId.get(parentId) as ThreadRow;
    },

    /** The user's threads (those they participate in), filtered and sorted. */
    query({ userId, filter, sort, limit, offset }: ThreadQuery): ThreadRow[] {
      const where = filtersToSql(filter, SCHEMA);
      const order = sortToSql(sort, SCHEMA, {
        fallback: [{ field: 'last_message_at', direction: -1 }],
        tiebreak: 't.parent_id ASC',
      });
      return db
        .prepare(
          `SELECT t.* FROM threads t JOIN thread_participants p ON p.parent_id = t.parent_id AND p.user_id = ?
           WHERE ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`,
        )
        .all(userId, ...where.params, ...order.params, limit, offset) as ThreadRow[];
    },
  };
}
