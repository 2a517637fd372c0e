// Unread counts as `GET /unread` and `POST /unread_batch` report them: per channel, per channel
// type and per thread, from the counters the reads (through the read_state view) and
// thread_participants tables keep.
import type { Db } from './db';

export type UnreadChannelRow = { cid: string; type: string; last_read: string; unread_messages: number };
export type UnreadThreadRow = { parent_id: string; last_read_at: string; last_read_message_id: string | null; unread_messages: number };
export type UnreadTypeRow = { type: string; channels: number; unread: number };

export function createUnreadCountStore(db: Db) {
  const channels = db.prepare<[string], UnreadChannelRow>(
    `SELECT r.cid, c.type, r.last_read, r.unread_messages FROM read_state r JOIN channels c ON c.cid = r.cid
     WHERE r.user_id = ? AND r.unread_messages > 0 AND c.deleted_at IS NULL ORDER BY c.last_message_at DESC, r.cid`,
  );
  const byType = db.prepare<[string], UnreadTypeRow>(
    `SELECT c.type, COUNT(*) AS channels, COALESCE(SUM(r.unread_messages), 0) AS unread
     FROM read_state r JOIN channels c ON c.cid = r.cid WHERE r.user_id = ? AND c.deleted_at IS NULL GROUP BY c.type ORDER BY c.type`,
  );
  const threads = db.prepare<[string], UnreadThreadRow>(
    `SELECT parent_id, last_read_at, last_read_message_id, unread_messages FROM thread_participants
     WHERE user_id = ? AND unread_messages > 0 ORDER BY parent_id`,
  );

  return {
    channels: (userId: string) => channels.all(userId),
    byType: (userId: string) => byType.all(userId),
    threads: (userId: string) => threads.all(userId),
  };
}
