import { readGrant, type TokenGrant } from '../contract/token-grant';
import { SessionError } from './session-error';
import { text } from '../i18n/translate';
import { requestToken, TOKEN_TIMEOUT_MS as TIMEOUT_MS } from '../browser/token-request';
import { PolicyBlocked } from '../browser/policy-blocks';

/**
 * Asks the site's token endpoint who the visitor is. The site's own session cookie
 * travels with the request (`credentials: 'include'`); the answer is
 * `{"token": "<jwt>", "user": {"id": …}}`. Every failure becomes a readable SessionError.
 */
export async function fetchToken(endpoint: string, started?: Promise<Response>): Promise<TokenGrant> {
  let response: Response;
  try {
    // `started`: the same request, sent by the element on the visitor's intent (requestToken).
    response = await (started ?? requestToken(endpoint));
  } catch (error) {
    if (error instanceof PolicyBlocked) {
      throw new SessionError('token-blocked-by-policy', text('error.tokenBlockedByPolicy', { origin: error.origin }));
    }
    const timedOut = (error as Error)?.name === 'TimeoutError';
    throw new SessionError(
      'token-unreachable',
      timedOut ? text('error.tokenTimeout', { seconds: TIMEOUT_MS / 1000 }) : text('error.tokenUnreachable'),
    );
  }
  if (response.status === 401 || response.status === 403) {
    throw new SessionError(
      'token-unauthorized',
      text('error.tokenRefused', { status: String(response.status) }),
    );
  }
  if (!response.ok) {
    throw new SessionError('token-endpoint-failed', text('error.tokenFailed', { status: String(response.status) }));
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new SessionError('token-invalid-response', text('error.tokenNotJson'));
  }
  const grant = readGrant(body);
  if (grant === 'shape') throw new SessionError('token-invalid-response', text('error.tokenShape'));
  if (grant === 'channel') throw new SessionError('token-invalid-response', text('error.tokenChannel'));
  return grant;
}
