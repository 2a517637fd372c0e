// A token known to have expired is refreshed before a request goes out, once for every request
// waiting on it. Otherwise a visitor back after the token's lifetime pressed Enter into two 401s
// (the typing event and the send), two requests to the token endpoint, and the SDK's back-off
// after the second failure: the message stored 3.3 s after Enter. A refresh
// in flight is shared by everyone who asks meanwhile; the 401 path stays for clocks that disagree.
import type { StreamChat } from 'stream-chat';

/**
 * Seconds before `exp` at which a token counts as expired, so the request still arrives in
 * time: 5, or a tenth of the token's lifetime when that is shorter (a 3 s token would
 * otherwise count as expired from the start, and every request would renew it).
 */
const MARGIN_S = 5;

/** The JWT's `exp` and `iat` (unix seconds), where it has them. */
function claims(token: string): { exp?: number; iat?: number } {
  try {
    const body = token.split('.')[1] ?? '';
    const payload = JSON.parse(atob(body.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown; iat?: unknown };
    return {
      exp: typeof payload.exp === 'number' ? payload.exp : undefined,
      iat: typeof payload.iat === 'number' ? payload.iat : undefined,
    };
  } catch {
    return {};
  }
}

/**
 * When `token`, first seen at `seenAt` (ms), counts as expired (ms, this browser's clock). With
 * `iat`, from its lifetime counted from when it arrived: a browser whose clock is off by more
 * than a token's lifetime would otherwise renew before every request, or never. Without `iat`,
 * from `exp` as it stands.
 */
function renewAt(token: string, seenAt: number): number {
  const { exp, iat } = claims(token);
  if (exp === undefined) return Infinity;
  if (iat === undefined) return (exp - MARGIN_S) * 1000;
  const lifetime = exp - iat;
  return seenAt + (lifetime - Math.min(MARGIN_S, lifetime / 10)) * 1000;
}

// Every request asks about the same token until it is renewed: decode it once, when first seen.
let known: { token: string; renewAt: number } | undefined;

export function hasExpired(token: string, now = Date.now()): boolean {
  if (known?.token !== token) known = { token, renewAt: renewAt(token, now) };
  return known.renewAt <= now;
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
