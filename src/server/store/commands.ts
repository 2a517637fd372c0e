// Custom slash commands (`/commands`). The provider's built-ins (giphy, ban, …) are part of the
// code (channel-types.ts); this table holds only the ones an app adds.
import type { Db } from './db';

export type CommandRow = {
  name: string;
  description: string;
  args: string;
  set_name: string;
  created_at: string;
  updated_at: string;
};

export function createCommandStore(db: Db) {
  const all = db.prepare<[], CommandRow>('SELECT * FROM commands ORDER BY name');
  const byName = db.prepare<[string], CommandRow>('SELECT * FROM commands WHERE name = ?');
  const upsert = db.prepare(
    `INSERT INTO commands (name, description, args, set_name, created_at, updated_at)
     VALUES (@name, @description, @args, @set_name, @now, @now)
     ON CONFLICT (name) DO UPDATE SET description = excluded.description, args = excluded.args,
       set_name = excluded.set_name, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare('DELETE FROM commands WHERE name = ?');

  return {
    all: () => all.all(),
    get: (name: string) => byName.get(name),
    save: (row: Pick<CommandRow, 'name' | 'description' | 'args' | 'set_name'> & { now: string }) => {
      upsert.run(row);
      return byName.get(row.name) as CommandRow;
    },
    remove: (name: string) => remove.run(name).changes > 0,
  };
}
