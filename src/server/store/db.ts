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
