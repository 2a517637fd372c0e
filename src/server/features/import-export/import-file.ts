// Reading a provider import file item by item, never whole. The provider takes a JSON array of
// `{"type": …, "item": {…}}` objects (stream-cli's format) or the same objects one per line
// (JSON Lines, the format of its sample file); both are read here by one scanner that follows
// strings and nesting across chunks and hands over each top-level object as soon as it closes,
// so memory holds one item at a time (at most MAX_ITEM_BYTES).
import { createReadStream } from 'node:fs';
import { ApiError } from '../../http/errors';

export const MAX_ITEM_BYTES = 1024 * 1024;

export type ImportLine = { type: string; item: Record<string, unknown>; index: number };

const malformed = (index: number, why: string) => ApiError.input(`the import file is malformed at item ${index + 1}: ${why}`);

/** Every item of the file at `path`, in order; throws an input error on the first malformed one. */
export async function* importItems(path: string): AsyncGenerator<ImportLine> {
  let depth = 0;
  let inString = false;
  let escaped = false;
  // The depth items live at: 1 inside a top-level array, 0 for JSON Lines; fixed by the first character.
  let itemDepth: number | undefined;
  let arrayClosed = false;
  let current: string[] = [];
  let currentBytes = 0;
  let start = -1;
  let index = 0;

  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 64 * 1024 }) as AsyncIterable<string>) {
    start = itemDepth !== undefined && depth > itemDepth ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i] as string;
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === '\\') escaped = true;
        else if (ch === '"') inString = false;
        continue;
      }
      if (ch === ' ' || ch === '\n' || ch === '\r' || ch === '\t') continue;
      if (itemDepth === undefined) {
        if (ch === '\uFEFF') continue;
        itemDepth = ch === '[' ? 1 : 0;
      }
      if (arrayClosed) throw malformed(index, 'text after the closing ]');
      const inItem = depth > itemDepth;
      if (!inItem) {
        if (ch === '{') {
          start = i;
          depth++;
          continue;
        }
        if (itemDepth === 1 && depth === 0 && ch === '[') {
          depth = 1;
          continue;
        }
        if (itemDepth === 1 && depth === 1 && ch === ',') continue;
        if (itemDepth === 1 && depth === 1 && ch === ']') {
          depth = 0;
          arrayClosed = true;
          continue;
        }
        throw malformed(index, `unexpected ${JSON.stringify(ch)} where an item should start`);
      }
      if (ch === '"') inString = true;
      else if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') {
        depth--;
        if (depth === itemDepth) {
          current.push(chunk.slice(Math.max(start, 0), i + 1));
          yield parsed(current.join(''), index++);
          current = [];
          currentBytes = 0;
          start = -1;
        }
      }
    }
    if (depth > (itemDepth ?? 0)) {
      const rest = chunk.slice(Math.max(start, 0));
      current.push(rest);
      currentBytes += rest.length;
      if (currentBytes > MAX_ITEM_BYTES) throw malformed(index, `an item longer than ${MAX_ITEM_BYTES} bytes`);
    }
  }
  if (inString || depth > (itemDepth ?? 0)) throw malformed(index, 'the file ends inside an item');
  if (itemDepth === 1 && !arrayClosed) throw malformed(index, 'the file ends before the closing ]');
}

function parsed(text: string, index: number): ImportLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw malformed(index, 'not valid JSON');
  }
  const { type, item } = value as { type?: unknown; item?: unknown };
  if (typeof type !== 'string') throw malformed(index, 'no "type"');
  if (!item || typeof item !== 'object' || Array.isArray(item)) throw malformed(index, 'no "item" object');
  return { type, item: item as Record<string, unknown>, index };
}
