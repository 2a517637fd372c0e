// Schema migrations, applied in order. `PRAGMA user_version` records how many have run, so a
// database file created by an older build is brought forward on start and never re-migrated.
// Append new steps; never edit a step that has shipped.
import type { Database } from 'better-sqlite3';

type Migration = (db: Database) => void;

export const migrations: Migration[] = [
  // 1: users, channels + members, messages, reads.
  (db) => {
    db.exec(`
      CREATE TABLE users (
        id          TEXT PRIMARY KEY,
        role        TEXT NOT NULL DEFAULT 'user',
        name        TEXT,
        image       TEXT,
        custom      TEXT NOT NULL DEFAULT '{}',
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL,
        last_active TEXT
      );

      CREATE TABLE channels (
        cid             TEXT PRIMARY KEY,
        type            TEXT NOT NULL,
        id              TEXT NOT NULL,
        name            TEXT,
        custom          TEXT NOT NULL DEFAULT '{}',
        created_by_id   TEXT REFERENCES users(id),
        member_count    INTEGER NOT NULL DEFAULT 0,
        created_at      TEXT NOT NULL,
        updated_at      TEXT NOT NULL,
        last_message_at TEXT
      );
      CREATE INDEX channels_last_message_at ON channels(last_message_at);

      CREATE TABLE members (
        cid          TEXT NOT NULL REFERENCES channels(cid) ON DELETE CASCADE,
        user_id      TEXT NOT NULL REFERENCES users(id),
        role         TEXT NOT NULL DEFAULT 'member',
        channel_role TEXT NOT NULL DEFAULT 'channel_member',
        created_at   TEXT NOT NULL,
        updated_at   TEXT NOT NULL,
        PRIMARY KEY (cid, user_id)
      ) WITHOUT ROWID;
      CREATE INDEX members_user ON members(user_id);

      -- seq is the rowid: it orders messages created in the same millisecond, and the
      -- (cid, created_at) index implicitly ends with it, so "page before/after/around a message"
      -- is one index range scan however many rows the table holds.
      CREATE TABLE messages (
        seq                INTEGER PRIMARY KEY,
        id                 TEXT NOT NULL UNIQUE,
        cid                TEXT NOT NULL REFERENCES channels(cid) ON DELETE CASCADE,
        user_id            TEXT NOT NULL REFERENCES users(id),
        type               TEXT NOT NULL,
        text               TEXT NOT NULL DEFAULT '',
        parent_id          TEXT,
        show_in_channel    INTEGER NOT NULL DEFAULT 0,
        quoted_message_id  TEXT,
        mentioned_user_ids TEXT NOT NULL DEFAULT '[]',
        attachments        TEXT NOT NULL DEFAULT '[]',
        custom             TEXT NOT NULL DEFAULT '{}',
        reply_count        INTEGER NOT NULL DEFAULT 0,
        created_at         TEXT NOT NULL,
        updated_at         TEXT NOT NULL,
        deleted_at         TEXT
      );
      CREATE INDEX messages_cid_created_at ON messages(cid, created_at);
      CREATE INDEX messages_parent ON messages(parent_id, created_at) WHERE parent_id IS NOT NULL;

      CREATE TABLE reads (
        cid                  TEXT NOT NULL REFERENCES channels(cid) ON DELETE CASCADE,
        user_id              TEXT NOT NULL REFERENCES users(id),
        last_read            TEXT NOT NULL,
        last_read_message_id TEXT,
        unread_messages      INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (cid, user_id)
      ) WITHOUT ROWID;
      CREATE INDEX reads_user ON reads(user_id);
    `);
  },
];

export function migrate(db: Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let version = current; version < migrations.length; version++) {
    const step = migrations[version];
    if (!step) break;
    db.transaction(() => {
      step(db);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
