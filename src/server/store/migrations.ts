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
  // 2 (the channel view): message edits and pins, reactions, threads with their read
  // state, per-member pinned/archived, mutes, flags and reminders.
  (db) => {
    db.exec(`
      -- A soft delete only sets deleted_at (undelete clears it); a hard delete also strips the
      -- content and sets hard_deleted, which cannot be undone.
      ALTER TABLE messages ADD COLUMN pinned_at TEXT;
      ALTER TABLE messages ADD COLUMN pinned_by_id TEXT;
      ALTER TABLE messages ADD COLUMN pin_expires TEXT;
      ALTER TABLE messages ADD COLUMN message_text_updated_at TEXT;
      ALTER TABLE messages ADD COLUMN hard_deleted INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX messages_pinned ON messages(cid, pinned_at) WHERE pinned_at IS NOT NULL;
      CREATE INDEX messages_pin_expires ON messages(pin_expires) WHERE pin_expires IS NOT NULL;

      ALTER TABLE members ADD COLUMN pinned_at TEXT;
      ALTER TABLE members ADD COLUMN archived_at TEXT;

      CREATE TABLE reactions (
        message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        user_id    TEXT NOT NULL REFERENCES users(id),
        type       TEXT NOT NULL,
        score      INTEGER NOT NULL DEFAULT 1,
        custom     TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (message_id, user_id, type)
      ) WITHOUT ROWID;
      CREATE INDEX reactions_message_created ON reactions(message_id, created_at);

      -- A thread exists from its first reply; participants are the parent's author and every
      -- replier, each with their own read state of the thread.
      CREATE TABLE threads (
        parent_id       TEXT PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
        cid             TEXT NOT NULL REFERENCES channels(cid) ON DELETE CASCADE,
        created_by_id   TEXT NOT NULL,
        title           TEXT NOT NULL DEFAULT '',
        custom          TEXT NOT NULL DEFAULT '{}',
        created_at      TEXT NOT NULL,
        updated_at      TEXT NOT NULL,
        last_message_at TEXT NOT NULL
      );
      CREATE TABLE thread_participants (
        parent_id              TEXT NOT NULL REFERENCES threads(parent_id) ON DELETE CASCADE,
        user_id                TEXT NOT NULL REFERENCES users(id),
        created_at             TEXT NOT NULL,
        last_read_at           TEXT NOT NULL,
        last_read_message_id   TEXT,
        unread_messages        INTEGER NOT NULL DEFAULT 0,
        last_thread_message_at TEXT,
        PRIMARY KEY (parent_id, user_id)
      ) WITHOUT ROWID;
      CREATE INDEX thread_participants_user ON thread_participants(user_id);

      CREATE TABLE user_mutes (
        user_id    TEXT NOT NULL REFERENCES users(id),
        target_id  TEXT NOT NULL REFERENCES users(id),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        expires    TEXT,
        PRIMARY KEY (user_id, target_id)
      ) WITHOUT ROWID;
      CREATE TABLE channel_mutes (
        user_id    TEXT NOT NULL REFERENCES users(id),
        cid        TEXT NOT NULL REFERENCES channels(cid) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        expires    TEXT,
        PRIMARY KEY (user_id, cid)
      ) WITHOUT ROWID;
      CREATE INDEX user_mutes_expires ON user_mutes(expires) WHERE expires IS NOT NULL;
      CREATE INDEX channel_mutes_expires ON channel_mutes(expires) WHERE expires IS NOT NULL;

      -- target_kind is 'message' or 'user'.
      CREATE TABLE flags (
        user_id     TEXT NOT NULL REFERENCES users(id),
        target_kind TEXT NOT NULL,
        target_id   TEXT NOT NULL,
        reason      TEXT,
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL,
        PRIMARY KEY (user_id, target_kind, target_id)
      ) WITHOUT ROWID;

      CREATE TABLE reminders (
        user_id     TEXT NOT NULL REFERENCES users(id),
        message_id  TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        cid         TEXT NOT NULL,
        remind_at   TEXT,
        notified_at TEXT,
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL,
        PRIMARY KEY (user_id, message_id)
      ) WITHOUT ROWID;
      CREATE INDEX reminders_due ON reminders(remind_at) WHERE remind_at IS NOT NULL AND notified_at IS NULL;
    `);
  },
  // 3 (the composer): uploaded files, polls with their options and votes, drafts,
  // shared locations, custom slash commands and channel bans.
  (db) => {
    db.exec(`
      -- The bytes live on disk under <uploads>/<id>/<name>; this row is what the URL resolves to.
      CREATE TABLE files (
        id         TEXT PRIMARY KEY,
        name       TEXT NOT NULL,
        kind       TEXT NOT NULL,
        cid        TEXT,
        user_id    TEXT,
        mime_type  TEXT NOT NULL,
        size       INTEGER NOT NULL,
        width      INTEGER,
        height     INTEGER,
        created_at TEXT NOT NULL
      );

      -- A poll is created on its own and then sent with exactly one message (message_id, cid),
      -- whose channel decides who may vote and who hears its events.
      CREATE TABLE polls (
        id                           TEXT PRIMARY KEY,
        name                         TEXT NOT NULL,
        description                  TEXT NOT NULL DEFAULT '',
        created_by_id                TEXT NOT NULL REFERENCES users(id),
        voting_visibility            TEXT NOT NULL DEFAULT 'public',
        enforce_unique_vote          INTEGER NOT NULL DEFAULT 0,
        max_votes_allowed            INTEGER,
        allow_answers                INTEGER NOT NULL DEFAULT 0,
        allow_user_suggested_options INTEGER NOT NULL DEFAULT 0,
        is_closed                    INTEGER NOT NULL DEFAULT 0,
        custom                       TEXT NOT NULL DEFAULT '{}',
        message_id                   TEXT,
        cid                          TEXT,
        created_at                   TEXT NOT NULL,
        updated_at                   TEXT NOT NULL
      );
      CREATE INDEX polls_cid ON polls(cid) WHERE cid IS NOT NULL;
      CREATE INDEX polls_created_by ON polls(created_by_id);
      CREATE TABLE poll_options (
        id         TEXT PRIMARY KEY,
        poll_id    TEXT NOT NULL REFERENCES polls(id) ON DELETE CASCADE,
        text       TEXT NOT NULL,
        position   INTEGER NOT NULL,
        custom     TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX poll_options_poll ON poll_options(poll_id, position);
      -- A vote has an option_id; an answer has answer_text instead.
      CREATE TABLE poll_votes (
        id          TEXT PRIMARY KEY,
        poll_id     TEXT NOT NULL REFERENCES polls(id) ON DELETE CASCADE,
        option_id   TEXT REFERENCES poll_options(id) ON DELETE CASCADE,
        answer_text TEXT,
        user_id     TEXT NOT NULL REFERENCES users(id),
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL
      );
      CREATE INDEX poll_votes_poll ON poll_votes(poll_id, created_at);
      CREATE INDEX poll_votes_user ON poll_votes(poll_id, user_id);

      -- One draft per user and composer: the channel's own (parent_id '') or a thread's.
      CREATE TABLE drafts (
        user_id    TEXT NOT NULL REFERENCES users(id),
        cid        TEXT NOT NULL REFERENCES channels(cid) ON DELETE CASCADE,
        parent_id  TEXT NOT NULL DEFAULT '',
        message    TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (user_id, cid, parent_id)
      ) WITHOUT ROWID;

      -- end_at set: a live location, updatable by its owner until then.
      CREATE TABLE shared_locations (
        message_id           TEXT PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
        cid                  TEXT NOT NULL,
        user_id              TEXT NOT NULL,
        created_by_device_id TEXT NOT NULL,
        latitude             REAL NOT NULL,
        longitude            REAL NOT NULL,
        end_at               TEXT,
        created_at           TEXT NOT NULL,
        updated_at           TEXT NOT NULL
      );
      CREATE INDEX shared_locations_live ON shared_locations(user_id, end_at) WHERE end_at IS NOT NULL;

      CREATE TABLE commands (
        name        TEXT PRIMARY KEY,
        description TEXT NOT NULL DEFAULT '',
        args        TEXT NOT NULL DEFAULT '',
        set_name    TEXT NOT NULL DEFAULT '',
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL
      );

      CREATE TABLE channel_bans (
        cid           TEXT NOT NULL REFERENCES channels(cid) ON DELETE CASCADE,
        user_id       TEXT NOT NULL REFERENCES users(id),
        created_by_id TEXT,
        reason        TEXT,
        expires       TEXT,
        created_at    TEXT NOT NULL,
        PRIMARY KEY (cid, user_id)
      ) WITHOUT ROWID;
    `);
  },
  // 4 (search): the full-text index of message text. It holds no copy of the text
  // (content=messages) and is kept in step by triggers, so every code path that sends, edits,
  // hard-deletes or cascades messages updates it. unicode61 with remove_diacritics 2 folds case
  // and accents ("Café" finds "cafe"); the 1- to 3-character prefix indexes keep the prefix
  // queries of someone still typing from merging every term that starts alike.
  (db) => {
    db.exec(`
      CREATE VIRTUAL TABLE message_search USING fts5(
        text, content = 'messages', content_rowid = 'seq',
        tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3'
      );
      CREATE TRIGGER message_search_insert AFTER INSERT ON messages BEGIN
        INSERT INTO message_search (rowid, text) VALUES (new.seq, new.text);
      END;
      CREATE TRIGGER message_search_delete AFTER DELETE ON messages BEGIN
        INSERT INTO message_search (message_search, rowid, text) VALUES ('delete', old.seq, old.text);
      END;
      CREATE TRIGGER message_search_update AFTER UPDATE OF text ON messages BEGIN
        INSERT INTO message_search (message_search, rowid, text) VALUES ('delete', old.seq, old.text);
        INSERT INTO message_search (rowid, text) VALUES (new.seq, new.text);
      END;
      INSERT INTO message_search (message_search) VALUES ('rebuild');
    `);
  },
  // 5 (the operator's side): user lifecycle (deactivation, deletion, token revocation),
  // blocks, global and shadow bans, shadowed and blocklist-flagged messages, review of flags,
  // blocklists, stored channel types, custom roles and permissions, app settings, channel
  // administration (frozen, disabled, cooldown, soft delete, truncation), invites and per-member
  // hiding, background tasks and the webhook outbox.
  (db) => {
    db.exec(`
      ALTER TABLE users ADD COLUMN deactivated_at TEXT;
      ALTER TABLE users ADD COLUMN deleted_at TEXT;
      ALTER TABLE users ADD COLUMN revoke_tokens_issued_before TEXT;

      CREATE TABLE user_blocks (
        user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        blocked_user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at      TEXT NOT NULL,
        PRIMARY KEY (user_id, blocked_user_id)
      ) WITHOUT ROWID;
      CREATE INDEX user_blocks_blocked ON user_blocks(blocked_user_id);

      ALTER TABLE channel_bans ADD COLUMN shadow INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE global_bans (
        user_id       TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        created_by_id TEXT,
        reason        TEXT,
        expires       TEXT,
        shadow        INTEGER NOT NULL DEFAULT 0,
        created_at    TEXT NOT NULL
      );
      CREATE INDEX channel_bans_user ON channel_bans(user_id);

      -- shadowed: sent by a shadow-banned author, seen only by them. moderation: JSON of what
      -- automatic moderation decided ({"blocklist": name, "action": "flag"}), or NULL.
      ALTER TABLE messages ADD COLUMN shadowed INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE messages ADD COLUMN moderation TEXT;
      -- A user's messages (deletion, export, deactivation) and, per channel, their latest one (slow mode).
      CREATE INDEX messages_user ON messages(user_id, cid, created_at);
      CREATE INDEX reactions_user ON reactions(user_id);
      CREATE INDEX poll_votes_voter ON poll_votes(user_id);
      CREATE INDEX user_mutes_target ON user_mutes(target_id);

      -- A moderator's verdict on everything flagged about one target (a message or a user).
      CREATE TABLE flag_reviews (
        target_kind   TEXT NOT NULL,
        target_id     TEXT NOT NULL,
        review_result TEXT NOT NULL,
        reviewed_by   TEXT,
        reviewed_at   TEXT NOT NULL,
        PRIMARY KEY (target_kind, target_id)
      ) WITHOUT ROWID;
      CREATE INDEX flags_target ON flags(target_kind, target_id);

      CREATE TABLE blocklists (
        name       TEXT PRIMARY KEY,
        type       TEXT NOT NULL DEFAULT 'word',
        words      TEXT NOT NULL DEFAULT '[]',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );

      -- Every channel type's whole settings (config, grants, permission rules) as JSON.
      CREATE TABLE channel_types (
        name       TEXT PRIMARY KEY,
        settings   TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE roles (
        name       TEXT PRIMARY KEY,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE permissions (
        id         TEXT PRIMARY KEY,
        data       TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE app_settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );

      ALTER TABLE channels ADD COLUMN frozen INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE channels ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE channels ADD COLUMN cooldown INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE channels ADD COLUMN deleted_at TEXT;
      ALTER TABLE channels ADD COLUMN truncated_at TEXT;

      ALTER TABLE members ADD COLUMN invited INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE members ADD COLUMN invite_accepted_at TEXT;
      ALTER TABLE members ADD COLUMN invite_rejected_at TEXT;
      ALTER TABLE members ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
      -- hide with clear_history: the member no longer sees messages before this instant.
      ALTER TABLE members ADD COLUMN history_cleared_at TEXT;
      -- A new message shows the channel again to those who hid it: found without a scan.
      CREATE INDEX members_hidden ON members(cid) WHERE hidden = 1;

      -- Users removed for good: a token issued before the removal must not bring them back.
      CREATE TABLE deleted_users (
        id         TEXT PRIMARY KEY,
        deleted_at TEXT NOT NULL
      );

      CREATE TABLE tasks (
        id         TEXT PRIMARY KEY,
        type       TEXT NOT NULL,
        status     TEXT NOT NULL,
        result     TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );

      -- Webhook deliveries not yet accepted by the receiver; a row leaves on a 2xx answer or
      -- after the last retry. Kept in the database so a restart or a long outage loses nothing
      -- and memory holds only the batch being sent.
      CREATE TABLE webhook_outbox (
        seq             INTEGER PRIMARY KEY,
        webhook_id      TEXT NOT NULL,
        body            TEXT NOT NULL,
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        last_error      TEXT,
        created_at      TEXT NOT NULL
      );
      CREATE INDEX webhook_outbox_due ON webhook_outbox(next_attempt_at, seq);
    `);
  },
  // 6: the channel event log behind POST /sync (store/event-log.ts), bounded in rows and age.
  (db) => {
    db.exec(`
      CREATE TABLE event_log (
        seq  INTEGER PRIMARY KEY,
        cid  TEXT NOT NULL,
        type TEXT NOT NULL,
        -- When the event happened (epoch ms): what last_sync_at is compared with.
        at   INTEGER NOT NULL,
        body TEXT NOT NULL
      );
      CREATE INDEX event_log_cid_at ON event_log(cid, at);
      CREATE INDEX event_log_at ON event_log(at);
      -- Every event at or after complete_from (epoch ms) is still in the log: a sync from
      -- earlier would miss pruned ones and is refused instead.
      CREATE TABLE event_log_state (
        id            INTEGER PRIMARY KEY CHECK (id = 1),
        complete_from INTEGER NOT NULL
      );
    `);
    // A database that already holds messages had events before there was a log.
    const hadHistory = db.prepare('SELECT 1 FROM messages LIMIT 1').get() !== undefined;
    db.prepare('INSERT INTO event_log_state (id, complete_from) VALUES (1, ?)').run(hadHistory ? Date.now() : 0);
  },
  // 7: devices and push (features/push): devices, push preferences, push providers and the push
  // outbox (the webhook outbox's columns, read by the same worker).
  (db) => {
    db.exec(`
      CREATE TABLE devices (
        id                 TEXT PRIMARY KEY,
        user_id            TEXT NOT NULL,
        push_provider      TEXT NOT NULL,
        push_provider_name TEXT,
        created_at         TEXT NOT NULL,
        -- Set when the provider said the token is dead: no more pushes go to it.
        disabled_reason    TEXT
      );
      CREATE INDEX devices_user ON devices(user_id, created_at);

      -- cid '' holds the user's own level; a channel's row overrides it in that channel.
      CREATE TABLE push_preferences (
        user_id          TEXT NOT NULL,
        cid              TEXT NOT NULL,
        chat_level       TEXT,
        call_level       TEXT,
        chat_preferences TEXT,
        disabled_until   TEXT,
        updated_at       TEXT NOT NULL,
        PRIMARY KEY (user_id, cid)
      ) WITHOUT ROWID;

      CREATE TABLE push_providers (
        type       TEXT NOT NULL,
        name       TEXT NOT NULL,
        config     TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (type, name)
      );

      CREATE TABLE push_outbox (
        seq             INTEGER PRIMARY KEY,
        delivery_id     TEXT NOT NULL,
        body            TEXT NOT NULL,
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        last_error      TEXT,
        created_at      TEXT NOT NULL
      );
      CREATE INDEX push_outbox_due ON push_outbox(next_attempt_at, seq);
    `);
  },
  // 8: campaigns and segments (features/campaigns): segments with their listed targets, and
  // campaigns with the targets each one took when it started and what became of each.
  (db) => {
    db.exec(`
      -- A segment lists its targets (user ids or cids) or selects them: by filter, all users,
      -- or all the sender's channels (all_users, all_sender_channels as 0/1).
      CREATE TABLE segments (
        id                  TEXT PRIMARY KEY,
        type                TEXT NOT NULL,
        name                TEXT NOT NULL DEFAULT '',
        description         TEXT NOT NULL DEFAULT '',
        filter              TEXT,
        all_users           INTEGER NOT NULL DEFAULT 0,
        all_sender_channels INTEGER NOT NULL DEFAULT 0,
        created_at          TEXT NOT NULL,
        updated_at          TEXT NOT NULL
      );
      CREATE INDEX segments_created ON segments(created_at);
      CREATE TABLE segment_targets (
        segment_id TEXT NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
        target_id  TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (segment_id, target_id)
      ) WITHOUT ROWID;

      -- settings: the campaign's own fields as given (templates, target lists, flags), JSON.
      -- run_id names the task allowed to send for it; a start or a stop replaces or clears it.
      CREATE TABLE campaigns (
        id               TEXT PRIMARY KEY,
        name             TEXT NOT NULL DEFAULT '',
        description      TEXT NOT NULL DEFAULT '',
        sender_id        TEXT NOT NULL,
        settings         TEXT NOT NULL,
        status           TEXT NOT NULL,
        scheduled_for    TEXT,
        stop_at          TEXT,
        run_id           TEXT,
        started_at       TEXT,
        completed_at     TEXT,
        targets_total    INTEGER,
        targets_done     INTEGER NOT NULL DEFAULT 0,
        messages_sent    INTEGER NOT NULL DEFAULT 0,
        channels_created INTEGER NOT NULL DEFAULT 0,
        users_sent       INTEGER NOT NULL DEFAULT 0,
        created_at       TEXT NOT NULL,
        updated_at       TEXT NOT NULL
      );
      CREATE INDEX campaigns_created ON campaigns(created_at);
      CREATE INDEX campaigns_status ON campaigns(status);
      -- One row per target a started campaign took (in order); state pending, sent or skipped.
      CREATE TABLE campaign_targets (
        seq         INTEGER PRIMARY KEY,
        campaign_id TEXT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
        target_id   TEXT NOT NULL,
        state       TEXT NOT NULL DEFAULT 'pending',
        cid         TEXT,
        message_id  TEXT,
        sent_at     TEXT,
        reason      TEXT,
        UNIQUE (campaign_id, target_id)
      );
      CREATE INDEX campaign_targets_state ON campaign_targets(campaign_id, state, seq);
    `);
  },
  // 9: translations, pending messages and edit history.
  (db) => {
    db.exec(`
      -- The message's translations as the provider shows them: {"<lang>_text": …, "language": source}.
      ALTER TABLE messages ADD COLUMN i18n TEXT;
      -- 1: sent pending, seen by its author alone until committed (features/messages/pending-messages.ts).
      ALTER TABLE messages ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;
      -- What a pending message waits with: the sender's metadata and how to deliver it on commit.
      CREATE TABLE pending_messages (
        message_id TEXT PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
        cid        TEXT NOT NULL,
        user_id    TEXT NOT NULL,
        metadata   TEXT,
        skip_push  INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL
      );
      CREATE INDEX pending_messages_sender ON pending_messages(cid, user_id, created_at);
      -- Every edit: the text, attachments, custom data and deleted state before it, who made it, when.
      CREATE TABLE message_history (
        seq           INTEGER PRIMARY KEY,
        message_id    TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        text          TEXT NOT NULL,
        attachments   TEXT NOT NULL,
        custom        TEXT NOT NULL,
        is_deleted    INTEGER NOT NULL,
        updated_by_id TEXT,
        updated_at    TEXT NOT NULL
      );
      CREATE INDEX message_history_message ON message_history(message_id, updated_at);
      CREATE INDEX message_history_updated ON message_history(updated_at);
    `);
  },
  // 10, imports: one row per import of a provider import file, its state and
  // the history of its states (features/import-export).
  (db) => {
    db.exec(`
      CREATE TABLE imports (
        id         TEXT PRIMARY KEY,
        path       TEXT NOT NULL,
        mode       TEXT NOT NULL,
        state      TEXT NOT NULL,
        size       INTEGER,
        result     TEXT,
        history    TEXT NOT NULL DEFAULT '[]',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX imports_created ON imports(created_at);
    `);
  },
  // Big rooms: a channel response carries the most recent readers, found
  // without reading every member's read state.
  (db) => {
    db.exec('CREATE INDEX reads_cid_last_read ON reads(cid, last_read)');
  },
  // The members a channel response lists (the first 100 by join time), found without sorting
  // every member of a big room.
  (db) => {
    db.exec('CREATE INDEX members_cid_created ON members(cid, created_at, user_id)');
  },
  // Who muted a channel, asked for each new message in it (muted members' unread stays as it was).
  (db) => {
    db.exec('CREATE INDEX channel_mutes_cid ON channel_mutes(cid)');
  },
  // A message's reminders, everyone's: what an event about the message adds for its watchers.
  (db) => {
    db.exec('CREATE INDEX reminders_message ON reminders(message_id)');
  },
  // Fan-out: a new message no longer rewrites every member's read row. Each channel
  // keeps a clock of the messages that count as unread; a read row keeps its count as of the
  // clock's value it last saw, so its unread count is that count plus what the clock moved since.
  (db) => {
    db.exec(`
      CREATE TABLE read_clocks (
        cid TEXT PRIMARY KEY REFERENCES channels(cid) ON DELETE CASCADE,
        seq INTEGER NOT NULL
      ) WITHOUT ROWID;
      ALTER TABLE reads ADD COLUMN seen_seq INTEGER NOT NULL DEFAULT 0;
      CREATE VIEW read_state AS
        SELECT r.cid, r.user_id, r.last_read, r.last_read_message_id,
               r.unread_messages + COALESCE(k.seq, 0) - r.seen_seq AS unread_messages
        FROM reads r LEFT JOIN read_clocks k ON k.cid = r.cid;
    `);
  },
  // A member's own custom fields (set and unset by the per-member partial update).
  (db) => {
    db.exec(`ALTER TABLE members ADD COLUMN custom TEXT NOT NULL DEFAULT '{}'`);
  },
  // A message only some users see (`restricted_visibility`): their ids as JSON, NULL for everyone.
  (db) => {
    db.exec('ALTER TABLE messages ADD COLUMN restricted_visibility TEXT');
  },
  // A review's details: what the reviewer wrote down with their verdict (`review_details`).
  (db) => {
    db.exec('ALTER TABLE flag_reviews ADD COLUMN review_details TEXT');
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
