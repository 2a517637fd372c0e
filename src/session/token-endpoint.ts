import { parseChannel, type ChannelRef } from '../element/attributes';
import { SessionError } from './session-error';

export interface TokenGrant {
  token: string;
  user: { id: string; name?: string; image?: string; [field: string]: unknown };
  /** The site's server chose this visitor's conversation (`type:id`), e.g. their own support channel. */
  channel?: ChannelRef;
}

const TIMEOUT_MS = 10_000;

/**
 * Asks the site's token endpoint who the visitor is. The site's own session cookie
 * travels with the request (`credentials: 'include'`); the answer is
 * `{"token": "<jwt>", "user": {"id": …}}`. Every failure becomes a readable SessionError.
 */
export async function fetchToken(endpoint: string): Promise<TokenGrant> {
  let response: Response;
  try {
    response = await fetch(endpoint, {
      credentials: 'include',
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const timedOut = (error as Error)?.name === 'TimeoutError';
    throw new SessionError(
      'token-unreachable',
      timedOut
        ? `The token endpoint did not answer within ${TIMEOUT_MS / 1000} seconds.`
        : 'The token endpoint could not be reached. Check your connection and try again.',
    );
  }
  if (response.status === 401 || response.status === 403) {
    throw new SessionError(
      'token-unauthorized',
      `The site did not allow this visitor to chat (HTTP ${response.status}). Sign in and try again.`,
    );
  }
  if (!response.ok) {
    throw new SessionError('token-endpoint-failed', `The token endpoint failed (HTTP ${response.status}).`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new SessionError('token-invalid-response', 'The token endpoint did not answer with JSON.');
  }
  const grant = body as Partial<TokenGrant> | null;
  if (typeof grant?.token !== 'string' || !grant.token || typeof grant.user?.id !== 'string' || !grant.user.id) {
    throw new SessionError(
      'token-invalid-response',
      'The token endpoint answered without a "token" and a "user" with an "id".',
    );
  }
  const { channel } = body as { channel?: unknown };
  if (channel === undefined || channel === null) return { token: grant.token, user: grant.user };
  const ref = typeof channel === 'string' ? parseChannel(channel) : null;
  if (!ref || 'reason' in ref) {
    throw new SessionError('token-invalid-response', 'The token endpoint answered with a "channel" that is not "type:id".');
  }
  return { token: grant.token, user: grant.user, channel: ref };
}
