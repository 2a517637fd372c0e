// Campaigns (`/campaigns`): what to send, from whom, to which targets, and how far a started one
// has got. A campaign takes its targets once, when it first starts (campaign_targets, in order),
// and marks each one sent or skipped as it goes, so a stopped or interrupted campaign resumes
// where it was and its progress is a count. Sending is features/campaigns.
import type { JsonObject } from '../http/input';
import type { Db } from './db';
import type { SegmentType } from './segments';
import { filtersToSql, sortToSql, type FilterSchema } from './filters-to-sql';

export type CampaignStatus = 'draft' | 'scheduled' | 'in_progress' | 'completed' | 'stopped';

export type CampaignRow = {
  id: string;
  name: string;
  description: string;
  sender_id: string;
  /** The campaign's settings (features/campaigns/campaign-input.ts CampaignSettings) as JSON. */
  settings: string;
  status: CampaignStatus;
  scheduled_for: string | null;
  stop_at: string | null;
  /** The task allowed to send for the campaign; any other one stops at its next step. */
  run_id: string | null;
  started_at: string | null;
  completed_at: string | null;
  /** How many targets it took when it started; null until then. */
  targets_total: number | null;
  targets_done: number;
  messages_sent: number;
  channels_created: number;
  users_sent: number;
  created_at: string;
  updated_at: string;
};

export type CampaignTargetRow = {
  seq: number;
  campaign_id: string;
  target_id: string;
  state: 'pending' | 'sent' | 'skipped';
  cid: string | null;
  message_id: string | null;
  sent_at: string | null;
  reason: string | null;
};

export type MessageTemplate = { text: string; attachments?: JsonObject[]; custom?: JsonObject };
export type MemberTemplate = { user_id: string; channel_role?: string };
export type ChannelTemplate = {
  type: string;
  id?: string;
  custom?: JsonObject;
  members?: string[];
  members_template?: MemberTemplate[];
};

/** A campaign's settings as stored (the campaigns table's `settings` column). */
export type CampaignSettings = {
  message_template: MessageTemplate;
  segment_ids: string[];
  user_ids: string[];
  sender_mode: 'include' | 'exclude' | null;
  sender_visibility: 'hidden' | 'archived' | null;
  channel_template: ChannelTemplate | null;
  create_channels: boolean;
  show_channels: boolean;
  skip_push: boolean;
  skip_webhook: boolean;
  /** What the targets are: user ids (user_ids, user segments) or cids (channel segments). */
  target_type: SegmentType;
};

/** The stored settings of a campaign, decoded. */
export function settingsOf(row: CampaignRow): CampaignSettings {
  return JSON.parse(row.settings) as CampaignSettings;
}

export type CampaignFields = Pick<CampaignRow, 'id' | 'name' | 'description' | 'sender_id' | 'settings'>;
/** The run's columns a start, a stop or the run itself changes; undefined keeps the stored value. */
export type CampaignRunPatch = Partial<
  Pick<CampaignRow, 'status' | 'scheduled_for' | 'stop_at' | 'run_id' | 'started_at' | 'completed_at' | 'targets_total'>
>;
/** What one target came to: the columns of its row and the campaign's counters to add. */
export type TargetOutcome = {
  state: 'sent' | 'skipped';
  cid?: string;
  messageId?: string;
  sentAt?: string;
  reason?: string;
  messages: number;
  channels: number;
  users: number;
};

// Fields other than these are read from the settings (create_channels, skip_push, …).
const CAMPAIGN_SCHEMA: FilterSchema = {
  fields: {
    id: { kind: 'text', sql: 'c.id' },
    name: { kind: 'text', sql: 'c.name' },
    description: { kind: 'text', sql: 'c.description' },
    sender_id: { kind: 'text', sql: 'c.sender_id' },
    status: { kind: 'text', sql: 'c.status' },
    scheduled_for: { kind: 'date', sql: 'c.scheduled_for' },
    stop_at: { kind: 'date', sql: 'c.stop_at' },
    created_at: { kind: 'date', sql: 'c.created_at' },
    updated_at: { kind: 'date', sql: 'c.updated_at' },
  },
  jsonColumn: 'c.settings',
};

const RUN_COLUMNS = new Set(['status', 'scheduled_for', 'stop_at', 'run_id', 'started_at', 'completed_at', 'targets_total']);

export function createCampaignStore(db: Db) {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO campaigns (id, name, description, sender_id, settings, status, created_at, updated_at)
     VALUES (@id, @name, @description, @sender_id, @settings, 'draft', @now, @now)`,
  );
  const one = db.prepare<[string], CampaignRow>('SELECT * FROM campaigns WHERE id = ?');
  const write = db.prepare(
    `UPDATE campaigns SET name = @name, description = @description, sender_id = @sender_id, settings = @settings,
       updated_at = @now WHERE id = @id`,
  );
  const remove = db.prepare('DELETE FROM campaigns WHERE id = ?');
  const withStatus = db.prepare<[string], CampaignRow>('SELECT * FROM campaigns WHERE status = ? ORDER BY created_at');
  // The next moment a campaign is due to start or to stop.
  const nextDue = db.prepare<[], { at: string | null }>(
    `SELECT MIN(at) AS at FROM (
       SELECT scheduled_for AS at FROM campaigns WHERE status = 'scheduled' AND scheduled_for IS NOT NULL
       UNION ALL
       SELECT stop_at AS at FROM campaigns WHERE status IN ('scheduled', 'in_progress') AND stop_at IS NOT NULL
     )`,
  );
  const dueToStart = db.prepare<[string], CampaignRow>(
    "SELECT * FROM campaigns WHERE status = 'scheduled' AND scheduled_for <= ? ORDER BY scheduled_for",
  );
  const dueToStop = db.prepare<[string], CampaignRow>(
    "SELECT * FROM campaigns WHERE status IN ('scheduled', 'in_progress') AND stop_at <= ? ORDER BY stop_at",
  );
  const usingSegment = db.prepare<[string], { id: string }>(
    `SELECT c.id FROM campaigns c WHERE c.status IN ('scheduled', 'in_progress')
       AND EXISTS (SELECT 1 FROM json_each(c.settings, '$.segment_ids') WHERE value = ?)`,
  );

  const clearTargets = db.prepare('DELETE FROM campaign_targets WHERE campaign_id = ?');
  const addTarget = db.prepare('INSERT OR IGNORE INTO campaign_targets (campaign_id, target_id) VALUES (?, ?)');
  const countTargets = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM campaign_targets WHERE campaign_id = ?');
  const pending = db.prepare<[string, number], CampaignTargetRow>(
    "SELECT * FROM campaign_targets WHERE campaign_id = ? AND state = 'pending' ORDER BY seq LIMIT ?",
  );
  const record = db.prepare(
    `UPDATE campaign_targets SET state = @state, cid = @cid, message_id = @messageId, sent_at = @sentAt, reason = @reason
     WHERE seq = @seq AND state = 'pending'`,
  );
  const count = db.prepare(
    `UPDATE campaigns SET targets_done = targets_done + 1, messages_sent = messages_sent + @messages,
       channels_created = channels_created + @channels, users_sent = users_sent + @users, updated_at = @now
     WHERE id = @id`,
  );
  // Receivers who have read the channel since the campaign's message reached it: a user target
  // is its own receiver; in a channel target every member but the sender is one.
  const usersRead = db.prepare<{ id: string; sender: string }, { n: number }>(
    `SELECT COUNT(*) AS n FROM (
       SELECT DISTINCT r.cid, r.user_id FROM campaign_targets t
       JOIN reads r ON r.cid = t.cid AND r.user_id != @sender
         AND (r.user_id = t.target_id OR t.target_id = t.cid)
         AND (r.last_read > t.sent_at OR r.last_read_message_id = t.message_id)
       WHERE t.campaign_id = @id AND t.state = 'sent'
     )`,
  );

  return {
    /** false when a campaign with that id exists. */
    create: (campaign: CampaignFields, now: string) => insert.run({ ...campaign, now }).changes > 0,
    get: (id: string) => one.get(id),
    /** Replaces the campaign's own fields (not its run). */
    write(campaign: CampaignFields, now: string): CampaignRow | undefined {
      write.run({ ...campaign, now });
      return one.get(campaign.id);
    },
    remove: (id: string) => remove.run(id).changes > 0,
    query({ filter, sort, limit, offset }: { filter: unknown; sort: unknown; limit: number; offset: number }): CampaignRow[] {
      const where = filtersToSql(filter, CAMPAIGN_SCHEMA);
      const order = sortToSql(sort, CAMPAIGN_SCHEMA, { fallback: [{ field: 'created_at', direction: 1 }], tiebreak: 'c.id ASC' });
      return db
        .prepare(`SELECT c.* FROM campaigns c WHERE ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`)
        .all(...where.params, ...order.params, limit, offset) as CampaignRow[];
    },
    /** Sets the run's columns; the names come from CampaignRunPatch, never from input. */
    patch(id: string, changes: CampaignRunPatch, now: string): CampaignRow | undefined {
      const entries = Object.entries(changes).filter(([column, value]) => value !== undefined && RUN_COLUMNS.has(column));
      if (entries.length) {
        const sets = entries.map(([column]) => `${column} = @${column}`).join(', ');
        db.prepare(`UPDATE campaigns SET ${sets}, updated_at = @now WHERE id = @id`).run({ id, now, ...Object.fromEntries(entries) });
      }
      return one.get(id);
    },
    withStatus: (status: CampaignStatus) => withStatus.all(status),
    nextDue: () => nextDue.get()?.at ?? null,
    dueToStart: (now: string) => dueToStart.all(now),
    dueToStop: (now: string) => dueToStop.all(now),
    /** Campaigns scheduled or sending that name the segment. */
    activeUsingSegment: (segmentId: string) => usingSegment.all(segmentId).map((row) => row.id),

    /** Forgets the targets taken so far (a start the server did not finish taking). */
    clearTargets: (id: string) => void clearTargets.run(id),
    /** Appends targets in order, once each; returns how many were new. */
    addTargets(id: string, targetIds: string[]): number {
      return db.transaction(() => targetIds.reduce((added, targetId) => added + addTarget.run(id, targetId).changes, 0))();
    },
    targetCount: (id: string) => countTargets.get(id)?.n ?? 0,
    pendingTargets: (id: string, limit: number) => pending.all(id, limit),
    /** Records what became of one target and counts it, together. */
    recordTarget(id: string, seq: number, outcome: TargetOutcome, now: string): void {
      db.transaction(() => {
        const changed = record.run({
          seq,
          state: outcome.state,
          cid: outcome.cid ?? null,
          messageId: outcome.messageId ?? null,
          sentAt: outcome.sentAt ?? null,
          reason: outcome.reason ?? null,
        }).changes;
        if (changed) count.run({ id, messages: outcome.messages, channels: outcome.channels, users: outcome.users, now });
      })();
    },
    usersRead: (id: string, senderId: string) => usersRead.get({ id, sender: senderId })?.n ?? 0,
  };
}
