// Fetches a page for a link preview, defensively: one deadline for the whole fetch (redirects
// included), a cap on the bytes read (after decompression, so a small gzip bomb cannot blow
// up), HTML and images only, at most a few redirects, and every hop's address checked by the
// guard. Node's http client is used directly rather than fetch() because only it takes a
// custom DNS lookup, which is what pins the connection to the address that was checked.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { pipeline, type Readable } from 'node:stream';
import type { OgSettings } from '../../http/context';
import { ApiError } from '../../http/errors';
import { guardedLookup, isPublicAddress, refusedAddress } from './address-guard';

export type FetchedPage =
  | { kind: 'html'; url: URL; html: string }
  | { kind: 'image'; url: URL; mimeType: string };

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const USER_AGENT = 'Mozilla/5.0 (compatible; chat-widget-link-preview/1.0)';

export async function fetchPage(target: URL, settings: OgSettings): Promise<FetchedPage> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.timeoutMs);
  try {
    let url = target;
    for (let hop = 0; ; hop++) {
      const response = await get(url, settings, controller.signal);
      const location = response.headers.location;
      if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
        response.destroy();
        if (hop >= settings.maxRedirects) throw ApiError.input(`${target.href} redirects more than ${settings.maxRedirects} times`);
        url = new URL(location, url);
        continue;
      }
      return await readResponse(url, response, settings, controller.signal);
    }
  } catch (error) {
    if (controller.signal.aborted) {
      throw ApiError.input(`${target.href} did not answer within ${settings.timeoutMs} ms`);
    }
    if (error instanceof ApiError) throw error;
    throw ApiError.input(`${target.href} could not be fetched (${(error as Error).message})`);
  } finally {
    clearTimeout(timer);
  }
}

/** Only http(s) URLs without credentials; an IP literal is checked here (no lookup runs for it). */
export function checkedUrl(url: URL, allowPrivate = false): URL {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw ApiError.input(`only http and https links can be previewed, not ${url.protocol}`);
  }
  if (url.username || url.password) throw ApiError.input('links with a user name or password are not previewed');
  if (!allowPrivate) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !isPublicAddress(host)) throw refusedAddress(host, host);
  }
  return url;
}

function get(url: URL, settings: OgSettings, signal: AbortSignal): Promise<IncomingMessage> {
  checkedUrl(url, settings.allowPrivate);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, {
      method: 'GET',
      signal,
      lookup: guardedLookup(settings.allowPrivate),
      headers: {
        'user-agent': USER_AGENT,
        accept: 'text/html,application/xhtml+xml;q=0.9,image/*;q=0.8',
        'accept-encoding': 'gzip, deflate, br',
      },
    });
    req.once('response', resolve);
    // `on`, not `once`: an abort after the response arrived must not be an unhandled error.
    req.on('error', reject);
    req.end();
  });
}

async function readResponse(url: URL, response: IncomingMessage, settings: OgSettings, signal: AbortSignal): Promise<FetchedPage> {
  const status = response.statusCode ?? 0;
  if (status < 200 || status >= 300) {
    response.destroy();
    throw ApiError.input(`${url.href} answered HTTP ${status}`);
  }
  const [mimeType = '', ...params] = (response.headers['content-type'] ?? '').split(';').map((part) => part.trim());
  const type = mimeType.toLowerCase();
  if (type.startsWith('image/')) {
    response.destroy();
    return { kind: 'image', url, mimeType: type };
  }
  if (!HTML_TYPES.has(type)) {
    response.destroy();
    throw ApiError.input(`${url.href} is not an HTML page (content-type ${type || 'missing'})`);
  }
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > settings.maxBytes) {
    response.destroy();
    throw tooLarge(url, settings.maxBytes);
  }
  try {
    const bytes = await readCapped(decoded(response), url, settings.maxBytes, signal);
    return { kind: 'html', url, html: decode(bytes, charsetOf(params)) };
  } finally {
    response.destroy();
  }
}

/** The body, decompressed; pipeline() passes a broken connection on to the reader. */
function decoded(response: IncomingMessage): Readable {
  const ignore = () => {};
  switch ((response.headers['content-encoding'] ?? '').toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return pipeline(response, createGunzip(), ignore);
    case 'deflate':
      return pipeline(response, createInflate(), ignore);
    case 'br':
      return pipeline(response, createBrotliDecompress(), ignore);
    default:
      return response;
  }
}

/** Reads the body, destroying the stream as soon as it crosses `max` bytes. */
async function readCapped(stream: Readable, url: URL, max: number, signal: AbortSignal): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  const abort = () => stream.destroy(new Error('aborted'));
  signal.addEventListener('abort', abort, { once: true });
  try {
    for await (const chunk of stream) {
      const buffer = chunk as Buffer;
      total += buffer.length;
      if (total > max) {
        stream.destroy();
        throw tooLarge(url, max);
      }
      chunks.push(buffer);
    }
  } finally {
    signal.removeEventListener('abort', abort);
  }
  return Buffer.concat(chunks);
}

function tooLarge(url: URL, max: number): ApiError {
  return ApiError.input(`${url.href} is larger than the ${max} bytes a link preview reads`);
}

function charsetOf(params: string[]): string {
  const charset = params.find((p) => p.toLowerCase().startsWith('charset='))?.slice('charset='.length);
  return charset?.replace(/"/g, '').trim() || 'utf-8';
}

function decode(bytes: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}
