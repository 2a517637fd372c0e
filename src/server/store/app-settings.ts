// The app's settings changed through `PATCH /app` (webhook URL and events, auth and permission
// checks, unique usernames, upload checks, app grants), one JSON value per key. Read on every
// request, so held in memory.
import type { Db } from './db';

export function createAppSettingStore(db: Db) {
  const rows = db.prepare<[], { key: string; value: string }>('SELECT key, value FROM app_settings');
  const put = db.prepare(
    'INSERT INTO app_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  const values = new Map<string, unknown>(rows.all().map((row) => [row.key, JSON.parse(row.value) as unknown]));

  // Moves on every write, so what is derived from the settings knows when to derive it again.
  let version = 0;

  return {
    /** Every stored setting; settings never written keep the defaults of the caller. */
    all: (): Record<string, unknown> => Object.fromEntries(values),
    version: (): number => version,
    set(changes: Record<string, unknown>): void {
      version++;
      for (const [key, value] of Object.entries(changes)) {
        put.run(key, JSON.stringify(value));
        values.set(key, value);
      }
    },
  };
}
