// `GET /og?url=` (stream-chat client.enrichURL, used by the composer's link previews): the
// page's Open Graph preview, or an image preview for an image URL. Every failure (refused
// address, timeout, too large, not HTML) is an input error (code 4) with a readable message.
import { Hono } from 'hono';
import type { APIResponse } from 'stream-chat';
import { actorFor, requireUser } from '../auth/actor';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, requireAuth, sendJson } from './request';
import { checkedUrl, fetchPage } from '../features/og/fetch-page';
import { hasContent, imagePreview, parsePreview, type LinkPreview } from '../features/og/parse-meta';

const MAX_URL_LENGTH = 2048;

export function ogRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();

  routes.get('/og', requireAuth(ctx), async (c) => {
    // Signed-in users only: anonymous visitors must not be able to use the backend as a proxy.
    requireUser(actorFor(ctx.store, c.get('subject')), 'preview links');
    const scrapeUrl = c.req.query('url')?.trim() ?? '';
    if (!scrapeUrl) throw ApiError.input('url is a required parameter');
    if (scrapeUrl.length > MAX_URL_LENGTH) throw ApiError.input(`url is longer than ${MAX_URL_LENGTH} characters`);
    const target = checkedUrl(parseUrl(scrapeUrl), ctx.config.og.allowPrivate);

    const page = await fetchPage(target, ctx.config.og);
    const preview = page.kind === 'image' ? imagePreview(page.url, scrapeUrl) : parsePreview(page.html, page.url, scrapeUrl);
    if (!hasContent(preview)) throw ApiError.input(`${scrapeUrl} has no title, description or image to preview`);
    const response: APIResponse & LinkPreview = { ...preview, duration: elapsed(c) };
    return sendJson(response);
  });

  return routes;
}

/** Accepts what users type: `example.com/page` means `https://example.com/page`. */
function parseUrl(text: string): URL {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`);
  } catch {
    throw ApiError.input(`${text} is not a valid URL`);
  }
}
