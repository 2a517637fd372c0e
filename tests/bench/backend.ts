// The local backend as every benchmark starts it: a free port, in-memory SQLite, quiet.
import { startServer, type RunningServer } from '../../src/server/index';
import type { Limits } from '../../src/server/limits';

export const API_KEY = 'bench-key';
export const API_SECRET = 'bench-secret-that-is-long-enough-for-hs256';

/**
 * The limits a benchmark turns off, explicitly (docs/server.md "Limits"): its senders post far more
 * than 60 a minute as one user, its raw sockets never send the SDK's pings, and a page may
 * be loaded by one user many times over. Body sizes and unsent data stay bounded as always.
 */
export const BENCH_LIMITS: Partial<Limits> = {
  rateLimits: false,
  idleTimeoutMs: 0,
  pingIntervalMs: 0,
  maxConnectionsPerUser: 0,
};

/**
 * Development mode (so `/demo/token?user=…` signs tokens for the pages), the demo users and
 * `messaging:general` seeded, and `staticRoot` served when given (see pages.ts).
 */
export function startBenchServer(staticRoot?: string): Promise<RunningServer> {
  return startServer({
    port: 0,
    dbPath: ':memory:',
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    devMode: true,
    seed: true,
    quiet: true,
    limits: BENCH_LIMITS,
    ...(staticRoot ? { staticRoot } : {}),
  });
}
