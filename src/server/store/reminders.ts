// Message reminders ("remind me" / "save for later"): one per user and message, with an
// optional remind_at. notified_at marks a reminder whose notification.reminder_due went out, so
// the due timer only ever looks at the index of pending ones.
import { placeholders, statementCache, type Db } from './db';
import { filtersToSql, sortToSql, type FilterSchema } from './filters-to-sql';

export type ReminderRow = {
  user_id: string;
  message_id: string;
  cid: string;
  remind_at: string | null;
  notified_at: string | null;
  created_at: string;
  updated_at: string;
};

export type ReminderQuery = { userId: string; filter: unknown; sort: unknown; limit: number; offset: number };

const SCHEMA: FilterSchema = {
  jsonColumn: "'{}'",
  fields: {
    channel_cid: { kind: 'text', sql: 'r.cid' },
    message_id: { kind: 'text', sql: 'r.message_id' },
    user_id: { kind: 'text', sql: 'r.user_id' },
    remind_at: { kind: 'date', sql: 'r.remind_at' },
    created_at: { kind: 'date', sql: 'r.created_at' },
    updated_at: { kind: 'date', sql: 'r.updated_at' },
  },
};

export function createReminderStore(db: Db) {
  const prepared = statementCache(db);
  const ofMessage = db.prepare<[string, number], ReminderRow>('SELECT * FROM reminders WHERE message_id = ? LIMIT ?');
  const ofUsers = db.prepare<[string, string], ReminderRow>(
    'SELECT * FROM reminders WHERE message_id = ? AND user_id IN (SELECT value FROM json_each(?))',
  );
  const insert = db.prepare(
    `INSERT INTO reminders (user_id, message_id, cid, remind_at, created_at, updated_at)
     VALUES (@userId, @messageId, @cid, @remindAt, @now, @now)`,
  );
  const one = db.prepare<[string, string], ReminderRow>('SELECT * FROM reminders WHERE user_id = ? AND message_id = ?');
  const update = db.prepare(
    'UPDATE reminders SET remind_at = ?, notified_at = NULL, updated_at = ? WHERE user_id = ? AND message_id = ?',
  );
  const remove = db.prepare('DELETE FROM reminders WHERE user_id = ? AND message_id = ?');
  const removeAll = db.prepare('DELETE FROM reminders WHERE message_id = ?');
  const nextDue = db.prepare<[], { at: string | null }>(
    'SELECT MIN(remind_at) AS at FROM reminders WHERE remind_at IS NOT NULL AND notified_at IS NULL',
  );
  const due = db.prepare<[string], ReminderRow>(
    'SELECT * FROM reminders WHERE remind_at IS NOT NULL AND notified_at IS NULL AND remind_at <= ? ORDER BY remind_at',
  );
  const markNotified = db.prepare('UPDATE reminders SET notified_at = ? WHERE user_id = ? AND message_id = ?');

  return {
    create(reminder: { userId: string; messageId: string; cid: string; remindAt: string | null; now: string }): ReminderRow {
      insert.run(reminder);
      return one.get(reminder.userId, reminder.messageId) as ReminderRow;
    },
    get: (userId: string, messageId: string) => one.get(userId, messageId),
    update(userId: string, messageId: string, remindAt: string | null, now: string): ReminderRow | undefined {
      update.run(remindAt, now, userId, messageId);
      return one.get(userId, messageId);
    },
    remove: (userId: string, messageId: string) => remove.run(userId, messageId).changes > 0,
    removeAllOf: (messageId: string) => void removeAll.run(messageId),
    /** The viewer's reminders on a page of messages. */
    ofMessages(userId: string, messageIds: string[]): ReminderRow[] {
      if (!messageIds.length) return [];
      return prepared<string[], ReminderRow>(
          `SELECT * FROM reminders WHERE user_id = ? AND message_id IN (${placeholders(messageIds.length)})`,
      ).all(userId, ...messageIds);
    },
    /** Each of `userIds`' reminder on one message (a fan-out's receivers, in one query). */
    /** One message's reminders (everyone's), at most `limit`. */
    ofMessage: (messageId: string, limit: number): ReminderRow[] => ofMessage.all(messageId, limit),
    ofUsers: (messageId: string, userIds: string[]): ReminderRow[] => (userIds.length ? ofUsers.all(messageId, JSON.stringify(userIds)) : []),
    nextDue: () => nextDue.get()?.at ?? null,
    /** Pending reminders due by `now`, marked as notified. */
    takeDue(now: string): ReminderRow[] {
      const rows = due.all(now);
      for (const row of rows) markNotified.run(now, row.user_id, row.message_id);
      return rows;
    },
    query({ userId, filter, sort, limit, offset }: ReminderQuery): ReminderRow[] {
      const where = filtersToSql(filter, SCHEMA);
      const order = sortToSql(sort, SCHEMA, {
        fallback: [{ field: 'remind_at', direction: 1 }],
        tiebreak: 'r.created_at ASC, r.message_id ASC',
      });
      return db
        .prepare(`SELECT r.* FROM reminders r WHERE r.user_id = ? AND ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`)
        .all(userId, ...where.params, ...order.params, limit, offset) as ReminderRow[];
    },
  };
}
