// Push devices (`/devices`): a device token belongs to one user at a time (registering it again
// for someone else moves it), and a user keeps at most a bounded number, the oldest going first.
// The recipient queries page through a channel's (or a thread's) members who have a device.
import type { Db } from './db';

export type DeviceRow = {
  id: string;
  user_id: string;
  push_provider: string;
  push_provider_name: string | null;
  created_at: string;
  disabled_reason: string | null;
};

export type NewDevice = { id: string; userId: string; provider: string; providerName: string | null; now: string };

/** Members who may be sent pushes: invitations accepted, users neither deactivated nor deleted. */
const ACTIVE = `u.deactivated_at IS NULL AND u.deleted_at IS NULL
  AND EXISTS (SELECT 1 FROM devices d WHERE d.user_id = u.id AND d.disabled_reason IS NULL)`;

export function createDeviceStore(db: Db) {
  const upsert = db.prepare(
    `INSERT INTO devices (id, user_id, push_provider, push_provider_name, created_at) VALUES (@id, @userId, @provider, @providerName, @now)
     ON CONFLICT (id) DO UPDATE SET user_id = @userId, push_provider = @provider, push_provider_name = @providerName,
       created_at = CASE WHEN devices.user_id = @userId THEN devices.created_at ELSE @now END, disabled_reason = NULL`,
  );
  const trim = db.prepare(
    `DELETE FROM devices WHERE user_id = ? AND id NOT IN
       (SELECT id FROM devices WHERE user_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?)`,
  );
  const byId = db.prepare<[string], DeviceRow>('SELECT * FROM devices WHERE id = ?');
  const ofUser = db.prepare<[string], DeviceRow>('SELECT * FROM devices WHERE user_id = ? ORDER BY created_at, rowid');
  const remove = db.prepare('DELETE FROM devices WHERE id = ? AND user_id = ?');
  const disable = db.prepare('UPDATE devices SET disabled_reason = ? WHERE id = ?');
  const members = db.prepare<[string, string, string, number], { user_id: string }>(
    `SELECT m.user_id FROM members m JOIN users u ON u.id = m.user_id
     WHERE m.cid = ? AND m.user_id != ? AND m.user_id > ? AND (m.invited = 0 OR m.invite_accepted_at IS NOT NULL) AND ${ACTIVE}
     ORDER BY m.user_id LIMIT ?`,
  );
  const participants = db.prepare<[string, string, string, string, number], { user_id: string }>(
    `SELECT p.user_id FROM thread_participants p JOIN users u ON u.id = p.user_id
     JOIN members m ON m.cid = ? AND m.user_id = p.user_id
     WHERE p.parent_id = ? AND p.user_id != ? AND p.user_id > ? AND ${ACTIVE}
     ORDER BY p.user_id LIMIT ?`,
  );

  return {
    /** Registers the device for the user; past `maxPerUser` the user's oldest are removed. */
    add(device: NewDevice, maxPerUser: number): void {
      db.transaction(() => {
        upsert.run(device);
        trim.run(device.userId, device.userId, maxPerUser);
      })();
    },
    get: (id: string) => byId.get(id),
    ofUser: (userId: string) => ofUser.all(userId),
    remove: (id: string, userId: string) => remove.run(id, userId).changes > 0,
    /** The provider said the token is dead (unregistered, bad token). */
    disable: (id: string, reason: string) => void disable.run(reason, id),
    /** A page of a channel's members with an enabled device, but `exceptId`, after `after` by id. */
    membersWithDevices: (cid: string, exceptId: string, after: string, limit: number) =>
      members.all(cid, exceptId, after, limit).map((row) => row.user_id),
    /** The same among a thread's participants (a reply not shown in the channel). */
    participantsWithDevices: (cid: string, parentId: string, exceptId: string, after: string, limit: number) =>
      participants.all(cid, parentId, exceptId, after, limit).map((row) => row.user_id),
  };
}
