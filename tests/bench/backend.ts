// The local backend as every benchmark starts it: a free port, in-memory SQLite, quiet.
import { startServer, type RunningServer } from '../../src/server/index';

export const API_KEY = 'bench-key';
export const API_SECRET = 'bench-secret-that-is-long-enough-for-hs256';

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
    ...(staticRoot ? { staticRoot } : {}),
  });
}
