// The rate limits on the request path: which platform a request counts against, the admission
// of a request once its sender is known (requireAuth calls admitRequest), and the headers every
// API answer carries. Over a limit the answer is 429 with code 9, which the SDK names
// RateLimitError and treats as retryable; `X-RateLimit-Reset` says when (unix seconds).
import type { Context, MiddlewareHandler } from 'hono';
import type { Subject } from '../auth/tokens';
import { requestHeader, setAnswerHeaders } from './node-exchange';
import type { AppEnv } from './context';
import { ApiError } from './errors';
import { isNamedEndpoint, type Platform, type RateLimitCounters, type RateLimitDecision } from './rate-limit-counters';

/** Which platform's counters a request counts against: server-side when signed with the secret. */
export function platformOf(c: Context<AppEnv>): Platform {
  return platformFor(c.get('subject'), requestHeader(c, 'x-stream-client') ?? c.req.query('X-Stream-Client'));
}

/** The same for any transport: the subject, and the SDK's `X-Stream-Client` (header or query). */
export function platformFor(subject: Subject | undefined, streamClient: string | undefined): Platform {
  if (subject?.kind === 'server') return 'server_side';
  const client = (streamClient ?? '').toLowerCase();
  if (client.includes('ios')) return 'ios';
  if (client.includes('android')) return 'android';
  return 'web';
}

/** The 429 for a refused request (or connection). */
export function rateLimitedError(decision: RateLimitDecision, now = Date.now()): ApiError {
  const wait = Math.max(1, decision.reset - Math.floor(now / 1000));
  return ApiError.rateLimited(
    `Too many requests: ${decision.endpoint} allows ${decision.limit} a minute${decision.perUser ? ' per user' : ''}; try again in ${wait} s (see the X-RateLimit headers)`,
  );
}

/**
 * Counts an authenticated request against its endpoint and its user, before the handler runs;
 * over a limit (when limits are on) it is refused with 429 code 9 and does nothing.
 */
export function admitRequest(counters: RateLimitCounters, c: Context<AppEnv>, subject: Subject): void {
  const userId = subject.kind === 'server' ? undefined : subject.userId;
  const decision = counters.take({
    platform: platformOf(c),
    method: c.req.method,
    path: c.req.path,
    route: c.req.routePath,
    ...(userId !== undefined ? { userId } : {}),
  });
  c.set('rateLimit', decision);
  if (!decision.allowed) throw rateLimitedError(decision);
}

/**
 * Sets the headers on every API answer. A request that never reached admission (its
 * authentication failed, or the route has none) is counted here, after the fact, when the
 * provider's table names its endpoint; preflights, demo pages and static files are not counted.
 */
export function rateLimitHeaders(counters: RateLimitCounters): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.req.method === 'OPTIONS') return;
    let window = c.get('rateLimit');
    if (!window) {
      if (!isNamedEndpoint(c.req.method, c.req.path)) return;
      window = counters.take({ platform: platformOf(c), method: c.req.method, path: c.req.path });
    }
    setAnswerHeaders(c, {
      'x-ratelimit-limit': String(window.limit),
      'x-ratelimit-remaining': String(window.remaining),
      'x-ratelimit-reset': String(window.reset),
    });
  };
}
