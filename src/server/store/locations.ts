// Shared locations: one per message. A static location has no end_at; a live one has end_at
// and can be moved by its owner until then. "Active" is computed from end_at at read time, so
// a share drops out of the active list the moment it expires, with nothing to clean up.
import { placeholders, statementCache, type Db } from './db';

export type LocationRow = {
  message_id: string;
  cid: string;
  user_id: string;
  created_by_device_id: string;
  latitude: number;
  longitude: number;
  end_at: string | null;
  created_at: string;
  updated_at: string;
};

export function createLocationStore(db: Db) {
  const prepared = statementCache(db);
  const insert = db.prepare(
    `INSERT INTO shared_locations (message_id, cid, user_id, created_by_device_id, latitude, longitude, end_at,
       created_at, updated_at)
     VALUES (@message_id, @cid, @user_id, @created_by_device_id, @latitude, @longitude, @end_at, @created_at, @updated_at)`,
  );
  const update = db.prepare(
    `UPDATE shared_locations SET latitude = @latitude, longitude = @longitude, end_at = @end_at,
       created_by_device_id = @created_by_device_id, updated_at = @updated_at WHERE message_id = @message_id`,
  );
  const byMessage = db.prepare<[string], LocationRow>('SELECT * FROM shared_locations WHERE message_id = ?');
  // A deleted message takes its share with it (the SDK's LiveLocationManager drops it too).
  const active = db.prepare<[string, string], LocationRow>(
    `SELECT l.* FROM shared_locations l JOIN messages m ON m.id = l.message_id
     WHERE l.user_id = ? AND l.end_at IS NOT NULL AND l.end_at > ? AND m.deleted_at IS NULL
     ORDER BY l.created_at, l.message_id`,
  );

  function getMany(messageIds: Iterable<string>): Map<string, LocationRow> {
    const unique = [...new Set(messageIds)];
    const found = new Map<string, LocationRow>();
    if (!unique.length) return found;
    const rows = prepared<string[], LocationRow>(
        `SELECT * FROM shared_locations WHERE message_id IN (${placeholders(unique.length)})`,
    ).all(...unique);
    for (const row of rows) found.set(row.message_id, row);
    return found;
  }

  return {
    add: (row: LocationRow) => void insert.run(row),
    update: (row: LocationRow) => void update.run(row),
    get: (messageId: string) => byMessage.get(messageId),
    getMany,
    /** The user's live shares whose end_at is still ahead of `now`. */
    active: (userId: string, now: string) => active.all(userId, now),
  };
}
