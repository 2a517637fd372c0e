// Request and response helpers shared by the routes.
import type { Context, MiddlewareHandler } from 'hono';
import { authenticateIn } from '../auth/authenticate';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { DEFAULT_LIMITS, type BodyLimits } from '../limits';
import { parseBoundedJson, readBoundedText } from '../http/body';
import { requestHeader } from '../http/node-exchange';
import { isObject, type JsonObject } from '../http/input';
import { admitRequest } from '../http/rate-limits';

/** The `duration` every provider response carries. */
export function elapsed(c: Context<AppEnv>): string {
  const started = c.get('started') ?? performance.now();
  return `${(performance.now() - started).toFixed(2)}ms`;
}

/** A JSON answer; `extra` headers (a cookie, an origin) are given here rather than set on it later. */
export function sendJson(body: unknown, status = 200, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...extra },
  });
}

/** The JSON object body; an empty body is `{}`, anything unparsable an input error. */
export async function readJson(c: Context<AppEnv>): Promise<JsonObject> {
  const limits = bodyLimitsOf(c);
  const text = await readBoundedText(c, limits.maxBodyBytes);
  if (!text.trim()) return {};
  const parsed = parseBoundedJson(text, limits.maxJsonDepth, 'request body');
  if (!isObject(parsed)) throw ApiError.input('request body must be a JSON object');
  return parsed;
}

/** GET calls carry their input as `?payload=<url-encoded JSON>` (stream-chat axiosParamsSerializer). */
export function readPayload(c: Context<AppEnv>): JsonObject {
  const raw = c.req.query('payload');
  if (!raw) return {};
  const parsed = parseBoundedJson(raw, bodyLimitsOf(c).maxJsonDepth, 'payload', 'payload must be JSON');
  if (!isObject(parsed)) throw ApiError.input('payload must be a JSON object');
  return parsed;
}

/** The body limits createApp put on the request (the defaults for a bare context). */
export function bodyLimitsOf(c: Context<AppEnv>): BodyLimits {
  return c.get('bodyLimits') ?? DEFAULT_LIMITS;
}

/** Authenticates the request from its api_key, Authorization and stream-auth-type. */
export function requireAuth(ctx: ServerContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const subject = await authenticateIn(
      ctx,
      {
        apiKey: c.req.query('api_key'),
        authType: requestHeader(c, 'stream-auth-type'),
        token: requestHeader(c, 'authorization')?.replace(/^Bearer /i, ''),
        userId: c.req.query('user_id'),
      },
    );
    c.set('subject', subject);
    admitRequest(ctx.rateLimits, c, subject);
    await next();
  };
}

/**
 * Calls only a site owner's server may make (signed with the app secret): channel types, roles,
 * permissions, blocklists, app settings, user administration. A user token is refused with the
 * provider's 403 code 17.
 */
export function requireServerSide(ctx: ServerContext): MiddlewareHandler<AppEnv> {
  const auth = requireAuth(ctx);
  return (c, next) =>
    auth(c, async () => {
      if (c.get('subject').kind !== 'server') {
        throw ApiError.notAllowed(`${c.req.method} ${c.req.routePath} is a server-side call: sign it with the app secret`);
      }
      await next();
    });
}
