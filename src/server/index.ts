// Starts the local backend: storage, the HTTP app and the WebSocket endpoint on one port.
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Server } from 'node:http';
import { createApp } from './app';
import type { ServerContext } from './context';
import { RealtimeHub } from './realtime/hub';
import { attachWebSocket } from './realtime/handshake';
import { seedDemoData } from './seed';
import { openStore } from './store/store';

export type StartServerOptions = {
  /** 0 picks a free port. Default 8787. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** ':memory:' (default) or a database file path; its folder is created if missing. */
  dbPath?: string;
  apiKey: string;
  apiSecret: string;
  /** Development mode (default true): /demo/token exists, static files are not cached. */
  devMode?: boolean;
  /** Accept development tokens (`….devtoken`). Default false. */
  disableAuthChecks?: boolean;
  /** Project root containing demo/ and dist/ to serve; nothing static is served without it. */
  staticRoot?: string;
  /** Seed demo users and messaging:general into an empty database. Default false. */
  seed?: boolean;
  /** No log output. */
  quiet?: boolean;
};

export type RunningServer = {
  /** http://127.0.0.1:PORT (or the host it listens on). */
  url: string;
  port: number;
  /** Whether seeding ran (the database was empty and `seed` was set). */
  seeded: boolean;
  /** Closes every socket with 1001 (the SDK then reconnects), the HTTP server, and the database. */
  close(): Promise<void>;
};

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const store = openStore(options.dbPath ?? ':memory:');
  const seeded = options.seed ? seedDemoData(store) : false;
  const ctx: ServerContext = {
    config: {
      apiKey: options.apiKey,
      apiSecret: options.apiSecret,
      devMode: options.devMode ?? true,
      disableAuthChecks: options.disableAuthChecks ?? false,
      ...(options.staticRoot ? { staticRoot: options.staticRoot } : {}),
    },
    store,
    hub: new RealtimeHub(),
    log: options.quiet ? () => {} : (message, error) => console.error(`[chat-widget] ${message}`, error ?? ''),
  };
  const app = createApp(ctx);
  const server = createAdaptorServer({ fetch: app.fetch, hostname: host }) as Server;
  const wss = attachWebSocket(server, ctx);

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 8787, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    store.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      ctx.hub.closeAll(1001, 'server shutting down');
      wss.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      store.close();
    })();
    return closed;
  };

  return { url: `http://${urlHost}:${port}`, port, seeded, close };
}
