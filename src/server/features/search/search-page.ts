// Paging of `GET /search`: `limit` with either `offset` or `next` (both together is an input
// error, as the SDK's own client.search refuses it). `next` and `previous` are opaque cursors
// holding the page's offset and, when results are in creation order, the seq of the last
// message, so the next page continues right after it (a keyset: as cheap on page 100 as on
// page 1, and unmoved by messages that arrive in between).
import { ApiError } from '../../http/errors';
import { boundedInt, optionalString, type JsonObject } from '../../http/input';

export const MAX_LIMIT = 100;
export const MAX_OFFSET = 10_000;

export type SearchPage = {
  limit: number;
  /** Rows to skip: the page's position in the results. */
  offset: number;
  /** From a `next` cursor: continue after this message (only honoured in creation order). */
  afterSeq?: number;
};

type Cursor = { o: number; s?: number };

export function searchPage(payload: JsonObject): SearchPage {
  const limit = boundedInt(payload.limit, 'limit', { fallback: 20, min: 1, max: MAX_LIMIT });
  const offset = boundedInt(payload.offset, 'offset', { fallback: 0, max: MAX_OFFSET });
  const next = optionalString(payload.next, 'next');
  if (!next) return { limit, offset };
  if (offset > 0) throw ApiError.input('Cannot specify offset with next');
  const cursor = decode(next);
  return cursor.s === undefined ? { limit, offset: cursor.o } : { limit, offset: cursor.o, afterSeq: cursor.s };
}

/**
 * Cursors for a page read with one row more than `limit` (`rows`): `next` only when that extra
 * row exists, so the SDK stops asking exactly at the end; `previous` when the page is not the first.
 */
export function searchCursors(page: SearchPage, rows: { seq: number }[], keyset: boolean) {
  const last = rows[page.limit - 1];
  const more = rows.length > page.limit && last;
  return {
    ...(more ? { next: encode({ o: page.offset + page.limit, ...(keyset ? { s: last.seq } : {}) }) } : {}),
    ...(page.offset > 0 ? { previous: encode({ o: Math.max(0, page.offset - page.limit) }) } : {}),
  };
}

function encode(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decode(text: string): Cursor {
  let cursor: unknown;
  try {
    cursor = JSON.parse(Buffer.from(text, 'base64url').toString());
  } catch {
    cursor = null;
  }
  const { o, s } = (cursor ?? {}) as Partial<Record<keyof Cursor, unknown>>;
  const valid = Number.isSafeInteger(o) && (o as number) >= 0 && (s === undefined || Number.isSafeInteger(s));
  if (!valid) throw ApiError.input('next is not a cursor this API gave out');
  return cursor as Cursor;
}
