// Test harness: the backend on a random port with in-memory storage, driven by real
// stream-chat clients. Everything a test opens is closed by harness.close().
import { SignJWT } from 'jose';
import { StreamChat, type Event, type TokenOrProvider } from 'stream-chat';
import { startServer, type RunningServer, type StartServerOptions } from '../../src/server/index';

export const API_KEY = 'test-api-key';
export const API_SECRET = 'test-api-secret-0123456789abcdef';

export type Harness = {
  server: RunningServer;
  url: string;
  /** Server-side SDK client (constructed with the secret), pointed at the backend. */
  admin: StreamChat;
  token(userId: string, exp?: number): string;
  /** A new client (not connected). */
  client(): StreamChat;
  /** A connected client for `userId` (created if missing). */
  connect(userId: string, extra?: Record<string, unknown>, token?: TokenOrProvider): Promise<StreamChat>;
  /** Raw HTTP to the backend with the SDK's query parameters and headers. */
  request(path: string, init?: RawRequest): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
};

export type RawRequest = {
  method?: string;
  body?: string | object;
  token?: string;
  userId?: string;
  authType?: 'jwt' | 'anonymous';
  query?: Record<string, string>;
  headers?: Record<string, string>;
};

export async function startHarness(options: Partial<StartServerOptions> = {}): Promise<Harness> {
  const server = await startServer({
    port: 0,
    dbPath: ':memory:',
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    quiet: true,
    ...options,
  });
  const signer = new StreamChat(API_KEY, API_SECRET);
  const admin = new StreamChat(API_KEY, API_SECRET, { baseURL: server.url });
  const clients: StreamChat[] = [];

  const client = () => {
    const created = new StreamChat(API_KEY, { baseURL: server.url, allowServerSideConnect: true });
    clients.push(created);
    return created;
  };

  return {
    server,
    url: server.url,
    admin,
    token: (userId, exp) => signer.createToken(userId, exp),
    client,
    async connect(userId, extra = {}, token) {
      const created = client();
      await created.connectUser({ id: userId, ...extra }, token ?? signer.createToken(userId));
      return created;
    },
    async request(path, init = {}) {
      const query = new URLSearchParams({ api_key: API_KEY, ...(init.userId ? { user_id: init.userId } : {}), ...init.query });
      const headers: Record<string, string> = {
        'stream-auth-type': init.authType ?? 'jwt',
        'content-type': 'application/json',
        ...(init.token ? { authorization: init.token } : {}),
        ...init.headers,
      };
      const body = init.body === undefined || typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      const response = await fetch(`${server.url}${path}?${query}`, {
        method: init.method ?? (body === undefined ? 'GET' : 'POST'),
        headers,
        ...(body !== undefined ? { body } : {}),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, body: parsed, headers: response.headers };
    },
    async close() {
      await Promise.allSettled(clients.map((c) => c.disconnectUser()));
      await server.close();
    },
  };
}

type Listenable = { on(type: string, handler: (event: Event) => void): { unsubscribe(): void } };

/** The next event of `type` (matching `where`), or a rejection after `timeoutMs`. */
export function nextEvent(
  target: Listenable,
  type: string,
  where: (event: Event) => boolean = () => true,
  timeoutMs = 3000,
): Promise<Event> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.unsubscribe();
      reject(new Error(`no ${type} event within ${timeoutMs} ms`));
    }, timeoutMs);
    const subscription = target.on(type, (event) => {
      if (!where(event)) return;
      clearTimeout(timer);
      subscription.unsubscribe();
      resolve(event);
    });
  });
}

/** Collects every event of `type` until stopped. */
export function collectEvents(target: Listenable, type: string) {
  const events: Event[] = [];
  const subscription = target.on(type, (event) => events.push(event));
  return { events, stop: () => subscription.unsubscribe() };
}

/** An HS256 token signed with any secret, claims as given (for forged and odd tokens). */
export function signToken(claims: Record<string, unknown>, secret = API_SECRET): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret));
}

/** The task once it has completed or failed (the backend runs tasks in the background). */
export async function taskEnded(admin: StreamChat, taskId: string | undefined) {
  for (let i = 0; i < 250; i++) {
    const task = await admin.getTask(taskId as string);
    if (task.status === 'completed' || task.status === 'failed') return task;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`task ${taskId} did not finish`);
}

export async function createUsers(harness: Harness, ...ids: string[]): Promise<void> {
  await harness.admin.upsertUsers(ids.map((id) => ({ id, name: id[0]?.toUpperCase() + id.slice(1) })));
}

/** What a failed SDK call carries: the HTTP status and the provider's error JSON. */
export async function failure(call: Promise<unknown>): Promise<{ status: number; code: number; message: string }> {
  try {
    await call;
  } catch (error) {
    const { status, code, response } = error as { status: number; code: number; response?: { data?: { message?: string } } };
    return { status, code, message: response?.data?.message ?? String((error as Error).message) };
  }
  throw new Error('the call succeeded');
}
