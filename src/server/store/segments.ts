// Segments (`/segments`): named groups of users or channels a campaign sends to, and the targets
// listed in them (user ids, or cids for channel segments). Which targets a segment selects when
// it has a filter instead is store/segment-targets.ts.
import type { Db } from './db';
import { filtersToSql, sortToSql, type FilterSchema } from './filters-to-sql';

export type SegmentType = 'user' | 'channel';

export type SegmentRow = {
  id: string;
  type: SegmentType;
  name: string;
  description: string;
  /** The filter as JSON, or null for a segment of listed targets. */
  filter: string | null;
  all_users: number;
  all_sender_channels: number;
  created_at: string;
  updated_at: string;
};

export type SegmentTargetRow = { segment_id: string; target_id: string; created_at: string };

export type NewSegment = Omit<SegmentRow, 'created_at' | 'updated_at'>;
export type SegmentChanges = Pick<SegmentRow, 'name' | 'description' | 'filter'>;
export type Query = { filter: unknown; sort: unknown; limit: number; offset: number };

// Neither segments nor their targets have custom fields: an unknown field reads from an empty
// object and matches nothing, as a custom field no row has would.
const SEGMENT_SCHEMA: FilterSchema = {
  fields: {
    id: { kind: 'text', sql: 's.id' },
    type: { kind: 'text', sql: 's.type' },
    name: { kind: 'text', sql: 's.name' },
    description: { kind: 'text', sql: 's.description' },
    created_at: { kind: 'date', sql: 's.created_at' },
    updated_at: { kind: 'date', sql: 's.updated_at' },
  },
  jsonColumn: "'{}'",
};

const TARGET_SCHEMA: FilterSchema = {
  fields: {
    target_id: { kind: 'text', sql: 't.target_id' },
    created_at: { kind: 'date', sql: 't.created_at' },
  },
  jsonColumn: "'{}'",
};

export function createSegmentStore(db: Db) {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO segments (id, type, name, description, filter, all_users, all_sender_channels, created_at, updated_at)
     VALUES (@id, @type, @name, @description, @filter, @all_users, @all_sender_channels, @now, @now)`,
  );
  const one = db.prepare<[string], SegmentRow>('SELECT * FROM segments WHERE id = ?');
  const change = db.prepare(
    'UPDATE segments SET name = @name, description = @description, filter = @filter, updated_at = @now WHERE id = @id',
  );
  const touch = db.prepare('UPDATE segments SET updated_at = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM segments WHERE id = ?');
  const addTarget = db.prepare('INSERT OR IGNORE INTO segment_targets (segment_id, target_id, created_at) VALUES (?, ?, ?)');
  const removeTarget = db.prepare('DELETE FROM segment_targets WHERE segment_id = ? AND target_id = ?');
  const hasTarget = db.prepare<[string, string], { one: number }>(
    'SELECT 1 AS one FROM segment_targets WHERE segment_id = ? AND target_id = ?',
  );
  const count = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM segment_targets WHERE segment_id = ?');
  const after = db.prepare<[string, string, number], SegmentTargetRow>(
    'SELECT * FROM segment_targets WHERE segment_id = ? AND target_id > ? ORDER BY target_id LIMIT ?',
  );

  return {
    /** false when a segment with that id exists. */
    create: (segment: NewSegment, now: string) => insert.run({ ...segment, now }).changes > 0,
    get: (id: string) => one.get(id),
    update(id: string, changes: SegmentChanges, now: string): SegmentRow | undefined {
      change.run({ id, ...changes, now });
      return one.get(id);
    },
    /** Removes the segment and its targets; false when there was none. */
    remove: (id: string) => remove.run(id).changes > 0,
    query({ filter, sort, limit, offset }: Query): SegmentRow[] {
      const where = filtersToSql(filter, SEGMENT_SCHEMA);
      const order = sortToSql(sort, SEGMENT_SCHEMA, { fallback: [{ field: 'created_at', direction: 1 }], tiebreak: 's.id ASC' });
      return db
        .prepare(`SELECT s.* FROM segments s WHERE ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`)
        .all(...where.params, ...order.params, limit, offset) as SegmentRow[];
    },
    /** Adds targets (ignoring listed ones); returns how many were new. */
    addTargets(id: string, targetIds: string[], now: string): number {
      return db.transaction(() => {
        let added = 0;
        for (const targetId of targetIds) added += addTarget.run(id, targetId, now).changes;
        if (added) touch.run(now, id);
        return added;
      })();
    },
    /** Removes targets; returns how many were listed. */
    removeTargets(id: string, targetIds: string[], now: string): number {
      return db.transaction(() => {
        let removed = 0;
        for (const targetId of targetIds) removed += removeTarget.run(id, targetId).changes;
        if (removed) touch.run(now, id);
        return removed;
      })();
    },
    hasTarget: (id: string, targetId: string) => hasTarget.get(id, targetId) !== undefined,
    targetCount: (id: string) => count.get(id)?.n ?? 0,
    queryTargets(id: string, { filter, sort, limit, offset }: Query): SegmentTargetRow[] {
      const where = filtersToSql(filter, TARGET_SCHEMA);
      const order = sortToSql(sort, TARGET_SCHEMA, { fallback: [{ field: 'created_at', direction: 1 }], tiebreak: 't.target_id ASC' });
      return db
        .prepare(`SELECT t.* FROM segment_targets t WHERE t.segment_id = ? AND ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`)
        .all(id, ...where.params, ...order.params, limit, offset) as SegmentTargetRow[];
    },
    /** The listed targets after `afterId` in id order: a walk that stays cheap however long the list. */
    targetsAfter: (id: string, afterId: string, limit: number) => after.all(id, afterId, limit),
  };
}
