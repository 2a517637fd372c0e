// Opens the SQLite database: a file (created with its folder if missing) or ':memory:' for tests.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrations';

export type Db = Database.Database;

export function openDatabase(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  // WAL lets readers proceed while a write commits; NORMAL sync is durable across app crashes
  // (only an OS crash can lose the last transactions), which suits a development backend.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

export function nowIso(): string {
  return new Date().toISOString();
}

/** `?, ?, ?` for `count` bound parameters: the inside of an `IN (…)` list. */
export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/**
 * Prepared statements for SQL built per call (an `IN (?, ?, …)` list, optional bounds) kept by
 * their text: compiling one cost more than running it (on a channel's first page, about half the
 * query time). Bounded: past `max` texts the oldest is dropped. Only for statements used with
 * get/all/run as they come (no pluck or raw mode, which would stick to the shared statement).
 */
export function statementCache(db: Db, max = 256) {
  const statements = new Map<string, Database.Statement>();
  return <P extends unknown[] = unknown[], R = unknown>(sql: string): Database.Statement<P, R> => {
    let statement = statements.get(sql);
    if (statement) {
      statements.delete(sql); // most recently used last
    } else {
      statement = db.prepare(sql);
      if (statements.size >= max) statements.delete(statements.keys().next().value as string);
    }
    statements.set(sql, statement);
    return statement as Database.Statement<P, R>;
  };
}
