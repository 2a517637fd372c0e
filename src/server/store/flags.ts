// Flags: a user reporting a message or another user for moderators to review. Flagging the same
// target again updates the reason; unflagging removes the row.
import type { Db } from './db';

export type FlagKind = 'message' | 'user';
export type FlagRow = {
  user_id: string;
  target_kind: FlagKind;
  target_id: string;
  reason: string | null;
  created_at: string;
  updated_at: string;
};

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

  return {
    flag(userId: string, kind: FlagKind, targetId: string, reason: string | null, now: string): FlagRow {
      put.run({ userId, kind, targetId, reason, now });
      return one.get(userId, kind, targetId) as FlagRow;
    },
    get: (userId: string, kind: FlagKind, targetId: string) => one.get(userId, kind, targetId),
    unflag: (userId: string, kind: FlagKind, targetId: string) => remove.run(userId, kind, targetId).changes > 0,
  };
}
