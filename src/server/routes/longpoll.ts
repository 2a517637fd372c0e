// `GET /longpoll`: the SDK's WSConnectionFallback (protocol-notes §10), for browsers whose
// WebSocket cannot connect. One path, three requests:
// - open (`json=<the connect payload>`, no connection_id): the socket's handshake and admission
//   (rate limits, connections per user), then `{event: <health.check with connection_id, me>}`.
//   The connection joins the one registry: REST calls that carry its connection_id (watch: true
//   queries) subscribe it as they would a socket, and the fan-out writes to it.
// - poll (`connection_id`): what was queued for it since the last poll, in order, as
//   `{events: [...]}`, at once if anything waits, else as soon as something arrives or empty
//   after the hold (realtime/long-poll-connection.ts). A connection that is unknown, closed, or
//   not the caller's is code 46, on which the SDK opens a new one and recovers its state.
// - close (`close=true&connection_id`): the SDK's disconnect. It is sent after the SDK has
//   forgotten the user (no user_id, and an anonymous visitor no longer says so), so it is
//   authorised by the connection id alone, which only its owner was ever given.
// Each poll is counted against the `LongPoll` window of the rate limits, not the user's own
// 60 a minute, which a busy channel's polls would pass.
import { Hono, type Context } from 'hono';
import type { APIResponse } from 'stream-chat';
import { authenticateIn } from '../auth/authenticate';
import type { Subject } from '../auth/tokens';
import { requestHeader } from '../http/node-exchange';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError, ErrorCode } from '../http/errors';
import { platformFor, rateLimitedError } from '../http/rate-limits';
import { elapsed, sendJson } from './request';
import { admitConnection } from '../realtime/admission';
import { connectUser } from '../features/users/connect-user';
import { connectedEvent } from '../realtime/handshake';
import { isLongPoll, longPollConnection, type LongPollConnection } from '../realtime/long-poll-connection';
import { userConnected } from '../realtime/presence';

export function longPollRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();

  routes.get('/longpoll', (c) => {
    if (c.req.query('close') === 'true') return close(ctx, c);
    if (c.req.query('json') !== undefined) return open(ctx, c);
    return poll(ctx, c);
  });

  return routes;
}

const token = (c: Context<AppEnv>) => requestHeader(c, 'authorization')?.replace(/^Bearer /i, '') || undefined;
const streamClient = (c: Context<AppEnv>) => requestHeader(c, 'x-stream-client') ?? c.req.query('X-Stream-Client');

async function open(ctx: ServerContext, c: Context<AppEnv>): Promise<Response> {
  if (ctx.hub.closing) throw new ApiError(ErrorCode.Internal, 'the server is shutting down; connect again in a moment', 503);
  const { me, subject } = await connectUser(ctx, {
    json: c.req.query('json'),
    apiKey: c.req.query('api_key'),
    authType: requestHeader(c, 'stream-auth-type'),
    token: token(c),
  });
  c.set('rateLimit', admitConnection(ctx, subject, me.id, streamClient(c)));
  const connection = longPollConnection(ctx, { id: me.id, anonymous: me.role === 'anonymous' });
  ctx.hub.registry.add(connection);
  const event = connectedEvent(connection, me);
  userConnected(ctx, connection);
  return sendJson({ event, duration: elapsed(c) });
}

async function poll(ctx: ServerContext, c: Context<AppEnv>): Promise<Response> {
  const id = c.req.query('connection_id');
  if (!id) {
    throw ApiError.input('connection_id is required: open a long-poll connection first (json=<the connect payload>)');
  }
  const subject = await authenticateIn(ctx, {
    apiKey: c.req.query('api_key'),
    authType: requestHeader(c, 'stream-auth-type'),
    token: token(c),
    userId: c.req.query('user_id'),
  });
  const connection = ctx.hub.registry.get(id);
  if (!isLongPoll(connection) || !connection.open || !owns(subject, connection, c.req.query('user_id'))) {
    throw connectionNotFound(id);
  }
  const decision = ctx.rateLimits.take({ platform: platformFor(subject, streamClient(c)), method: 'GET', path: '/longpoll' });
  c.set('rateLimit', decision);
  if (!decision.allowed) throw rateLimitedError(decision);
  const result = await connection.poll(c.req.raw.signal, ctx.hub.longPollHoldMs);
  if ('closed' in result) throw connectionNotFound(id);
  // The frames are each one event already serialised for the fan-out: joined, not re-encoded.
  return new Response(`{"events":[${result.frames.join(',')}],"duration":${JSON.stringify(elapsed(c))}}`, {
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}

function close(ctx: ServerContext, c: Context<AppEnv>): Response {
  if (c.req.query('api_key') !== ctx.config.apiKey) throw ApiError.auth(ErrorCode.AuthFailed, 'api_key not valid');
  const id = c.req.query('connection_id');
  const connection = id ? ctx.hub.registry.get(id) : undefined;
  // Closing twice, or a connection the sweep already closed, is not an error.
  if (isLongPoll(connection)) connection.close(1000, 'closed by the client');
  return sendJson({ duration: elapsed(c) } satisfies APIResponse);
}

/** A server-side caller may poll any connection; a user only their own. */
function owns(subject: Subject, connection: LongPollConnection, userIdParam: string | undefined): boolean {
  if (subject.kind === 'server') return true;
  if (subject.kind === 'user') return !connection.anonymous && subject.userId === connection.userId;
  return connection.anonymous && (subject.userId ?? userIdParam) === connection.userId;
}

function connectionNotFound(id: string): ApiError {
  return new ApiError(
    ErrorCode.ConnectionIdNotFound,
    `connection_id ${id} was not found: it was closed (not polled for too long, or disconnected) or never opened; open a new connection`,
    400,
  );
}
