// What someone typed into a search box → a safe SQLite FTS5 expression. Nothing they type is
// ever FTS syntax: the text is cut at whitespace, every piece that holds a letter or a digit
// becomes a quoted string (inner quotes doubled) marked as a prefix, and the pieces are ANDed.
// So `"`, `*`, `'`, `--`, `NEAR`, `OR` and `AND` are searched for as plain words, or dropped when
// a piece holds no word at all. A piece with inner punctuation ("e-mail") stays one phrase.
import { ApiError } from '../../http/errors';

export const MAX_QUERY_LENGTH = 1000;
export const MAX_QUERY_TERMS = 32;

const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/**
 * The FTS5 expression for `text`, or null when it holds no word to look for (only
 * punctuation or emoji): such a search matches nothing. Empty and oversized text is an input
 * error (code 4), named after `field`.
 */
export function ftsExpression(text: string, field: string): string | null {
  if (!text.trim()) throw ApiError.input(`${field} must not be empty`);
  if (text.length > MAX_QUERY_LENGTH) {
    throw ApiError.input(`${field} is longer than ${MAX_QUERY_LENGTH} characters`);
  }
  const pieces = text.split(/\s+/u).filter((piece) => WORD_CHARACTER.test(piece));
  if (pieces.length > MAX_QUERY_TERMS) throw ApiError.input(`${field} has more than ${MAX_QUERY_TERMS} words`);
  if (pieces.length === 0) return null;
  return pieces.map((piece) => `"${piece.replace(/"/g, '""')}"*`).join(' AND ');
}

/** Both expressions must hold; null (a search for nothing) wins. */
export function bothExpressions(a: string | null, b: string | null): string | null {
  return a === null || b === null ? null : `(${a}) AND (${b})`;
}
