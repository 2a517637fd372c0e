// The channels and members tables. Channel custom data (image and anything else given in
// `data`) lives in a JSON column; `member_count` is kept in step with the members table so it
// can be filtered and sorted on.
import { placeholders, type Db } from './db';
import { ApiError } from '../http/errors';
import { filtersToSql, sortToSql, type FilterSchema, type SqlFragment } from './filters-to-sql';

export type ChannelRow = {
  cid: string;
  type: string;
  id: string;
  name: string | null;
  custom: string;
  created_by_id: string | null;
  member_count: number;
  created_at: string;
  updated_at: string;
  last_message_at: string | null;
  /** Channel administration (migration 5). */
  frozen: number;
  disabled: number;
  cooldown: number;
  deleted_at: string | null;
  truncated_at: string | null;
};

export type MemberRow = {
  cid: string;
  user_id: string;
  /** 'owner' for the creator, otherwise 'member'. */
  role: string;
  channel_role: string;
  created_at: string;
  updated_at: string;
  /** This member's own marks for their channel list (migration 2). */
  pinned_at: string | null;
  archived_at: string | null;
  /** Invitations and per-member hiding (migration 5). */
  invited: number;
  invite_accepted_at: string | null;
  invite_rejected_at: string | null;
  hidden: number;
  history_cleared_at: string | null;
  /** The member's own custom fields, a JSON object. */
  custom: string;
};

export type NewChannel = {
  type: string;
  id: string;
  name: string | null;
  custom: Record<string, unknown>;
  createdById: string | null;
  now: string;
};

export type ChannelQuery = {
  filter: unknown;
  sort: unknown;
  limit: number;
  offset: number;
  /** The querying user; null for server-side queries, which see every channel. */
  viewerId: string | null;
  /**
   * Whose own state (pinned, archived, hidden, muted, joined) the filters read: the viewer, or
   * the user a server-side query names with `user_id`.
   */
  userId?: string | null;
  /** Channel types anyone may read; other types are listed only to their members. */
  openTypes: string[];
};

export type MemberQuery = { cid: string; filter: unknown; sort: unknown; limit: number; offset: number };

export function createChannelStore(db: Db) {
  const byCid = db.prepare<[string], ChannelRow>('SELECT * FROM channels WHERE cid = ?');
  const insert = db.prepare(
    `INSERT INTO channels (cid, type, id, name, custom, created_by_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const setLastMessage = db.prepare('UPDATE channels SET last_message_at = ? WHERE cid = ?');
  const insertMember = db.prepare(
    `INSERT OR IGNORE INTO members (cid, user_id, role, channel_role, created_at, updated_at)
     VALUES (?, ?, ?, 'channel_member', ?, ?)`,
  );
  const recount = db.prepare(
    'UPDATE channels SET member_count = (SELECT COUNT(*) FROM members WHERE cid = @cid) WHERE cid = @cid',
  );
  const memberOf = db.prepare<[string, string], MemberRow>('SELECT * FROM members WHERE cid = ? AND user_id = ?');
  const memberPage = db.prepare<[string, number, number], MemberRow>(
    'SELECT * FROM members WHERE cid = ? ORDER BY created_at ASC, user_id ASC LIMIT ? OFFSET ?',
  );
  const memberIdList = db.prepare<[string], { user_id: string }>('SELECT user_id FROM members WHERE cid = ?');
  const ofType = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM channels WHERE type = ?');

  function create(channel: NewChannel): ChannelRow {
    const cid = `${channel.type}:${channel.id}`;
    insert.run(
      cid,
      channel.type,
      channel.id,
      channel.name,
      JSON.stringify(channel.custom),
      channel.createdById,
      channel.now,
      channel.now,
    );
    return byCid.get(cid) as ChannelRow;
  }

  /** Adds members (ignoring existing ones); returns the ids that were new. */
  function addMembers(cid: string, userIds: string[], role: string, now: string): string[] {
    const added = userIds.filter((userId) => insertMember.run(cid, userId, role, now, now).changes > 0);
    if (added.length) recount.run({ cid });
    return added;
  }

  function query({ filter, sort, limit, offset, viewerId, userId = viewerId, openTypes }: ChannelQuery): ChannelRow[] {
    const schema = channelSchema(userId);
    const where = filtersToSql(filter, schema);
    const order = sortToSql(sort, schema, {
      fallback: [{ field: 'last_updated', direction: -1 }],
      tiebreak: 'c.cid ASC',
    });
    const visible: SqlFragment =
      viewerId === null
        ? { sql: '1', params: [] }
        : {
            sql: `(c.type IN (${placeholders(openTypes.length) || "''"})
                   OR EXISTS (SELECT 1 FROM members m WHERE m.cid = c.cid AND m.user_id = ?))`,
            params: [...openTypes, viewerId],
          };
    // Hidden channels appear only to a filter that names `hidden` (the provider's rule).
    const shown = mentions(filter, 'hidden') ? '1' : 'COALESCE(vm.hidden, 0) = 0';
    // `vm` is the user's own membership: pinned/archived filters and the pinned_at sort read it.
    return db
      .prepare(
        `SELECT c.* FROM channels c LEFT JOIN members vm ON vm.cid = c.cid AND vm.user_id = ?
         WHERE c.deleted_at IS NULL AND ${shown} AND ${where.sql} AND ${visible.sql}
         ORDER BY ${order.sql} LIMIT ? OFFSET ?`,
      )
      .all(userId, ...where.params, ...visible.params, ...order.params, limit, offset) as ChannelRow[];
  }

  function queryMembers({ cid, filter, sort, limit, offset }: MemberQuery): MemberRow[] {
    const where = filtersToSql(filter, MEMBER_SCHEMA);
    const order = sortToSql(sort, MEMBER_SCHEMA, {
      fallback: [{ field: 'created_at', direction: 1 }],
      tiebreak: 'm.user_id ASC',
    });
    return db
      .prepare(
        `SELECT m.* FROM members m JOIN users u ON u.id = m.user_id
         WHERE m.cid = ? AND ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`,
      )
      .all(cid, ...where.params, ...order.params, limit, offset) as MemberRow[];
  }

  /**
   * Live channels by cid, type and filter tag (each given list narrows the selection), in cid
   * order, at most `limit`: what a channel batch update (PUT /channels/batch) changes.
   */
  function selectForBatch({ cids, types, tags }: { cids?: string[]; types?: string[]; tags?: string[] }, limit: number): ChannelRow[] {
    const where = ['deleted_at IS NULL'];
    const params: unknown[] = [];
    if (cids) {
      where.push('cid IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(cids));
    }
    if (types) {
      where.push('type IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(types));
    }
    if (tags) {
      where.push(`EXISTS (SELECT 1 FROM json_each(custom, '$.filter_tags') t WHERE t.value IN (SELECT value FROM json_each(?)))`);
      params.push(JSON.stringify(tags));
    }
    return db.prepare<unknown[], ChannelRow>(`SELECT * FROM channels WHERE ${where.join(' AND ')} ORDER BY cid LIMIT ?`).all(...params, limit);
  }

  return {
    get: (cid: string) => byCid.get(cid),
    create,
    addMembers,
    setLastMessageAt: (cid: string, at: string) => void setLastMessage.run(at, cid),
    member: (cid: string, userId: string) => memberOf.get(cid, userId),
    members: (cid: string, limit: number, offset: number) => memberPage.all(cid, limit, offset),
    memberIds: (cid: string) => memberIdList.all(cid).map((row) => row.user_id),
    /** Channels of a type, soft-deleted ones included. */
    countOfType: (type: string) => ofType.get(type)?.n ?? 0,
    query,
    queryMembers,
    selectForBatch,
  };
}

/** Whether a filter (at any depth of $and/$or/$nor) constrains `field`. */
function mentions(filter: unknown, field: string): boolean {
  if (Array.isArray(filter)) return filter.some((part) => mentions(part, field));
  if (typeof filter !== 'object' || filter === null) return false;
  return Object.entries(filter).some(([key, value]) => key === field || (key.startsWith('$') && mentions(value, field)));
}

function channelSchema(viewerId: string | null): FilterSchema {
  return {
    jsonColumn: 'c.custom',
    fields: {
      cid: { kind: 'text', sql: 'c.cid' },
      type: { kind: 'text', sql: 'c.type' },
      id: { kind: 'text', sql: 'c.id' },
      name: { kind: 'text', sql: 'c.name' },
      created_by_id: { kind: 'text', sql: 'c.created_by_id' },
      member_count: { kind: 'number', sql: 'c.member_count' },
      created_at: { kind: 'date', sql: 'c.created_at' },
      updated_at: { kind: 'date', sql: 'c.updated_at' },
      last_message_at: { kind: 'date', sql: 'c.last_message_at' },
      last_updated: { kind: 'date', sql: 'COALESCE(c.last_message_at, c.created_at)' },
      // The viewer's own "hide" (POST …/hide); hidden channels are left out unless asked for.
      hidden: { kind: 'boolean', sql: 'COALESCE(vm.hidden, 0)' },
      pinned: { kind: 'boolean', sql: '(vm.pinned_at IS NOT NULL)' },
      archived: { kind: 'boolean', sql: '(vm.archived_at IS NOT NULL)' },
      // DESC puts unpinned channels (NULL) last: SQLite orders NULL below every value.
      pinned_at: { kind: 'date', sql: 'vm.pinned_at' },
      archived_at: { kind: 'date', sql: 'vm.archived_at' },
      frozen: { kind: 'boolean', sql: 'c.frozen' },
      disabled: { kind: 'boolean', sql: 'c.disabled' },
      members: { compile: membersCondition },
      // The channel's filter tags (add_filter_tags): {$in: [tags]} any of them, {$eq: tag} that one.
      filter_tags: {
        compile: (op, value) => {
          const tags = op === '$in' && Array.isArray(value) ? value : op === '$eq' && typeof value === 'string' ? [value] : undefined;
          if (!tags || tags.some((tag) => typeof tag !== 'string')) throw ApiError.input('filter_tags supports {$in: [tags]} and {$eq: tag}');
          if (!tags.length) return { sql: '0', params: [] };
          return {
            sql: `EXISTS (SELECT 1 FROM json_each(c.custom, '$.filter_tags') t WHERE t.value IN (${placeholders(tags.length)}))`,
            params: tags as string[],
          };
        },
      },
      // Whether the viewer muted the channel (a mute in force now).
      muted: {
        compile: (op, value) => {
          if (op !== '$eq' || typeof value !== 'boolean' || viewerId === null) {
            throw ApiError.input('muted only supports {muted: true|false} for a user');
          }
          const sql = 'EXISTS (SELECT 1 FROM channel_mutes cm WHERE cm.cid = c.cid AND cm.user_id = ? AND (cm.expires IS NULL OR cm.expires > ?))';
          return { sql: value ? sql : `NOT ${sql}`, params: [viewerId, new Date().toISOString()] };
        },
      },
      joined: {
        compile: (op, value) => {
          if (op !== '$eq' || typeof value !== 'boolean' || viewerId === null) {
            throw ApiError.input('joined only supports {joined: true|false} for a user');
          }
          const sql = 'EXISTS (SELECT 1 FROM members m WHERE m.cid = c.cid AND m.user_id = ?)';
          return { sql: value ? sql : `NOT ${sql}`, params: [viewerId] };
        },
      },
    },
  };
}

/**
 * `members` matches channels by who is in them: `{$in: ids}` any of them, `{$nin: ids}` none of
 * them, `'id'`/`{$eq: 'id'}` contains that user, `{$eq: ids}` exactly those users.
 */
function membersCondition(op: string, value: unknown): SqlFragment {
  const has = (ids: string[]): SqlFragment => ({
    sql: `EXISTS (SELECT 1 FROM members m WHERE m.cid = c.cid AND m.user_id IN (${placeholders(ids.length)}))`,
    params: ids,
  });
  const ids = (list: unknown): string[] => {
    if (!Array.isArray(list) || !list.every((id) => typeof id === 'string')) {
      throw ApiError.input(`members ${op} needs a list of user ids`);
    }
    return list;
  };
  switch (op) {
    case '$in': {
      const list = ids(value);
      return list.length ? has(list) : { sql: '0', params: [] };
    }
    case '$nin': {
      const list = ids(value);
      if (!list.length) return { sql: '1', params: [] };
      const inner = has(list);
      return { sql: `NOT ${inner.sql}`, params: inner.params };
    }
    case '$eq':
      if (typeof value === 'string') return has([value]);
      {
        const list = [...new Set(ids(value))];
        if (!list.length) return { sql: 'c.member_count = 0', params: [] };
        return {
          sql: `(c.member_count = ? AND (SELECT COUNT(*) FROM members m WHERE m.cid = c.cid
                  AND m.user_id IN (${placeholders(list.length)})) = ?)`,
          params: [list.length, ...list, list.length],
        };
      }
    case '$ne':
      if (typeof value === 'string') {
        const inner = has([value]);
        return { sql: `NOT ${inner.sql}`, params: inner.params };
      }
      break;
  }
  throw ApiError.input(`operator ${op} is not supported on members`);
}

const MEMBER_SCHEMA: FilterSchema = {
  jsonColumn: 'u.custom',
  fields: {
    id: { kind: 'text', sql: 'm.user_id' },
    user_id: { kind: 'text', sql: 'm.user_id' },
    name: { kind: 'text', sql: 'u.name' },
    role: { kind: 'text', sql: 'u.role' },
    channel_role: { kind: 'text', sql: 'm.channel_role' },
    created_at: { kind: 'date', sql: 'm.created_at' },
    updated_at: { kind: 'date', sql: 'm.updated_at' },
    // A ban from this channel in force (shadow bans are not shown).
    banned: {
      kind: 'boolean',
      sql: "EXISTS (SELECT 1 FROM channel_bans b WHERE b.cid = m.cid AND b.user_id = m.user_id AND b.shadow = 0 AND (b.expires IS NULL OR b.expires > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))",
    },
  },
};
