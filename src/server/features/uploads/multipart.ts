// A streaming multipart/form-data reader: parts are handed to sinks as their bytes arrive, so an
// upload goes to disk chunk by chunk and never sits in memory whole (hono's parseBody would
// buffer the whole form). It awaits each sink write, so a slow disk slows the reading of the
// request instead of piling bytes up, and it stops at `maxBytes` of body in all.
import { ApiError } from '../../http/errors';

export type PartInfo = {
  /** The form field's name. */
  name: string;
  /** Present for a file part. */
  filename?: string;
  contentType: string;
};

export type PartSink = {
  write(chunk: Buffer): Promise<void> | void;
  end(): Promise<void> | void;
};

/** Part headers longer than this are not a form any client sends. */
const MAX_HEADER_BYTES = 16 * 1024;

/** The boundary of a multipart/form-data content type, or undefined for anything else. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) return undefined;
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  return boundary && boundary.length <= 200 ? boundary : undefined;
}

export async function readMultipart(
  body: AsyncIterable<Uint8Array>,
  boundary: string,
  options: { maxBytes: number; tooLarge: () => Error; onPart: (part: PartInfo) => Promise<PartSink> | PartSink },
): Promise<void> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const keep = delimiter.length - 1;
  // A leading CRLF lets the first boundary, at the very start, match the same delimiter.
  let buffer: Buffer = Buffer.from('\r\n');
  let state = 'preamble' as 'preamble' | 'boundary' | 'headers' | 'body' | 'end';
  let sink: PartSink | undefined;
  let total = 0;

  const advance = async (): Promise<void> => {
    for (;;) {
      if (state === 'preamble') {
        const at = buffer.indexOf(delimiter);
        if (at < 0) {
          buffer = buffer.subarray(Math.max(0, buffer.length - keep));
          return;
        }
        buffer = buffer.subarray(at + delimiter.length);
        state = 'boundary';
      } else if (state === 'boundary') {
        if (buffer.length < 2) return;
        if (buffer[0] === 0x2d && buffer[1] === 0x2d) {
          state = 'end';
          return;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) {
          if (buffer.length > 1024) throw malformed();
          return;
        }
        buffer = buffer.subarray(eol + 2);
        state = 'headers';
      } else if (state === 'headers') {
        const at = buffer.indexOf('\r\n\r\n');
        if (at < 0) {
          if (buffer.length > MAX_HEADER_BYTES) throw malformed();
          return;
        }
        const info = partInfo(buffer.subarray(0, at).toString('utf8'));
        buffer = buffer.subarray(at + 4);
        sink = await options.onPart(info);
        state = 'body';
      } else if (state === 'body') {
        const at = buffer.indexOf(delimiter);
        if (at < 0) {
          // All but what could be the start of a delimiter split across chunks.
          if (buffer.length > keep) {
            await sink?.write(buffer.subarray(0, buffer.length - keep));
            buffer = buffer.subarray(buffer.length - keep);
          }
          return;
        }
        if (at > 0) await sink?.write(buffer.subarray(0, at));
        await sink?.end();
        sink = undefined;
        buffer = buffer.subarray(at + delimiter.length);
        state = 'boundary';
      } else {
        return;
      }
    }
  };

  for await (const value of body) {
    total += value.byteLength;
    if (options.maxBytes > 0 && total > options.maxBytes) throw options.tooLarge();
    if (state === 'end') continue; // the epilogue is ignored
    buffer = buffer.length ? Buffer.concat([buffer, value]) : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    await advance();
  }
  if (state !== 'end') throw malformed();
}

function partInfo(head: string): PartInfo {
  let disposition = '';
  let contentType = 'application/octet-stream';
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'content-disposition') disposition = value;
    else if (key === 'content-type') contentType = value;
  }
  const params = new Map<string, string>();
  for (const match of disposition.matchAll(/;\s*([^=;\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g)) {
    params.set((match[1] ?? '').toLowerCase(), (match[2] ?? match[3] ?? '').replace(/\\(.)/g, '$1').trim());
  }
  const name = params.get('name');
  if (!disposition.toLowerCase().startsWith('form-data') || name === undefined) throw malformed();
  const filename = params.get('filename');
  return { name, contentType, ...(filename !== undefined ? { filename } : {}) };
}

function malformed(): ApiError {
  return ApiError.input('the multipart body could not be read');
}
