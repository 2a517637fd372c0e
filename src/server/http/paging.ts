// Cursor paging for the query endpoints that answer with `next`/`prev` (polls, votes, drafts).
// The cursor is the offset, opaque to clients: they only hand back what they were given.
import { ApiError } from './errors';
import { boundedInt, optionalString, type JsonObject } from './input';

export type Page = { limit: number; offset: number };

export function pageOf(body: JsonObject, { fallback = 10, max = 100 } = {}): Page {
  const limit = boundedInt(body.limit, 'limit', { fallback, min: 1, max });
  const cursor = optionalString(body.next, 'next') ?? optionalString(body.prev, 'prev');
  return { limit, offset: cursor ? decodeCursor(cursor) : 0 };
}

/** `next` when the page came back full (there may be more), `prev` when it did not start at 0. */
export function cursors(page: Page, count: number): { next?: string; prev?: string } {
  return {
    ...(count === page.limit ? { next: encodeCursor(page.offset + page.limit) } : {}),
    ...(page.offset > 0 ? { prev: encodeCursor(Math.max(0, page.offset - page.limit)) } : {}),
  };
}

function encodeCursor(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const match = /^offset:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw ApiError.input('next/prev is not a cursor this API gave out');
  return Number(match[1]);
}
