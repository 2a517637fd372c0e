// User blocks (`/users/block`): who blocked whom. A blocker no longer sees the blocked user's
// messages, and neither can open or write to a direct conversation with the other.
import type { Db } from './db';

export type BlockRow = { user_id: string; blocked_user_id: string; created_at: string };

export function createBlockStore(db: Db) {
  const insert = db.prepare('INSERT OR IGNORE INTO user_blocks (user_id, blocked_user_id, created_at) VALUES (?, ?, ?)');
  const one = db.prepare<[string, string], BlockRow>('SELECT * FROM user_blocks WHERE user_id = ? AND blocked_user_id = ?');
  const remove = db.prepare('DELETE FROM user_blocks WHERE user_id = ? AND blocked_user_id = ?');
  const byUser = db.prepare<[string], BlockRow>('SELECT * FROM user_blocks WHERE user_id = ? ORDER BY created_at');
  const blockers = db.prepare<[string], { user_id: string }>('SELECT user_id FROM user_blocks WHERE blocked_user_id = ?');
  const either = db.prepare<[string, string, string, string], { n: number }>(
    `SELECT COUNT(*) AS n FROM user_blocks
     WHERE (user_id = ? AND blocked_user_id = ?) OR (user_id = ? AND blocked_user_id = ?)`,
  );

  return {
    block(userId: string, blockedId: string, now: string): BlockRow {
      insert.run(userId, blockedId, now);
      return one.get(userId, blockedId) as BlockRow;
    },
    unblock: (userId: string, blockedId: string): boolean => remove.run(userId, blockedId).changes > 0,
    /** The users `userId` blocked, oldest first. */
    blockedBy: (userId: string): BlockRow[] => byUser.all(userId),
    /** Who blocked `userId`: the receivers that must not get their messages. */
    blockersOf: (userId: string): Set<string> => new Set(blockers.all(userId).map((row) => row.user_id)),
    /** Whether either of the two blocked the other. */
    betweenEither: (a: string, b: string): boolean => (either.get(a, b, b, a)?.n ?? 0) > 0,
  };
}
