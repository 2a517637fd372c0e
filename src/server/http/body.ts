// Bounded reading of request input. A body is refused by its declared Content-Length before a
// byte is read, and otherwise counted as it streams in and cut off at the limit, so no body is
// ever held whole past the bound (413, code 22). JSON nested deeper than the depth limit is an
// input error (400, code 4) before it is parsed: handlers, filters and stored custom data all
// walk JSON recursively, and nothing legitimate nests that deep.
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { BodyLimits } from '../limits';
import type { AppEnv } from './context';
import { ApiError } from './errors';
import { incomingOf, requestHeader } from './node-exchange';

/** The declared length, when there is one and no chunked transfer overrides it. */
export function declaredLength(c: Context<AppEnv>): number | undefined {
  const header = requestHeader(c, 'content-length');
  if (header === undefined || requestHeader(c, 'transfer-encoding')) return undefined;
  const length = Number(header);
  return Number.isFinite(length) ? length : undefined;
}

export function payloadTooBig(limit: number): ApiError {
  return ApiError.tooBig(`request body too large: the most accepted is ${limit} bytes`);
}

/**
 * The request body as it arrives. On Node it is read from the IncomingMessage itself (which
 * @hono/node-server hands over as `c.env.incoming`), without building a web Request around
 * it; stopping early leaves the socket open, so the answer still goes out and the HTTP layer
 * discards the rest. Elsewhere (app.request() in tests) it is the Request's own stream.
 */
export async function* bodyChunks(c: Context<AppEnv>): AsyncGenerator<Uint8Array> {
  const incoming = incomingOf(c);
  if (incoming) {
    yield* incoming.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>;
    return;
  }
  const body = c.req.raw.body;
  if (!body) return;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** Bodies already read, so a second reader of the same request gets the same text. */
const texts = new WeakMap<Request, Promise<string>>();

/** The body as text, refused with 413 once it passes `maxBytes` (0: no limit). */
export function readBoundedText(c: Context<AppEnv>, maxBytes: number): Promise<string> {
  let text = texts.get(c.req.raw);
  if (!text) {
    text = readText(c, maxBytes);
    texts.set(c.req.raw, text);
  }
  return text;
}

async function readText(c: Context<AppEnv>, maxBytes: number): Promise<string> {
  const declared = declaredLength(c);
  if (maxBytes > 0 && declared !== undefined && declared > maxBytes) throw payloadTooBig(maxBytes);
  const incoming = incomingOf(c);
  if (incoming) return (await readIncoming(incoming, maxBytes)).toString('utf8');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of bodyChunks(c)) {
    size += chunk.byteLength;
    // Stop reading: the rest is discarded by the HTTP layer after the answer, never kept.
    if (maxBytes > 0 && size > maxBytes) throw payloadTooBig(maxBytes);
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/**
 * A Node request's whole body, from its events: an async iterator costs promises per chunk and
 * one more for the end, on every API call. Past `maxBytes` it stops listening and pauses the
 * request (413); the HTTP layer discards the rest once the answer is out, as for bodyChunks.
 */
function readIncoming(incoming: IncomingMessage, maxBytes: number): Promise<Buffer> {
  if (incoming.readableEnded) return Promise.resolve(Buffer.alloc(0));
  // Gone before its body ended: its 'close' has been heard already, so no listener would be.
  if (incoming.destroyed && !incoming.complete) return Promise.reject(new Error('the request closed before its body ended'));
  // Most bodies arrive with their headers: the parser has the whole message, and it waits in
  // the stream's buffer. Taken at once, without resuming the stream and waiting for its events.
  if (incoming.complete && !incoming.readableFlowing) {
    if (maxBytes > 0 && incoming.readableLength > maxBytes) return Promise.reject(payloadTooBig(maxBytes));
    return Promise.resolve((incoming.read() as Buffer | null) ?? Buffer.alloc(0));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (maxBytes > 0 && size > maxBytes) {
        stop();
        incoming.pause();
        reject(payloadTooBig(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    // Closed without an end: the client went away mid-body.
    const onClose = () => onError(new Error('the request closed before its body ended'));
    incoming.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** JSON.parse after checking the nesting depth; `what` names the input, `invalid` is the parse error. */
export function parseBoundedJson(text: string, maxDepth: number, what: string, invalid = `invalid JSON in ${what}`): unknown {
  if (maxDepth > 0 && nestingDepthOver(text, maxDepth)) {
    throw ApiError.input(`${what} is nested more than ${maxDepth} levels deep`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw ApiError.input(invalid);
  }
}

/** Whether brackets outside strings nest deeper than `max`; one pass, no recursion. */
export function nestingDepthOver(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) {
      inString = true;
    } else if (ch === 0x7b || ch === 0x5b) {
      if (++depth > max) return true;
    } else if (ch === 0x7d || ch === 0x5d) {
      depth--;
    }
  }
  return false;
}
