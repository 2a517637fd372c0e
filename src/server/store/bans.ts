// Channel bans (the `/ban` and `/unban` commands). A banned user keeps reading the channel but
// may not write to it until unbanned or until the ban expires.
import type { Db } from './db';

export type BanRow = {
  cid: string;
  user_id: string;
  created_by_id: string | null;
  reason: string | null;
  expires: string | null;
  created_at: string;
};

export function createBanStore(db: Db) {
  const upsert = db.prepare(
    `INSERT INTO channel_bans (cid, user_id, created_by_id, reason, expires, created_at)
     VALUES (@cid, @user_id, @created_by_id, @reason, @expires, @created_at)
     ON CONFLICT (cid, user_id) DO UPDATE SET created_by_id = excluded.created_by_id,
       reason = excluded.reason, expires = excluded.expires, created_at = excluded.created_at`,
  );
  const active = db.prepare<[string, string, string], BanRow>(
    'SELECT * FROM channel_bans WHERE cid = ? AND user_id = ? AND (expires IS NULL OR expires > ?)',
  );
  const remove = db.prepare('DELETE FROM channel_bans WHERE cid = ? AND user_id = ?');

  return {
    ban: (row: BanRow) => void upsert.run(row),
    unban: (cid: string, userId: string) => remove.run(cid, userId).changes > 0,
    /** The ban in force now, if any. */
    active: (cid: string, userId: string, now = new Date().toISOString()) => active.get(cid, userId, now),
  };
}
