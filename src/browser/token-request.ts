// The request to the site's token endpoint, on its own so the element (the part every page
// evaluates) can send it on the visitor's intent without the session's code: it then travels
// while the runtime loads, and the session reads its answer (session/token-endpoint.ts).

import { unlessBlocked } from './policy-blocks';

export const TOKEN_TIMEOUT_MS = 10_000;

/**
 * The site's own session cookie travels with the request; the answer is read by fetchToken. A
 * request the page's Content-Security-Policy refuses fails with PolicyBlocked.
 */
export function requestToken(endpoint: string): Promise<Response> {
  return unlessBlocked(endpoint, () =>
    fetch(endpoint, {
      credentials: 'include',
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
    }),
  );
}
