// Push preferences (`POST /push_preferences`): per user (cid '') and per user and channel. A
// channel's row overrides the user's level in that channel; `disabled_until` snoozes either.
import type { Db } from './db';

export type PushPreferenceRow = {
  user_id: string;
  /** '' for the user's own level. */
  cid: string;
  chat_level: string | null;
  call_level: string | null;
  chat_preferences: string | null;
  disabled_until: string | null;
  updated_at: string;
};

/** A change: `undefined` keeps the stored value, `null` clears it. */
export type PushPreferencePatch = {
  userId: string;
  cid: string;
  chatLevel?: string | null;
  callLevel?: string | null;
  chatPreferences?: string | null;
  disabledUntil?: string | null;
  now: string;
};

export function createPushPreferenceStore(db: Db) {
  const one = db.prepare<[string, string], PushPreferenceRow>('SELECT * FROM push_preferences WHERE user_id = ? AND cid = ?');
  const put = db.prepare(
    `INSERT INTO push_preferences (user_id, cid, chat_level, call_level, chat_preferences, disabled_until, updated_at)
     VALUES (@user_id, @cid, @chat_level, @call_level, @chat_preferences, @disabled_until, @updated_at)
     ON CONFLICT (user_id, cid) DO UPDATE SET chat_level = @chat_level, call_level = @call_level,
       chat_preferences = @chat_preferences, disabled_until = @disabled_until, updated_at = @updated_at`,
  );

  function get(userId: string, cid: string): PushPreferenceRow | undefined {
    return one.get(userId, cid);
  }

  return {
    get,
    set(patch: PushPreferencePatch): PushPreferenceRow {
      const stored = get(patch.userId, patch.cid);
      const row: PushPreferenceRow = {
        user_id: patch.userId,
        cid: patch.cid,
        chat_level: patch.chatLevel !== undefined ? patch.chatLevel : stored?.chat_level ?? null,
        call_level: patch.callLevel !== undefined ? patch.callLevel : stored?.call_level ?? null,
        chat_preferences: patch.chatPreferences !== undefined ? patch.chatPreferences : stored?.chat_preferences ?? null,
        disabled_until: patch.disabledUntil !== undefined ? patch.disabledUntil : stored?.disabled_until ?? null,
        updated_at: patch.now,
      };
      put.run(row);
      return row;
    },
    /** The user's own row and their row for `cid`, in one call per recipient. */
    forChannel: (userId: string, cid: string) => ({ user: get(userId, ''), channel: get(userId, cid) }),
  };
}
