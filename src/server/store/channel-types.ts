// Stored channel types (`/channeltypes`). Every request asks for its channel's type, so all of
// them are held in memory (a handful of rows) and every write goes through here to keep the
// copy in step.
import type { ChannelTypeSettings } from '../auth/channel-types';
import type { Db } from './db';

export function createChannelTypeStore(db: Db) {
  const insert = db.prepare(
    'INSERT OR IGNORE INTO channel_types (name, settings, created_at, updated_at) VALUES (?, ?, ?, ?)',
  );
  const update = db.prepare('UPDATE channel_types SET settings = ?, updated_at = ? WHERE name = ?');
  const remove = db.prepare('DELETE FROM channel_types WHERE name = ?');
  const load = () =>
    new Map(
      db
        .prepare<[], { name: string; settings: string }>('SELECT name, settings FROM channel_types ORDER BY name')
        .all()
        .map((row) => [row.name, JSON.parse(row.settings) as ChannelTypeSettings]),
    );
  let cache = load();

  return {
    get: (name: string): ChannelTypeSettings | undefined => cache.get(name),
    all: (): ChannelTypeSettings[] => [...cache.values()],
    /** Writes the types that do not exist yet (the built-ins on first start). */
    ensure(types: ChannelTypeSettings[]): void {
      for (const type of types) insert.run(type.config.name, JSON.stringify(type), type.config.created_at, type.config.updated_at);
      cache = load();
    },
    create(type: ChannelTypeSettings): boolean {
      const created = insert.run(type.config.name, JSON.stringify(type), type.config.created_at, type.config.updated_at).changes > 0;
      if (created) cache.set(type.config.name, type);
      return created;
    },
    put(type: ChannelTypeSettings): void {
      update.run(JSON.stringify(type), type.config.updated_at, type.config.name);
      cache.set(type.config.name, type);
    },
    remove(name: string): boolean {
      const removed = remove.run(name).changes > 0;
      cache.delete(name);
      return removed;
    },
  };
}
