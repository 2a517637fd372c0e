// The message side of `GET /search`: the `query` text and `message_filter_conditions` (the
// provider's filter language over messages) become one FTS5 expression plus SQL over the
// messages row `m`, and `sort` becomes ORDER BY. A text condition at the top of the filter
// drives the query from the full-text index; one nested deeper (inside $or, say) is checked
// against the same index per row. Every other field goes through filters-to-sql.
import { ApiError } from '../../http/errors';
import { placeholders } from '../../store/db';
import { filtersToSql, parseSort, sortToSql, type FieldDef, type FilterSchema, type SqlFragment } from '../../store/filters-to-sql';
import { isObject } from '../../http/input';
import type { SearchOrderSql } from '../../store/search';
import { bothExpressions, ftsExpression } from './fts-query';

export type MessageCondition = {
  /** FTS5 expression the text must match; undefined when the search names no text. */
  match?: string;
  /** The text holds no word to look for, so nothing matches. */
  matchesNothing: boolean;
  /** The rest of message_filter_conditions, over `m` (messages). */
  where: SqlFragment;
};

const TEXT_OPERATORS = new Set(['$eq', '$q', '$autocomplete']);
const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
// A pin past its expiry reads as unpinned, as message-extras.ts presents it.
const PINNED = `(m.pinned_at IS NOT NULL AND (m.pin_expires IS NULL OR m.pin_expires > ${NOW}))`;

/** `text` given as a string or as `{$eq | $q | $autocomplete: string}`: all mean full-text search. */
function textExpression(value: unknown, field: string): string | null {
  if (typeof value === 'string') return ftsExpression(value, field);
  if (!isObject(value) || Object.keys(value).length === 0) {
    throw ApiError.input(`${field} must be a string or {$q: string}`);
  }
  let expression: string | null | undefined;
  for (const [op, operand] of Object.entries(value)) {
    if (!TEXT_OPERATORS.has(op)) throw ApiError.input(`unsupported operator ${op} on field text (use $q, $autocomplete or $eq)`);
    if (typeof operand !== 'string') throw ApiError.input(`${op} on ${field} needs a string`);
    const next = ftsExpression(operand, `${field}.${op}`);
    expression = expression === undefined ? next : bothExpressions(expression, next);
  }
  return expression ?? null;
}

const fullText: FieldDef = {
  compile(op, operand) {
    const expression = textExpression({ [op]: operand }, 'text');
    if (expression === null) return { sql: '0', params: [] };
    return { sql: 'm.seq IN (SELECT rowid FROM message_search WHERE message_search MATCH ?)', params: [expression] };
  },
};

const attachmentsPresent: FieldDef = {
  compile(op, operand) {
    if (op !== '$exists' || typeof operand !== 'boolean') {
      throw ApiError.input('attachments only supports {$exists: true|false}');
    }
    return { sql: `(json_array_length(m.attachments) ${operand ? '>' : '='} 0)`, params: [] };
  },
};

const attachmentType: FieldDef = {
  compile(op, operand) {
    const types = op === '$eq' ? [operand] : op === '$in' ? operand : undefined;
    if (!Array.isArray(types) || !types.every((type) => typeof type === 'string')) {
      throw ApiError.input('attachments.type supports {$eq: type} and {$in: [types]}');
    }
    if (types.length === 0) return { sql: '0', params: [] };
    return {
      sql: `EXISTS (SELECT 1 FROM json_each(m.attachments) WHERE json_extract(value, '$.type') IN (${placeholders(types.length)}))`,
      params: types,
    };
  },
};

const mentioned: FieldDef = {
  compile(op, operand) {
    if (op !== '$contains' || typeof operand !== 'string') {
      throw ApiError.input('mentioned_users.id only supports {$contains: user id}');
    }
    return { sql: 'EXISTS (SELECT 1 FROM json_each(m.mentioned_user_ids) WHERE value = ?)', params: [operand] };
  },
};

const MESSAGE_SCHEMA: FilterSchema = {
  jsonColumn: 'm.custom',
  fields: {
    id: { kind: 'text', sql: 'm.id' },
    cid: { kind: 'text', sql: 'm.cid' },
    type: { kind: 'text', sql: 'm.type' },
    parent_id: { kind: 'text', sql: 'm.parent_id' },
    'user.id': { kind: 'text', sql: 'm.user_id' },
    user_id: { kind: 'text', sql: 'm.user_id' },
    created_at: { kind: 'date', sql: 'm.created_at' },
    updated_at: { kind: 'date', sql: 'm.updated_at' },
    reply_count: { kind: 'number', sql: 'm.reply_count' },
    pinned: { kind: 'boolean', sql: PINNED },
    text: fullText,
    attachments: attachmentsPresent,
    'attachments.type': attachmentType,
    'mentioned_users.id': mentioned,
  },
};

/** The text (from `query` and a top-level `text` condition) and the SQL for everything else. */
export function messageCondition(query: unknown, messageFilter: unknown): MessageCondition {
  if (query !== undefined && query !== null && typeof query !== 'string') throw ApiError.input('query must be a string');
  if (messageFilter !== undefined && messageFilter !== null && !isObject(messageFilter)) {
    throw ApiError.input('message_filter_conditions must be an object');
  }
  if (typeof query !== 'string' && !messageFilter) {
    throw ApiError.input('either query or message_filter_conditions is required');
  }
  const { text, ...rest } = messageFilter ?? {};
  const expressions: Array<string | null> = [];
  if (typeof query === 'string') expressions.push(ftsExpression(query, 'query'));
  if (text !== undefined) expressions.push(textExpression(text, 'message_filter_conditions.text'));
  const where = filtersToSql(rest, MESSAGE_SCHEMA);
  if (expressions.length === 0) return { matchesNothing: false, where };
  const match = expressions.reduce((a, b) => bothExpressions(a, b));
  return match === null ? { matchesNothing: true, where } : { match, matchesNothing: false, where };
}

export type SearchOrder = {
  sql: SearchOrderSql;
  /**
   * Set when the order is creation time alone: pages can then continue from the last row's
   * seq (a keyset cursor) instead of an offset. Messages get their seq when they are stored and
   * their created_at at that same moment, so seq order is creation order.
   */
  bySeq?: 1 | -1;
};

/**
 * ORDER BY for `sort`; created_at descending by default. With a text search `s` is the FTS row:
 * creation order reads the index in rowid order (which it holds already sorted, so a page is a
 * short walk however many messages match), and `relevance` is FTS5's bm25 rank.
 */
export function searchOrder(sort: unknown, textSearch: boolean): SearchOrder {
  const seq = textSearch ? 's.rowid' : 'm.seq';
  const fields = parseSort(sort);
  if (fields.every((field) => field.field === 'created_at')) {
    const direction = fields[0]?.direction ?? -1;
    return { sql: { sql: `${seq} ${direction === 1 ? 'ASC' : 'DESC'}`, params: [] }, bySeq: direction };
  }
  const schema: FilterSchema = {
    jsonColumn: 'm.custom',
    fields: {
      created_at: { kind: 'date', sql: seq },
      relevance: { kind: 'number', sql: textSearch ? '(-s.rank)' : '0' },
      updated_at: { kind: 'date', sql: 'm.updated_at' },
      id: { kind: 'text', sql: 'm.id' },
      type: { kind: 'text', sql: 'm.type' },
      parent_id: { kind: 'text', sql: 'm.parent_id' },
      'user.id': { kind: 'text', sql: 'm.user_id' },
      reply_count: { kind: 'number', sql: 'm.reply_count' },
      pinned: { kind: 'boolean', sql: PINNED },
    },
  };
  // Relevance with at most creation time after it reads the index's row alone (see SearchOrderSql).
  const byRank = textSearch && fields.some((field) => field.field === 'relevance') && fields.every((field) => field.field === 'relevance' || field.field === 'created_at');
  return { sql: { ...sortToSql(fields, schema, { fallback: [], tiebreak: `${seq} DESC` }), ...(byRank ? { byRank } : {}) } };
}
