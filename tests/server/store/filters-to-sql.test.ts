// The filter language against a real SQLite table: every operator, custom JSON fields, and
// the guarantee that values only ever travel as parameters.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/server/http/errors';
import { filtersToSql, sortToSql, type FilterSchema } from '../../../src/server/store/filters-to-sql';

const schema: FilterSchema = {
  jsonColumn: 't.custom',
  fields: {
    id: { kind: 'text', sql: 't.id' },
    name: { kind: 'text', sql: 't.name' },
    size: { kind: 'number', sql: 't.size' },
    created_at: { kind: 'date', sql: 't.created_at' },
    archived: { kind: 'boolean', sql: 't.archived' },
  },
};

const rows = [
  { id: 'a', name: 'Design Review', size: 3, created_at: '2024-01-01T00:00:00.000Z', archived: 0, custom: { topic: 'ui', tags: ['x', 'y'], vip: true } },
  { id: 'b', name: 'Developers', size: 10, created_at: '2024-02-01T00:00:00.000Z', archived: 1, custom: { topic: 'code', tags: ['y'] } },
  { id: 'c', name: '100% real_talk', size: 1, created_at: '2024-03-01T00:00:00.000Z', archived: 0, custom: { vip: false } },
  { id: 'd', name: null, size: 5, created_at: '2024-04-01T00:00:00.000Z', archived: 0, custom: { topic: 'ui', level: 2 } },
];

let db: Database.Database;

beforeAll(() => {
  db = new Database(':memory:');
  db.exec('CREATE TABLE t (id TEXT, name TEXT, size INTEGER, created_at TEXT, archived INTEGER, custom TEXT)');
  const insert = db.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)');
  for (const r of rows) insert.run(r.id, r.name, r.size, r.created_at, r.archived, JSON.stringify(r.custom));
});

afterAll(() => db.close());

function ids(filter: unknown, sort?: unknown): string[] {
  const where = filtersToSql(filter, schema);
  const order = sortToSql(sort, schema, { fallback: [{ field: 'id', direction: 1 }], tiebreak: 't.id ASC' });
  return db
    .prepare(`SELECT t.id FROM t WHERE ${where.sql} ORDER BY ${order.sql}`)
    .all(...where.params, ...order.params)
    .map((row) => (row as { id: string }).id);
}

describe('filtersToSql', () => {
  it('matches everything for an empty filter', () => {
    expect(ids({})).toEqual(['a', 'b', 'c', 'd']);
  });

  it('supports $eq (also implicit), $ne (missing counts as not equal), $in and $nin', () => {
    expect(ids({ id: 'b' })).toEqual(['b']);
    expect(ids({ name: { $eq: 'Developers' } })).toEqual(['b']);
    expect(ids({ name: { $ne: 'Developers' } })).toEqual(['a', 'c', 'd']);
    expect(ids({ id: { $in: ['a', 'c', 'zzz'] } })).toEqual(['a', 'c']);
    expect(ids({ id: { $in: [] } })).toEqual([]);
    expect(ids({ id: { $nin: ['a', 'c'] } })).toEqual(['b', 'd']);
    expect(ids({ name: null })).toEqual(['d']);
  });

  it('compares numbers and dates with $gt $gte $lt $lte', () => {
    expect(ids({ size: { $gt: 3 } })).toEqual(['b', 'd']);
    expect(ids({ size: { $gte: 3, $lt: 10 } })).toEqual(['a', 'd']);
    expect(ids({ created_at: { $lte: '2024-02-01T00:00:00Z' } })).toEqual(['a', 'b']);
    expect(ids({ created_at: { $gt: '2024-02-15' } })).toEqual(['c', 'd']);
    expect(ids({ archived: true })).toEqual(['b']);
  });

  it('supports $exists and $autocomplete (word prefixes, LIKE wildcards taken literally)', () => {
    expect(ids({ name: { $exists: false } })).toEqual(['d']);
    expect(ids({ name: { $autocomplete: 'rev' } })).toEqual(['a']);
    expect(ids({ name: { $autocomplete: 'de' } })).toEqual(['a', 'b']);
    expect(ids({ name: { $autocomplete: '100%' } })).toEqual(['c']);
    expect(ids({ name: { $autocomplete: '1_0' } })).toEqual([]);
    expect(ids({ name: { $autocomplete: 'real_' } })).toEqual(['c']);
  });

  it('combines with $and, $or and $nor', () => {
    expect(ids({ $or: [{ id: 'a' }, { size: { $gte: 5 } }] })).toEqual(['a', 'b', 'd']);
    expect(ids({ $and: [{ size: { $gte: 3 } }, { $or: [{ id: 'a' }, { id: 'd' }] }] })).toEqual(['a', 'd']);
    expect(ids({ $nor: [{ id: 'a' }, { id: 'b' }] })).toEqual(['c', 'd']);
  });

  it('reads unlisted fields from the JSON column: equality, booleans, $exists, $contains', () => {
    expect(ids({ topic: 'ui' })).toEqual(['a', 'd']);
    expect(ids({ topic: { $in: ['code', 'nope'] } })).toEqual(['b']);
    expect(ids({ vip: true })).toEqual(['a']);
    expect(ids({ vip: { $exists: true } })).toEqual(['a', 'c']);
    expect(ids({ level: { $gte: 2 } })).toEqual(['d']);
    expect(ids({ tags: { $contains: 'y' } })).toEqual(['a', 'b']);
  });

  it('sorts by listed and custom fields', () => {
    expect(ids({}, [{ field: 'size', direction: -1 }])).toEqual(['b', 'd', 'a', 'c']);
    expect(ids({ topic: { $exists: true } }, [{ topic: 1 }, { id: -1 }])).toEqual(['b', 'd', 'a']);
  });

  it('keeps values and paths out of the SQL text', () => {
    const hostile = "x'); DROP TABLE t; --";
    const fragment = filtersToSql(
      { name: hostile, $or: [{ topic: { $in: [hostile] } }, { name: { $autocomplete: hostile } }] },
      schema,
    );
    expect(fragment.sql).not.toContain('DROP');
    expect(fragment.params).toContain(hostile);
    expect(ids({ name: hostile })).toEqual([]);
    expect(ids({})).toHaveLength(4);
  });

  it('refuses unknown operators, bad values and strange field names with code 4', () => {
    const bad = [
      { name: { $regex: 'x' } },
      { $xor: [] },
      { $or: [] },
      { size: { $gt: 'big' } },
      { id: { $in: 'a' } },
      { 'bad"field': 1 },
      { created_at: { $gt: 'not a date' } },
    ];
    for (const filter of bad) {
      expect(() => filtersToSql(filter, schema), JSON.stringify(filter)).toThrow(ApiError);
      try {
        filtersToSql(filter, schema);
      } catch (error) {
        expect((error as ApiError).code).toBe(4);
      }
    }
    expect(() => sortToSql([{ field: 'size', direction: 2 }], schema, { fallback: [], tiebreak: 't.id' })).toThrow(
      ApiError,
    );
  });
});
