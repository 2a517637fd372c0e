// One byte range of a stored file (RFC 9110 §14), as a media element asks for it: to seek, and to
// read a file from its end (a recorded WebM carries no duration, so Chromium looks for it there).
// One range only, which is all a media element sends: a request for several gets the whole file
// (HTTP lets a server ignore Range), so there is never a multipart answer to build.

/** First and last byte, both included. */
export type ByteRange = { start: number; end: number };

/**
 * What a `Range` header asks of a file of `size` bytes: a range to answer with 206; `whole` to
 * answer with the whole file (no header, another unit, several ranges); `unsatisfiable` (a 416)
 * for a range that starts past the end or is not a byte range at all (`bytes=5-2`, `bytes=x`).
 */
export function byteRange(header: string | undefined, size: number): ByteRange | 'whole' | 'unsatisfiable' {
  if (header === undefined) return 'whole';
  const unit = header.indexOf('=');
  // A unit the server does not know is ignored (RFC 9110 §14.2).
  if (unit < 0 || header.slice(0, unit).trim().toLowerCase() !== 'bytes') return 'whole';
  const spec = header.slice(unit + 1).trim();
  if (spec.includes(',')) return 'whole';
  const match = /^(\d*)\s*-\s*(\d*)$/.exec(spec);
  if (!match || (!match[1] && !match[2])) return 'unsatisfiable';
  const first = match[1] ? Number(match[1]) : undefined;
  const last = match[2] ? Number(match[2]) : undefined;
  if (first === undefined) {
    // A suffix: the last `last` bytes.
    if (!last || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - last), end: size - 1 };
  }
  if (last !== undefined && last < first) return 'unsatisfiable';
  if (first >= size) return 'unsatisfiable';
  return { start: first, end: last === undefined ? size - 1 : Math.min(last, size - 1) };
}
