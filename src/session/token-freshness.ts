// A token known to have expired is refreshed before a request goes out, once for every request
// waiting on it. Otherwise a visitor back after the token's lifetime pressed Enter into two 401s
// (the typing event and the send), two requests to the token endpoint, and the SDK's back-off
// after the second failure: the message stored 3.3 s after Enter (issue 17, item 4). A refresh
// in flight is shared by everyone who asks meanwhile; the 401 path stays for clocks that disagree.
import type { StreamChat } from 'stream-chat';

/** Seconds before `exp` at which a token counts as expired: the request must still arrive in time. */
const MARGIN_S = 5;

/** The JWT's `exp` (unix seconds), when it has one. */
export function expiresAt(token: string): number | undefined {
  try {
    const body = token.split('.')[1] ?? '';
    const payload = JSON.parse(atob(body.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp : undefined;
  } catch {
    return undefined;
  }
}

export function hasExpired(token: string, now = Date.now()): boolean {
  const exp = expiresAt(token);
  return exp !== undefined && exp - MARGIN_S <= now / 1000;
}

/** One fetch for every caller while it is in flight. */
export function shared<T>(fetch: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  return () => (inFlight ??= fetch().finally(() => (inFlight = undefined)));
}

/** Before each request: an expired token is replaced (through the SDK's provider) first. */
export function refreshExpiredTokens(client: StreamChat): void {
  client.axiosInstance.interceptors.request.use(async (config) => {
    // Only a token from a provider can be renewed (a guest's is static, and before connectUser
    // there is none: getToken throws then).
    if (client.tokenManager.isStatic()) return config;
    let token: string | undefined;
    try {
      token = client.tokenManager.getToken();
    } catch {
      return config;
    }
    if (!token || !hasExpired(token)) return config;
    client.tokenManager.loadToken();
    const fresh = await client.tokenManager.tokenReady();
    if (fresh && config.headers) config.headers.Authorization = fresh;
    return config;
  });
}
