// The users table: identity, role, display fields and custom data (a JSON column).
import type { Db } from './db';
import { nowIso } from './db';
import { ApiError } from '../http/errors';
import { filtersToSql, sortToSql, type FilterSchema, type SqlFragment } from './filters-to-sql';

export type UserRow = {
  id: string;
  role: string;
  name: string | null;
  image: string | null;
  custom: string;
  created_at: string;
  updated_at: string;
  last_active: string | null;
  /** The user's lifecycle (migration 5): deactivated users cannot connect or call anything. */
  deactivated_at: string | null;
  deleted_at: string | null;
  /** Tokens issued (iat) before this instant are refused. */
  revoke_tokens_issued_before: string | null;
};

/** The writable part of a user; `undefined` keeps the stored value. */
export type UserPatch = {
  id: string;
  role?: string;
  name?: string | null;
  image?: string | null;
  custom?: Record<string, unknown>;
  lastActive?: string;
};

export type UserQuery = {
  filter: unknown;
  sort: unknown;
  limit: number;
  offset: number;
  /** Connected user ids, for the computed `online` field. */
  onlineIds: string[];
};

export function createUserStore(db: Db) {
  const byId = db.prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?');
  const insert = db.prepare(
    `INSERT INTO users (id, role, name, image, custom, created_at, updated_at, last_active)
     VALUES (@id, @role, @name, @image, @custom, @now, @now, @last_active)`,
  );
  const update = db.prepare(
    `UPDATE users SET role = @role, name = @name, image = @image, custom = @custom,
       last_active = @last_active, updated_at = @now WHERE id = @id`,
  );
  const count = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM users');

  function get(id: string): UserRow | undefined {
    return byId.get(id);
  }

  function getMany(ids: Iterable<string>): Map<string, UserRow> {
    const unique = [...new Set(ids)];
    const found = new Map<string, UserRow>();
    // Chunked to stay under SQLite's bound-parameter limit.
    for (let i = 0; i < unique.length; i += 500) {
      const chunk = unique.slice(i, i + 500);
      const rows = db
        .prepare<string[], UserRow>(`SELECT * FROM users WHERE id IN (${chunk.map(() => '?').join(',')})`)
        .all(...chunk);
      for (const row of rows) found.set(row.id, row);
    }
    return found;
  }

  /** Inserts or merges: fields left undefined keep their stored values; custom fields merge. */
  function upsert(patch: UserPatch): UserRow {
    const now = nowIso();
    const existing = get(patch.id);
    const custom = { ...(existing ? (JSON.parse(existing.custom) as object) : {}), ...patch.custom };
    const row = {
      id: patch.id,
      role: patch.role ?? existing?.role ?? 'user',
      name: patch.name !== undefined ? patch.name : (existing?.name ?? null),
      image: patch.image !== undefined ? patch.image : (existing?.image ?? null),
      custom: JSON.stringify(custom),
      last_active: patch.lastActive ?? existing?.last_active ?? null,
      now,
    };
    (existing ? update : insert).run(row);
    return get(patch.id) as UserRow;
  }

  /** A user that authenticated with a valid token exists from then on, even before connecting. */
  function ensure(id: string): UserRow {
    return get(id) ?? upsert({ id });
  }

  function query({ filter, sort, limit, offset, onlineIds }: UserQuery): UserRow[] {
    const schema = userSchema(onlineIds);
    const where = filtersToSql(filter, schema);
    const order = sortToSql(sort, schema, {
      fallback: [{ field: 'created_at', direction: 1 }],
      tiebreak: 'u.id ASC',
    });
    return db
      .prepare(`SELECT u.* FROM users u WHERE ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`)
      .all(...where.params, ...order.params, limit, offset) as UserRow[];
  }

  return {
    get,
    getMany,
    upsert,
    ensure,
    query,
    count: () => count.get()?.n ?? 0,
  };
}

function userSchema(onlineIds: string[]): FilterSchema {
  return {
    jsonColumn: 'u.custom',
    fields: {
      id: { kind: 'text', sql: 'u.id' },
      name: { kind: 'text', sql: 'u.name' },
      role: { kind: 'text', sql: 'u.role' },
      created_at: { kind: 'date', sql: 'u.created_at' },
      updated_at: { kind: 'date', sql: 'u.updated_at' },
      last_active: { kind: 'date', sql: 'u.last_active' },
      // Bans are not implemented yet: nobody is banned.
      banned: { kind: 'boolean', sql: '0' },
      online: {
        compile: (op, value): SqlFragment => {
          if (op !== '$eq' || typeof value !== 'boolean') {
            throw ApiError.input('online only supports {online: true|false}');
          }
          const marks = onlineIds.map(() => '?').join(',');
          const isOnline = onlineIds.length ? `u.id IN (${marks})` : '0';
          return { sql: value ? `(${isOnline})` : `(NOT ${isOnline})`, params: [...onlineIds] };
        },
      },
    },
  };
}
