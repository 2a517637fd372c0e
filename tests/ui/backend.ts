import { StreamChat } from 'stream-chat';
import { afterAll, beforeAll, vi } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index';

export const API_KEY = 'ui-key';
export const API_SECRET = 'ui-secret-long-enough-for-hs256-signing';

/** The backend of the running test file, whose API a stubbed fetch leaves alone. */
let apiUrl: string | undefined;

/** Starts the real local backend in-process for a test file (seeded, in memory). */
export function useBackend() {
  const backend = { server: undefined as unknown as RunningServer };
  beforeAll(async () => {
    // One visitor's UI tests send more than a user may in a minute (60 requests to one endpoint).
    backend.server = await startServer({ port: 0, apiKey: API_KEY, apiSecret: API_SECRET, seed: true, quiet: true, limits: { rateLimits: false } });
    apiUrl = backend.server.url;
  });
  afterAll(async () => {
    await backend.server?.close();
  });
  return backend;
}

const signer = new StreamChat(API_KEY, API_SECRET);

/** A token as a site's token endpoint would sign it; `expiresIn` < 0 makes it already expired. */
export function tokenFor(userId: string, expiresIn = 3600) {
  return signer.createToken(userId, Math.floor(Date.now() / 1000) + expiresIn);
}

/** Stubs `fetch` as the site's token endpoint: each call answers with the next grant. */
export function stubTokenEndpoint(...grants: Array<{ token: string; user: { id: string; name?: string } }>) {
  const calls: string[] = [];
  const real = globalThis.fetch;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string | URL, init?: RequestInit) => {
      // The backend's own API (the badge client's calls) is the real one.
      if (apiUrl && String(url).startsWith(apiUrl)) return real(url, init);
      calls.push(String(url));
      const grant = grants[Math.min(calls.length - 1, grants.length - 1)];
      return new Response(JSON.stringify(grant), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

/** A second user on the real SDK, to see what the widget's user does and to talk back. */
export async function otherUser(url: string, id: string) {
  const client = new StreamChat(API_KEY, { baseURL: url });
  await client.connectUser({ id }, tokenFor(id));
  return client;
}
