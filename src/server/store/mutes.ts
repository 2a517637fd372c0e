// User mutes and channel mutes. Either may expire; an expired row counts as not muted until the
// expiry timer deletes it (and tells the muter), so reads never depend on the timer's punctuality.
import type { Db } from './db';

export type UserMuteRow = { user_id: string; target_id: string; created_at: string; updated_at: string; expires: string | null };
export type ChannelMuteRow = { user_id: string; cid: string; created_at: string; updated_at: string; expires: string | null };

export function createMuteStore(db: Db) {
  const muteUser = db.prepare(
    `INSERT INTO user_mutes (user_id, target_id, created_at, updated_at, expires) VALUES (@userId, @targetId, @now, @now, @expires)
     ON CONFLICT (user_id, target_id) DO UPDATE SET updated_at = @now, expires = @expires`,
  );
  const userMute = db.prepare<[string, string], UserMuteRow>('SELECT * FROM user_mutes WHERE user_id = ? AND target_id = ?');
  const unmuteUser = db.prepare('DELETE FROM user_mutes WHERE user_id = ? AND target_id = ?');
  const userMutes = db.prepare<[string, string], UserMuteRow>(
    'SELECT * FROM user_mutes WHERE user_id = ? AND (expires IS NULL OR expires > ?) ORDER BY created_at',
  );
  const muteChannel = db.prepare(
    `INSERT INTO channel_mutes (user_id, cid, created_at, updated_at, expires) VALUES (@userId, @cid, @now, @now, @expires)
     ON CONFLICT (user_id, cid) DO UPDATE SET updated_at = @now, expires = @expires`,
  );
  const channelMute = db.prepare<[string, string], ChannelMuteRow>('SELECT * FROM channel_mutes WHERE user_id = ? AND cid = ?');
  const unmuteChannel = db.prepare('DELETE FROM channel_mutes WHERE user_id = ? AND cid = ?');
  const channelMutes = db.prepare<[string, string], ChannelMuteRow>(
    'SELECT * FROM channel_mutes WHERE user_id = ? AND (expires IS NULL OR expires > ?) ORDER BY created_at',
  );
  const nextExpiry = db.prepare<[], { at: string | null }>(
    `SELECT MIN(at) AS at FROM (SELECT MIN(expires) AS at FROM user_mutes WHERE expires IS NOT NULL
                                UNION ALL SELECT MIN(expires) FROM channel_mutes WHERE expires IS NOT NULL)`,
  );
  const expiredUsers = db.prepare<[string], { user_id: string }>(
    `SELECT user_id FROM user_mutes WHERE expires IS NOT NULL AND expires <= ?`,
  );
  const expiredChannels = db.prepare<[string], { user_id: string }>(
    `SELECT user_id FROM channel_mutes WHERE expires IS NOT NULL AND expires <= ?`,
  );
  const dropUsers = db.prepare('DELETE FROM user_mutes WHERE expires IS NOT NULL AND expires <= ?');
  const dropChannels = db.prepare('DELETE FROM channel_mutes WHERE expires IS NOT NULL AND expires <= ?');

  return {
    muteUser(userId: string, targetId: string, expires: string | null, now: string): UserMuteRow {
      muteUser.run({ userId, targetId, expires, now });
      return userMute.get(userId, targetId) as UserMuteRow;
    },
    unmuteUser: (userId: string, targetId: string) => unmuteUser.run(userId, targetId).changes > 0,
    /** Active user mutes of `userId`. */
    userMutes: (userId: string, now: string) => userMutes.all(userId, now),
    muteChannel(userId: string, cid: string, expires: string | null, now: string): ChannelMuteRow {
      muteChannel.run({ userId, cid, expires, now });
      return channelMute.get(userId, cid) as ChannelMuteRow;
    },
    unmuteChannel: (userId: string, cid: string) => unmuteChannel.run(userId, cid).changes > 0,
    channelMutes: (userId: string, now: string) => channelMutes.all(userId, now),
    nextExpiry: () => nextExpiry.get()?.at ?? null,
    /** Deletes expired mutes; returns whose user and channel mute lists changed. */
    expire(now: string): { users: string[]; channels: string[] } {
      const users = [...new Set(expiredUsers.all(now).map((row) => row.user_id))];
      const channels = [...new Set(expiredChannels.all(now).map((row) => row.user_id))];
      dropUsers.run(now);
      dropChannels.run(now);
      return { users, channels };
    },
  };
}
