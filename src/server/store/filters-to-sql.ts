// The provider's Mongo-like query language, translated once and generally into SQL.
// A filter is `{field: value | {$op: value, …}, $and: [...], $or: [...], $nor: [...]}`; a sort is
// `[{field, direction}]`. Each resource (channels, users, members) describes its fields in a
// FilterSchema; fields it does not list are custom fields read from its JSON column. Every value
// and every JSON path travels as a bound parameter: no user input is ever spliced into SQL text.
import { ApiError } from '../http/errors';
import { placeholders } from './db';
import { isObject } from '../http/input';

export type SqlValue = string | number | null;
export type SqlFragment = { sql: string; params: SqlValue[] };

export type FieldKind = 'text' | 'number' | 'date' | 'boolean';
export type Operator =
  | '$eq' | '$ne' | '$in' | '$nin' | '$gt' | '$gte' | '$lt' | '$lte'
  | '$exists' | '$autocomplete' | '$contains' | '$q';

/** A column (or any SQL expression over the row) with a known type. */
export type ColumnField = { kind: FieldKind; sql: string };
/** A field whose meaning is not a plain comparison (e.g. channel `members`). */
export type ComputedField = { compile: (op: Operator, value: unknown) => SqlFragment };
export type FieldDef = ColumnField | ComputedField;

export type FilterSchema = {
  fields: Record<string, FieldDef>;
  /** JSON column holding custom fields, e.g. `c.custom`. */
  jsonColumn: string;
};

const OPERATORS = new Set<string>([
  '$eq', '$ne', '$in', '$nin', '$gt', '$gte', '$lt', '$lte', '$exists', '$autocomplete', '$contains', '$q',
]);
const CUSTOM_FIELD_NAME = /^[A-Za-z0-9_-]{1,128}$/;

export function filtersToSql(filter: unknown, schema: FilterSchema): SqlFragment {
  if (filter === undefined || filter === null) return { sql: '1', params: [] };
  if (!isObject(filter)) throw ApiError.input('filter_conditions must be an object');
  const parts: SqlFragment[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' || key === '$or' || key === '$nor') {
      parts.push(logical(key, value, schema));
    } else if (key.startsWith('$')) {
      throw ApiError.input(`unsupported filter operator ${key}`);
    } else {
      parts.push(fieldCondition(key, value, schema));
    }
  }
  return join(parts, ' AND ', '1');
}

function logical(op: '$and' | '$or' | '$nor', value: unknown, schema: FilterSchema): SqlFragment {
  if (!Array.isArray(value) || value.length === 0) {
    throw ApiError.input(`${op} must be a non-empty array of filters`);
  }
  const parts = value.map((item) => filtersToSql(item, schema));
  if (op === '$and') return join(parts, ' AND ', '1');
  const any = join(parts, ' OR ', '0');
  return op === '$or' ? any : { sql: `NOT ${any.sql}`, params: any.params };
}

function fieldCondition(name: string, value: unknown, schema: FilterSchema): SqlFragment {
  const field = resolveField(name, schema);
  // `{field: value}` is shorthand for `{field: {$eq: value}}`; an object of operators is ANDed.
  const ops: [string, unknown][] =
    isObject(value) && Object.keys(value).some((k) => k.startsWith('$'))
      ? Object.entries(value)
      : [['$eq', value]];
  const parts = ops.map(([op, operand]) => {
    if (!OPERATORS.has(op)) throw ApiError.input(`unsupported operator ${op} on field ${name}`);
    return 'compile' in field ? field.compile(op as Operator, operand) : compare(field, op as Operator, operand, name);
  });
  return join(parts, ' AND ', '1');
}

function resolveField(name: string, schema: FilterSchema): FieldDef {
  const known = schema.fields[name];
  if (known) return known;
  if (!CUSTOM_FIELD_NAME.test(name)) throw ApiError.input(`invalid field name ${JSON.stringify(name)}`);
  return customField(schema.jsonColumn, name);
}

/** A custom field inside a JSON column. Its type is whatever the JSON holds. */
function customField(column: string, name: string): ComputedField {
  const path = param(`$."${name}"`);
  const expr = sql`json_extract(${raw(column)}, ${path})`;
  return {
    compile(op, operand) {
      if (op === '$exists') {
        return sql`(json_type(${raw(column)}, ${path}) IS ${raw(bool(operand, name) ? 'NOT NULL' : 'NULL')})`;
      }
      if (op === '$contains') {
        const item = param(jsonScalar(operand, name));
        return sql`EXISTS (SELECT 1 FROM json_each(${raw(column)}, ${path}) WHERE value = ${item})`;
      }
      return compareExpr(expr, op, operand, (v) => jsonScalar(v, name), name);
    },
  };
}

function compare(field: ColumnField, op: Operator, operand: unknown, name: string): SqlFragment {
  // $contains needs a list and $q a full-text index: only computed fields offer them.
  if (op === '$contains' || op === '$q') throw ApiError.input(`${op} is not supported on field ${name}`);
  const expr = raw(field.sql);
  if (op === '$exists') return sql`(${expr} IS ${raw(bool(operand, name) ? 'NOT NULL' : 'NULL')})`;
  return compareExpr(expr, op, operand, (v) => coerce(field.kind, v, name), name);
}

/** The comparison itself, shared by columns and JSON fields. */
function compareExpr(
  expr: SqlFragment,
  op: Operator,
  operand: unknown,
  toSql: (v: unknown) => SqlValue,
  name: string,
): SqlFragment {
  switch (op) {
    case '$eq':
      if (operand === null) return sql`(${expr} IS NULL)`;
      return sql`(${expr} = ${param(toSql(operand))})`;
    case '$ne':
      if (operand === null) return sql`(${expr} IS NOT NULL)`;
      // Like Mongo, a missing value is "not equal".
      return sql`(${expr} IS NULL OR ${expr} != ${param(toSql(operand))})`;
    case '$in':
    case '$nin': {
      const list = array(operand, op, name).map(toSql);
      if (list.length === 0) return raw(op === '$in' ? '0' : '1');
      const items: SqlFragment = { sql: placeholders(list.length), params: list };
      return op === '$in'
        ? sql`(${expr} IN (${items}))`
        : sql`(${expr} IS NULL OR ${expr} NOT IN (${items}))`;
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      const sign = raw({ $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op]);
      return sql`(${expr} ${sign} ${param(toSql(operand))})`;
    }
    case '$autocomplete': {
      if (typeof operand !== 'string') throw ApiError.input(`$autocomplete on ${name} needs a string`);
      // Prefix match on any word; LIKE is case-insensitive for ASCII in SQLite.
      const term = operand.trim().replace(/[\\%_]/g, (c) => `\\${c}`);
      if (!term) return raw('1');
      return sql`(${expr} LIKE ${param(`${term}%`)} ESCAPE '\\' OR ${expr} LIKE ${param(`% ${term}%`)} ESCAPE '\\')`;
    }
    default:
      throw ApiError.input(`unsupported operator ${op} on field ${name}`);
  }
}

/** Builds a fragment from SQL text and sub-fragments, keeping parameters in textual order. */
function sql(strings: TemplateStringsArray, ...parts: SqlFragment[]): SqlFragment {
  let text = strings[0] ?? '';
  const params: SqlValue[] = [];
  parts.forEach((part, i) => {
    text += part.sql + (strings[i + 1] ?? '');
    params.push(...part.params);
  });
  return { sql: text, params };
}

/** A bound parameter. */
function param(v: SqlValue): SqlFragment {
  return { sql: '?', params: [v] };
}

/** Trusted SQL text written in this code base (column names, keywords), never user input. */
function raw(text: string): SqlFragment {
  return { sql: text, params: [] };
}

function coerce(kind: FieldKind, value: unknown, name: string): SqlValue {
  switch (kind) {
    case 'text':
      if (typeof value === 'string') return value;
      if (typeof value === 'number') return String(value);
      break;
    case 'number':
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      break;
    case 'boolean':
      if (typeof value === 'boolean') return value ? 1 : 0;
      break;
    case 'date': {
      if (typeof value !== 'string' && typeof value !== 'number') break;
      const date = new Date(value);
      // Stored timestamps are toISOString() strings, so ISO strings compare chronologically.
      if (!Number.isNaN(date.getTime())) return date.toISOString();
      break;
    }
  }
  throw ApiError.input(`invalid value ${JSON.stringify(value)} for field ${name}`);
}

function jsonScalar(value: unknown, name: string): SqlValue {
  if (typeof value === 'string' || typeof value === 'number') return value;
  // json_extract yields 1/0 for JSON true/false.
  if (typeof value === 'boolean') return value ? 1 : 0;
  throw ApiError.input(`invalid value ${JSON.stringify(value)} for field ${name}`);
}

function bool(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean') throw ApiError.input(`$exists on ${name} needs true or false`);
  return value;
}

function array(value: unknown, op: string, name: string): unknown[] {
  if (!Array.isArray(value)) throw ApiError.input(`${op} on ${name} needs an array`);
  return value;
}

function join(parts: SqlFragment[], glue: string, empty: string): SqlFragment {
  if (parts.length === 0) return { sql: empty, params: [] };
  return {
    sql: `(${parts.map((p) => p.sql).join(glue)})`,
    params: parts.flatMap((p) => p.params),
  };
}

export type SortField = { field: string; direction: 1 | -1 };

/**
 * `[{field, direction}]` (what the SDK sends) or `{field: direction}` → ORDER BY.
 * `tiebreak` is appended so pages are deterministic.
 */
export function sortToSql(
  sort: unknown,
  schema: FilterSchema,
  { fallback, tiebreak }: { fallback: SortField[]; tiebreak: string },
): SqlFragment {
  const fields = parseSort(sort);
  const terms: SqlFragment[] = (fields.length > 0 ? fields : fallback).map(({ field, direction }) => {
    const def = schema.fields[field];
    const dir = direction === -1 ? 'DESC' : 'ASC';
    if (def && 'sql' in def) return { sql: `${def.sql} ${dir}`, params: [] };
    if (def || !CUSTOM_FIELD_NAME.test(field)) throw ApiError.input(`cannot sort by ${field}`);
    return { sql: `json_extract(${schema.jsonColumn}, ?) ${dir}`, params: [`$."${field}"`] };
  });
  terms.push({ sql: tiebreak, params: [] });
  return { sql: terms.map((t) => t.sql).join(', '), params: terms.flatMap((t) => t.params) };
}

/** `[{field, direction}]` or `{field: direction}` (or a list of those) as a list of fields. */
export function parseSort(sort: unknown): SortField[] {
  if (sort === undefined || sort === null) return [];
  const entries = Array.isArray(sort) ? sort : [sort];
  return entries.flatMap((entry): SortField[] => {
    if (!isObject(entry)) throw ApiError.input('sort must be a list of {field, direction}');
    if (typeof entry.field === 'string') return [{ field: entry.field, direction: direction(entry.direction) }];
    return Object.entries(entry).map(([field, dir]) => ({ field, direction: direction(dir) }));
  });
}

function direction(value: unknown): 1 | -1 {
  if (value === undefined || value === 1 || value === '1') return 1;
  if (value === -1 || value === '-1') return -1;
  throw ApiError.input('sort direction must be 1 or -1');
}
