// The rate-limit middleware: which platform a request counts against, and the headers.
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';
import { endpointOf, OTHER, type Platform, type RateLimitCounters } from './rate-limit-counters';

/** Which platform's counters a request counts against: server-side when signed with the secret. */
export function platformOf(c: Context<AppEnv>): Platform {
  if (c.get('subject')?.kind === 'server') return 'server_side';
  const client = (c.req.header('x-stream-client') ?? c.req.query('X-Stream-Client') ?? '').toLowerCase();
  if (client.includes('ios')) return 'ios';
  if (client.includes('android')) return 'android';
  return 'web';
}

/** Counts every API request (after authentication has said who sent it) and sets the headers. */
export function rateLimitHeaders(counters: RateLimitCounters): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    // Only API calls count: preflights, demo pages and static files are not the provider's.
    if (c.req.method === 'OPTIONS' || (!c.get('subject') && endpointOf(c.req.method, c.req.path) === OTHER)) return;
    const window = counters.count(platformOf(c), c.req.method, c.req.path);
    c.res.headers.set('x-ratelimit-limit', String(window.limit));
    c.res.headers.set('x-ratelimit-remaining', String(window.remaining));
    c.res.headers.set('x-ratelimit-reset', String(window.reset));
  };
}
