// Membership changes beyond joining (which channels.ts does on create and add): leaving or being
// removed, each member's own pinned/archived marks that sort and filter their channel list, and
// the member's custom fields.
import type { Db } from './db';
import { readStateChanged } from './reads';
import type { MemberRow } from './channels';

export function createMembershipStore(db: Db) {
  const remove = db.prepare('DELETE FROM members WHERE cid = ? AND user_id = ?');
  const removeRead = db.prepare('DELETE FROM reads WHERE cid = ? AND user_id = ?');
  const recount = db.prepare(
    'UPDATE channels SET member_count = (SELECT COUNT(*) FROM members WHERE cid = @cid) WHERE cid = @cid',
  );
  const member = db.prepare<[string, string], MemberRow>('SELECT * FROM members WHERE cid = ? AND user_id = ?');
  const setMarks = db.prepare(
    `UPDATE members SET pinned_at = @pinnedAt, archived_at = @archivedAt, custom = @custom, updated_at = @now
     WHERE cid = @cid AND user_id = @userId`,
  );
  const channelsOf = db.prepare<[string], { cid: string }>('SELECT cid FROM members WHERE user_id = ?');
  // Who shares a channel with a user (the user included), from the user's memberships outwards.
  const coMembers = db.prepare<[string], { user_id: string }>(
    'SELECT DISTINCT m2.user_id FROM members m1 JOIN members m2 ON m2.cid = m1.cid WHERE m1.user_id = ?',
  );
  // An upper bound on that number, read from the channels' member counts without touching the rest.
  const coMemberBound = db.prepare<[string], { n: number }>(
    'SELECT COALESCE(SUM(c.member_count), 0) AS n FROM members m JOIN channels c ON c.cid = m.cid WHERE m.user_id = ?',
  );
  const shared = db.prepare<[string, string], { one: number }>(
    'SELECT 1 AS one FROM members m1 JOIN members m2 ON m2.cid = m1.cid WHERE m1.user_id = ? AND m2.user_id = ? LIMIT 1',
  );

  return {
    /** Removes members and their read state; returns the ids that were members. */
    remove(cid: string, userIds: string[]): string[] {
      const removed = userIds.filter((userId) => remove.run(cid, userId).changes > 0);
      for (const userId of removed) {
        readStateChanged(db, userId);
        removeRead.run(cid, userId);
      }
      if (removed.length) recount.run({ cid });
      return removed;
    },
    /** Sets the member's pinned_at / archived_at and custom fields (undefined keeps the stored value). */
    mark(cid: string, userId: string, marks: { pinnedAt?: string | null; archivedAt?: string | null; custom?: Record<string, unknown> }, now: string) {
      const current = member.get(cid, userId);
      if (!current) return undefined;
      setMarks.run({
        cid,
        userId,
        now,
        pinnedAt: marks.pinnedAt === undefined ? current.pinned_at : marks.pinnedAt,
        archivedAt: marks.archivedAt === undefined ? current.archived_at : marks.archivedAt,
        custom: marks.custom === undefined ? current.custom : JSON.stringify(marks.custom),
      });
      return member.get(cid, userId);
    },
    /** Every channel the user is a member of. */
    channelsOf: (userId: string) => channelsOf.all(userId).map((row) => row.cid),
    /** Every user who is a member of a channel the user is a member of (the user too, if a member anywhere). */
    coMemberIds: (userId: string) => coMembers.all(userId).map((row) => row.user_id),
    /** At least the number of coMemberIds (their channels' member counts summed), cheaply. */
    coMemberBound: (userId: string) => coMemberBound.get(userId)?.n ?? 0,
    /** Whether the two users are members of one channel. */
    shareChannel: (userId: string, otherId: string) => shared.get(userId, otherId) !== undefined,
  };
}
