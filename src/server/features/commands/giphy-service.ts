// The Giphy search API behind `/giphy`: `GET {url}/v1/gifs/search?api_key&q&limit&offset&rating`
// answering `{data: [{id, title, url, images: {fixed_height: {url, width, height}, original, …}}]}`.
// One GIF is asked for at a time (limit 1, the offset picks which). One deadline covers the
// whole exchange, body included, and the answer is read up to a bound, so a slow or flooding
// service ends in a clear error (504, 502) well inside the SDK's 3 s request timeout, never a hang.
import { ApiError, ErrorCode } from '../../http/errors';
import { readCapped } from '../../http/service-answer';

export type GiphySettings = {
  /** The API's base URL (`{url}/v1/gifs/search` is called), https://api.giphy.com by default. */
  url: string;
  apiKey: string;
  /** For one search. Default 2500 ms: inside the SDK's 3 s. */
  timeoutMs: number;
  /** Bytes of the answer read at most. */
  maxBytes: number;
  /** Giphy's content rating filter. */
  rating: string;
};

export const DEFAULT_GIPHY: Omit<GiphySettings, 'url' | 'apiKey'> = {
  timeoutMs: 2500,
  maxBytes: 1024 * 1024,
  rating: 'g',
};

/** One rendition of a GIF, as the provider copies it into the attachment's `giphy`. */
export type GifRendition = { url: string; width: string; height: string; size?: string; frames?: string };

export type Gif = { id: string; title: string; url: string; images: Record<string, GifRendition> };

/** The `offset`-th GIF found for `query`, or undefined when there are no more. */
export async function searchGif(settings: GiphySettings, query: string, offset: number): Promise<Gif | undefined> {
  const params = new URLSearchParams({ api_key: settings.apiKey, q: query, limit: '1', offset: String(offset), rating: settings.rating });
  const signal = AbortSignal.timeout(settings.timeoutMs);
  try {
    const response = await fetch(`${settings.url.replace(/\/+$/, '')}/v1/gifs/search?${params}`, {
      headers: { accept: 'application/json' },
      signal,
      redirect: 'error',
    });
    const body = await readCapped(response, settings.maxBytes, () => failed(`answered with more than ${settings.maxBytes} bytes`));
    // A refused key (401, 403) or a bad request is the backend's configuration, not the user's.
    if (!response.ok) throw failed(`answered HTTP ${response.status}${messageOf(body) ? `: ${messageOf(body)}` : ''}`);
    const data = parse(body)?.data;
    if (!Array.isArray(data)) throw failed('answered without a list of GIFs (data)');
    return data.length ? gifOf(data[0]) : undefined;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (signal.aborted) throw new ApiError(ErrorCode.Internal, `the GIPHY service did not answer within ${settings.timeoutMs} ms`, 504);
    const cause = (error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message;
    throw failed(`could not be reached (${cause})`);
  }
}

/** A failure of the service, not of the request: 502 with the provider's error JSON. */
function failed(what: string): ApiError {
  return new ApiError(ErrorCode.Internal, `the GIPHY service ${what}`, 502);
}

function gifOf(value: unknown): Gif {
  const item = value as { id?: unknown; title?: unknown; url?: unknown; images?: unknown } | null;
  const images: Record<string, GifRendition> = {};
  if (item && typeof item.images === 'object' && item.images !== null) {
    for (const [name, raw] of Object.entries(item.images as Record<string, unknown>)) {
      const r = raw as Record<string, unknown> | null;
      if (!r || typeof r.url !== 'string' || !/^https?:\/\//.test(r.url)) continue;
      images[name] = {
        url: r.url,
        width: String(r.width ?? ''),
        height: String(r.height ?? ''),
        ...(r.size !== undefined ? { size: String(r.size) } : {}),
        ...(r.frames !== undefined ? { frames: String(r.frames) } : {}),
      };
    }
  }
  if (!item || typeof item.id !== 'string' || !(images.fixed_height ?? images.original)) {
    throw failed('answered with a GIF that has no id or no image');
  }
  return { id: item.id, title: typeof item.title === 'string' ? item.title : '', url: typeof item.url === 'string' && /^https?:\/\//.test(item.url) ? item.url : '', images };
}

function parse(text: string): { data?: unknown; message?: unknown; meta?: { msg?: unknown } } | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function messageOf(body: string): string {
  const answer = parse(body);
  const text = answer?.message ?? answer?.meta?.msg;
  return typeof text === 'string' ? text.slice(0, 300) : '';
}
