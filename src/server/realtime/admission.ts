// Admitting a new connection, whatever its transport (a socket, or a long-poll open):
// - Connections per user (protocol-notes §12): the provider treats many sockets for one user as
//   an integration mistake and refuses more than a cap with code 71 (ErrTooManyConnections,
//   which the SDK marks retryable). Counted in the one registry every transport joins, so
//   sockets and long-poll connections add up.
// - The rate limits: a connect is a call to the `Connect` endpoint like any other, counted and
//   refused (code 9) by the same counters as the REST calls.
import type { Subject } from '../auth/tokens';
import type { ServerContext } from '../http/context';
import { ApiError, ErrorCode } from '../http/errors';
import type { RateLimitDecision } from '../http/rate-limit-counters';
import { platformFor, rateLimitedError } from '../http/rate-limits';
import type { RealtimeHub } from './hub';

/**
 * Counts the connect against the rate limits and the user's connections; throws to refuse.
 * Returns the rate-limit window it was counted in (a long-poll open answers its headers).
 */
export function admitConnection(ctx: ServerContext, subject: Subject, userId: string, streamClient: string | undefined): RateLimitDecision {
  const decision = ctx.rateLimits.take({
    platform: platformFor(subject, streamClient),
    method: 'GET',
    path: '/connect',
    ...(subject.kind === 'server' ? {} : { userId }),
  });
  if (!decision.allowed) throw rateLimitedError(decision);
  assertConnectionAllowed(ctx.hub, userId);
  return decision;
}

/** Throws code 71 when `userId` already holds as many connections as the cap allows. */
export function assertConnectionAllowed(hub: RealtimeHub, userId: string): void {
  const cap = hub.limits.maxConnectionsPerUser;
  if (cap <= 0 || hub.registry.countOf(userId) < cap) return;
  throw new ApiError(
    ErrorCode.TooManyConnections,
    `user '${userId}' already has ${cap} open connections, the most one user may hold; close one (or disconnect unused clients) and retry`,
    429,
  );
}
