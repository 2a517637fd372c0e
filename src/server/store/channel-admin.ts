// Channel administration: a channel's data, its switches (frozen, disabled, cooldown), soft and
// hard deletion, truncation, and each member's role, invitation and hiding.
import type { ChannelRow, MemberRow } from './channels';
import type { Db } from './db';
import { CLOCK_NOW, readStateChanged } from './reads';
import { seenByEveryone } from './visibility';

export type ChannelData = { name: string | null; custom: Record<string, unknown>; frozen: boolean; disabled: boolean; cooldown: number };

export function createChannelAdminStore(db: Db) {
  const channel = db.prepare<[string], ChannelRow>('SELECT * FROM channels WHERE cid = ?');
  const member = db.prepare<[string, string], MemberRow>('SELECT * FROM members WHERE cid = ? AND user_id = ?');
  const setData = db.prepare(
    `UPDATE channels SET name = @name, custom = @custom, frozen = @frozen, disabled = @disabled,
       cooldown = @cooldown, updated_at = @now WHERE cid = @cid`,
  );
  const softDelete = db.prepare('UPDATE channels SET deleted_at = ?, updated_at = ? WHERE cid = ?');
  const hardDelete = db.prepare('DELETE FROM channels WHERE cid = ?');
  const truncate = db.prepare('UPDATE channels SET truncated_at = ?, updated_at = ? WHERE cid = ?');
  const removeMessagesBefore = db.prepare('DELETE FROM messages WHERE cid = ? AND created_at <= ?');
  // Nothing unread as of the channel's clock now (see reads.ts).
  const resetReads = db.prepare(`UPDATE reads SET unread_messages = 0, last_read = ?, seen_seq = ${CLOCK_NOW} WHERE cid = ?`);
  const clearLastMessage = db.prepare(
    `UPDATE channels SET last_message_at = (SELECT MAX(created_at) FROM messages WHERE cid = @cid AND created_at > @at
       AND ${seenByEveryone()})
     WHERE cid = @cid`,
  );
  const setRole = db.prepare('UPDATE members SET role = ?, channel_role = ?, updated_at = ? WHERE cid = ? AND user_id = ?');
  const invite = db.prepare(
    `INSERT INTO members (cid, user_id, role, channel_role, created_at, updated_at, invited)
     VALUES (?, ?, 'member', 'channel_member', ?, ?, 1)
     ON CONFLICT (cid, user_id) DO NOTHING`,
  );
  const answer = db.prepare(
    `UPDATE members SET invite_accepted_at = @accepted, invite_rejected_at = @rejected, updated_at = @now
     WHERE cid = @cid AND user_id = @userId`,
  );
  const recount = db.prepare('UPDATE channels SET member_count = (SELECT COUNT(*) FROM members WHERE cid = @cid) WHERE cid = @cid');
  const hide = db.prepare(
    `UPDATE members SET hidden = 1, history_cleared_at = COALESCE(@clearedAt, history_cleared_at), updated_at = @now
     WHERE cid = @cid AND user_id = @userId`,
  );
  const clearHistory = db.prepare('UPDATE members SET history_cleared_at = ? WHERE cid = ? AND user_id = ?');
  const show = db.prepare('UPDATE members SET hidden = 0, updated_at = ? WHERE cid = ? AND user_id = ?');
  const hiddenMembers = db.prepare<[string], { user_id: string }>('SELECT user_id FROM members WHERE cid = ? AND hidden = 1');
  const unhideAll = db.prepare('UPDATE members SET hidden = 0 WHERE cid = ? AND hidden = 1');

  return {
    setData(cid: string, data: ChannelData, now: string): ChannelRow | undefined {
      setData.run({
        cid,
        now,
        name: data.name,
        custom: JSON.stringify(data.custom),
        frozen: data.frozen ? 1 : 0,
        disabled: data.disabled ? 1 : 0,
        cooldown: data.cooldown,
      });
      return channel.get(cid);
    },
    softDelete: (cid: string, now: string) => void softDelete.run(now, now, cid),
    hardDelete: (cid: string) => {
      readStateChanged(db);
      hardDelete.run(cid);
    },
    /** Hides (soft) or removes (hard) every message up to `at`; nobody has anything unread after. */
    truncate(cid: string, at: string, hard: boolean, now: string): void {
      if (hard) removeMessagesBefore.run(cid, at);
      truncate.run(at, now, cid);
      readStateChanged(db);
      resetReads.run(now, cid);
      clearLastMessage.run({ cid, at });
    },
    setRole(cid: string, userId: string, role: string, channelRole: string, now: string): MemberRow | undefined {
      setRole.run(role, channelRole, now, cid, userId);
      return member.get(cid, userId);
    },
    /** Invites users (as members waiting for their answer); returns the ids newly invited. */
    invite(cid: string, userIds: string[], now: string): string[] {
      const invited = userIds.filter((userId) => invite.run(cid, userId, now, now).changes > 0);
      if (invited.length) recount.run({ cid });
      return invited;
    },
    answerInvite(cid: string, userId: string, accepted: boolean, now: string): MemberRow | undefined {
      answer.run({ cid, userId, now, accepted: accepted ? now : null, rejected: accepted ? null : now });
      return member.get(cid, userId);
    },
    hide(cid: string, userId: string, clearHistory: boolean, now: string): boolean {
      return hide.run({ cid, userId, now, clearedAt: clearHistory ? now : null }).changes > 0;
    },
    show: (cid: string, userId: string, now: string): boolean => show.run(now, cid, userId).changes > 0,
    /** The member sees nothing before `at` (members added with hide_history). */
    hideHistoryBefore(cid: string, userIds: string[], at: string): void {
      for (const userId of userIds) clearHistory.run(at, cid, userId);
    },
    /** A new message shows the channel again to everyone who hid it; returns who they were. */
    unhideAll(cid: string): string[] {
      const ids = hiddenMembers.all(cid).map((row) => row.user_id);
      if (ids.length) unhideAll.run(cid);
      return ids;
    },
  };
}
