// Push providers (`/push_providers`): the app's credentials for APNs, Firebase, Huawei and
// Xiaomi, one row per type and name, the whole configuration kept as JSON.
import type { Db } from './db';

export type PushProviderRow = { type: string; name: string; config: string; created_at: string; updated_at: string };

export function createPushProviderStore(db: Db) {
  const all = db.prepare<[], PushProviderRow>('SELECT * FROM push_providers ORDER BY created_at, type, name');
  const one = db.prepare<[string, string], PushProviderRow>('SELECT * FROM push_providers WHERE type = ? AND name = ?');
  const put = db.prepare(
    `INSERT INTO push_providers (type, name, config, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (type, name) DO UPDATE SET config = excluded.config, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare('DELETE FROM push_providers WHERE type = ? AND name = ?');
  const anyRow = db.prepare<[], 1>('SELECT 1 FROM push_providers LIMIT 1').pluck();

  return {
    all: () => all.all(),
    /** Whether any provider is configured: asked for every new message, so no sort and no rows. */
    any: () => anyRow.get() !== undefined,
    get: (type: string, name: string) => one.get(type, name),
    upsert(type: string, name: string, config: string, now: string): PushProviderRow {
      put.run(type, name, config, now, now);
      return one.get(type, name) as PushProviderRow;
    },
    remove: (type: string, name: string) => remove.run(type, name).changes > 0,
  };
}
