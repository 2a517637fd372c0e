// Blocklists (`/blocklists`): named lists of words a channel type can block or flag messages
// with (its `blocklist` and `blocklist_behavior` config). The words are a JSON array.
import type { Db } from './db';

export type BlocklistRow = { name: string; type: string; words: string; created_at: string; updated_at: string };

export function createBlocklistStore(db: Db) {
  const insert = db.prepare(
    'INSERT OR IGNORE INTO blocklists (name, type, words, created_at, updated_at) VALUES (@name, @type, @words, @now, @now)',
  );
  const setWords = db.prepare('UPDATE blocklists SET words = ?, updated_at = ? WHERE name = ?');
  const one = db.prepare<[string], BlocklistRow>('SELECT * FROM blocklists WHERE name = ?');
  const all = db.prepare<[], BlocklistRow>('SELECT * FROM blocklists ORDER BY name');
  const parsed = new Map<string, Set<string>>();
  const count = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM blocklists');
  const remove = db.prepare('DELETE FROM blocklists WHERE name = ?');

  return {
    /** false when a list of that name exists already. */
    create: (name: string, type: string, words: string[], now: string) =>
      insert.run({ name, type, words: JSON.stringify(words), now }).changes > 0,
    get: (name: string) => one.get(name),
    /** The list's words, lower-cased, parsed once per change: every message is checked against them. */
    wordSet(name: string): Set<string> | undefined {
      let words = parsed.get(name);
      if (!words) {
        const row = one.get(name);
        if (!row) return undefined;
        words = new Set((JSON.parse(row.words) as string[]).map((word) => word.toLowerCase()));
        parsed.set(name, words);
      }
      return words;
    },
    all: () => all.all(),
    count: () => count.get()?.n ?? 0,
    /** false when there is no list of that name. */
    setWords(name: string, words: string[], now: string): boolean {
      parsed.delete(name);
      return setWords.run(JSON.stringify(words), now, name).changes > 0;
    },
    remove(name: string): boolean {
      parsed.delete(name);
      return remove.run(name).changes > 0;
    },
  };
}
