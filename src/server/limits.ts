// Every bound the backend holds against a client, with its default, in one place (architecture:
// "Bounded under any client"). startServer resolves these once and hands each part its slice:
// the realtime hub (liveness, unsent data, connections per user), the rate limiter, and the
// HTTP app (body size and nesting). Upload size is the app's own setting (`size_limit` in
// file_upload_config / image_upload_config, PATCH /app), as with the provider. A numeric limit
// of 0 turns that limit off; tests and benchmarks that need a limit off say so explicitly.

export type Limits = {
  /** A connection that sent nothing (no frame, no poll) for this long is closed. SDK pings every 25 s. */
  idleTimeoutMs: number;
  /** The server pings each socket this often; a ping still unanswered at the next one closes it. */
  pingIntervalMs: number;
  /** A socket whose unsent data passes this is dropped (the peer sees 1006; the SDK reconnects). */
  maxUnsentBytes: number;
  /** The unsent data of all sockets together; over it, the sockets holding the most are dropped. */
  maxUnsentBytesTotal: number;
  /** Concurrent connections (sockets and long-poll) one user may hold; over it, code 71. */
  maxConnectionsPerUser: number;
  /** JSON request bodies longer than this are refused with 413, code 22, before being read whole. */
  maxBodyBytes: number;
  /** JSON nested deeper than this (objects and arrays), in a body or a `payload`, is a 400, code 4. */
  maxJsonDepth: number;
  /** The provider's rate limits (per endpoint and platform, and per user): enforced when true. */
  rateLimits: boolean;
  /** Requests one user may make to one endpoint in a minute, per platform (server-side calls exempt). */
  userRequestsPerMinute: number;
  /** How long a rate-limit window lasts, ms: the provider's minute; tests shorten it to see a window end. */
  rateLimitWindowMs: number;
};

/** What the HTTP app needs of them: body size and JSON nesting. */
export type BodyLimits = Pick<Limits, 'maxBodyBytes' | 'maxJsonDepth'>;

export const DEFAULT_LIMITS: Readonly<Limits> = {
  idleTimeoutMs: 60_000,
  pingIntervalMs: 25_000,
  maxUnsentBytes: 4 * 1024 * 1024,
  maxUnsentBytesTotal: 8 * 1024 * 1024,
  maxConnectionsPerUser: 25,
  maxBodyBytes: 5 * 1024 * 1024,
  maxJsonDepth: 64,
  rateLimits: true,
  userRequestsPerMinute: 60,
  rateLimitWindowMs: 60_000,
};

/** Every limit off: for tests that drive the backend harder than any one client could. */
export const NO_LIMITS: Readonly<Limits> = {
  idleTimeoutMs: 0,
  pingIntervalMs: 0,
  maxUnsentBytes: 0,
  maxUnsentBytesTotal: 0,
  maxConnectionsPerUser: 0,
  maxBodyBytes: 0,
  maxJsonDepth: 0,
  rateLimits: false,
  userRequestsPerMinute: 0,
  rateLimitWindowMs: 60_000,
};

export function resolveLimits(overrides: Partial<Limits> = {}): Limits {
  const limits = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(overrides) as [keyof Limits, Limits[keyof Limits] | undefined][]) {
    if (value !== undefined) (limits as Record<keyof Limits, unknown>)[key] = value;
  }
  return limits;
}

/** A limit of 0 (or less) is no limit. */
export function within(value: number, limit: number): boolean {
  return limit <= 0 || value <= limit;
}
