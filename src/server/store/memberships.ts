// Membership changes beyond joining (which channels.ts does on create and add): leaving or being
// removed, and each member's own pinned/archived marks that sort and filter their channel list.
import type { Db } from './db';
import type { MemberRow } from './channels';

export function createMembershipStore(db: Db) {
  const remove = db.prepare('DELETE FROM members WHERE cid = ? AND user_id = ?');
  const removeRead = db.prepare('DELETE FROM reads WHERE cid = ? AND user_id = ?');
  const recount = db.prepare(
    'UPDATE channels SET member_count = (SELECT COUNT(*) FROM members WHERE cid = @cid) WHERE cid = @cid',
  );
  const member = db.prepare<[string, string], MemberRow>('SELECT * FROM members WHERE cid = ? AND user_id = ?');
  const setMarks = db.prepare(
    `UPDATE members SET pinned_at = @pinnedAt, archived_at = @archivedAt, updated_at = @now
     WHERE cid = @cid AND user_id = @userId`,
  );
  const channelsOf = db.prepare<[string], { cid: string }>('SELECT cid FROM members WHERE user_id = ?');

  return {
    /** Removes members and their read state; returns the ids that were members. */
    remove(cid: string, userIds: string[]): string[] {
      const removed = userIds.filter((userId) => remove.run(cid, userId).changes > 0);
      for (const userId of removed) removeRead.run(cid, userId);
      if (removed.length) recount.run({ cid });
      return removed;
    },
    /** Sets the member's pinned_at / archived_at (undefined keeps the stored value). */
    mark(cid: string, userId: string, marks: { pinnedAt?: string | null; archivedAt?: string | null }, now: string) {
      const current = member.get(cid, userId);
      if (!current) return undefined;
      setMarks.run({
        cid,
        userId,
        now,
        pinnedAt: marks.pinnedAt === undefined ? current.pinned_at : marks.pinnedAt,
        archivedAt: marks.archivedAt === undefined ? current.archived_at : marks.archivedAt,
      });
      return member.get(cid, userId);
    },
    /** Every channel the user is a member of. */
    channelsOf: (userId: string) => channelsOf.all(userId).map((row) => row.cid),
  };
}
