// The reads table: per member and channel, when they last read it and how many messages
// arrived since. Unread counts are kept as counters (incremented on each new message) rather
// than counted from messages, so `me` and every event's unread totals are cheap to compute.
import type { Db } from './db';

export type ReadRow = {
  cid: string;
  user_id: string;
  last_read: string;
  last_read_message_id: string | null;
  unread_messages: number;
};

export type UnreadSummary = {
  /** Unread messages across all channels. */
  total: number;
  /** Channels with at least one unread message. */
  channels: number;
};

export function createReadStore(db: Db) {
  const insert = db.prepare(
    'INSERT OR IGNORE INTO reads (cid, user_id, last_read, unread_messages) VALUES (?, ?, ?, 0)',
  );
  const forChannel = db.prepare<[string], ReadRow>('SELECT * FROM reads WHERE cid = ? ORDER BY user_id');
  const recentReaders = db.prepare<[string, number], ReadRow>('SELECT * FROM reads WHERE cid = ? ORDER BY last_read DESC LIMIT ?');
  const forMember = db.prepare<[string, string], ReadRow>('SELECT * FROM reads WHERE cid = ? AND user_id = ?');
  const markRead = db.prepare(
    `UPDATE reads SET last_read = ?, last_read_message_id = ?, unread_messages = 0
     WHERE cid = ? AND user_id = ?`,
  );
  // Messages added to a channel a member muted do not raise their unread count (the provider's
  // rule); what was unread before the mute stays.
  const increment = db.prepare<[string, string, string, string]>(
    `UPDATE reads SET unread_messages = unread_messages + 1 WHERE cid = ? AND user_id != ?
       AND user_id NOT IN (SELECT user_id FROM channel_mutes WHERE cid = ? AND (expires IS NULL OR expires > ?))`,
  );
  const setUnread = db.prepare(
    `UPDATE reads SET last_read = ?, last_read_message_id = ?, unread_messages = ?
     WHERE cid = ? AND user_id = ?`,
  );
  const unreadCids = db.prepare<[string], { cid: string }>(
    'SELECT cid FROM reads WHERE user_id = ? AND unread_messages > 0',
  );
  const summary = db.prepare<[string], { total: number; channels: number }>(
    `SELECT COALESCE(SUM(unread_messages), 0) AS total,
            COUNT(CASE WHEN unread_messages > 0 THEN 1 END) AS channels
     FROM reads WHERE user_id = ?`,
  );

  return {
    /** Starts read state for new members: everything before `at` counts as read. */
    start: (cid: string, userIds: string[], at: string) => {
      for (const userId of userIds) insert.run(cid, userId, at);
    },
    forChannel: (cid: string) => forChannel.all(cid),
    /**
     * What a channel response carries: the `limit` members who read most recently (those a
     * "seen by" can name) and the viewer's own, however many members the channel has.
     */
    recent(cid: string, viewerId: string | null, limit: number): ReadRow[] {
      const rows = recentReaders.all(cid, limit);
      if (viewerId === null || rows.some((row) => row.user_id === viewerId)) return rows;
      const own = forMember.get(cid, viewerId);
      return own ? [own, ...rows] : rows;
    },
    get: (cid: string, userId: string) => forMember.get(cid, userId),
    markRead: (cid: string, userId: string, at: string, lastReadMessageId: string | null) =>
      void markRead.run(at, lastReadMessageId, cid, userId),
    /** Mark unread: read up to `at` (and that message), `unreadMessages` after it. */
    markUnread: (cid: string, userId: string, at: string, lastReadMessageId: string | null, unreadMessages: number) =>
      void setUnread.run(at, lastReadMessageId, unreadMessages, cid, userId),
    /** Channels where the user has unread messages. */
    unreadChannels: (userId: string) => unreadCids.all(userId).map((row) => row.cid),
    /** A new message: one more unread for every member but its sender and those who muted the channel. */
    incrementUnread: (cid: string, senderId: string, now = new Date().toISOString()) => void increment.run(cid, senderId, cid, now),
    summary: (userId: string): UnreadSummary => summary.get(userId) ?? { total: 0, channels: 0 },
  };
}
