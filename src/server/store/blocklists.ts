// Blocklists (`/blocklists`): named lists of words a channel type can block or flag messages
// with (its `blocklist` and `blocklist_behavior` config). The words are a JSON array. The
// provider's built-in lists (builtin-blocklists.ts) are read through here like the app's own, so
// every reader (channel type settings, the message check) finds them; they are never written.
import { builtinBlocklist, BUILTIN_BLOCKLISTS, type BlocklistRow } from './builtin-blocklists';
import type { Db } from './db';

export type { BlocklistRow };

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
  const get = (name: string): BlocklistRow | undefined => builtinBlocklist(name) ?? one.get(name);

  return {
    /** false when a list of that name exists already (a built-in one included). */
    create: (name: string, type: string, words: string[], now: string) =>
      !builtinBlocklist(name) && insert.run({ name, type, words: JSON.stringify(words), now }).changes > 0,
    get,
    /** Whether the list is one of the provider's own, which nobody may change. */
    isBuiltin: (name: string): boolean => builtinBlocklist(name) !== undefined,
    /** The list's words, lower-cased, parsed once per change: every message is checked against them. */
    wordSet(name: string): Set<string> | undefined {
      let words = parsed.get(name);
      if (!words) {
        const row = get(name);
        if (!row) return undefined;
        words = new Set((JSON.parse(row.words) as string[]).map((word) => word.toLowerCase()));
        parsed.set(name, words);
      }
      return words;
    },
    /** The built-in lists first, then the app's own by name. */
    all: (): BlocklistRow[] => [...BUILTIN_BLOCKLISTS, ...all.all()],
    /** The app's own lists (the provider's limit counts these). */
    count: () => count.get()?.n ?? 0,
    /** false when the app has no list of that name (a built-in one is not the app's to change). */
    setWords(name: string, words: string[], now: string): boolean {
      if (builtinBlocklist(name)) return false;
      parsed.delete(name);
      return setWords.run(JSON.stringify(words), now, name).changes > 0;
    },
    remove(name: string): boolean {
      if (builtinBlocklist(name)) return false;
      parsed.delete(name);
      return remove.run(name).changes > 0;
    },
  };
}
