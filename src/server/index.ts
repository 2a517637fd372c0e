// Starts the local backend: storage, the HTTP app and the WebSocket endpoint on one port.
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Server } from 'node:http';
import type { FileUploadConfig } from 'stream-chat';
import { builtinChannelTypes } from './auth/channel-types';
import { DEFAULT_WEBHOOK_OPTIONS, startWebhookDelivery, type WebhookOptions } from './features/webhooks/webhook-delivery';
import { startPushDelivery } from './features/push/push-delivery';
import { DEFAULT_PUSH_OPTIONS, type PushOptions } from './features/push/push-options';
import { createApp } from './app';
import { ChangeFeed } from './infra/change-feed';
import { RateLimitCounters } from './http/rate-limit-counters';
import type { ServerContext } from './http/context';
import { RealtimeHub } from './realtime/hub';
import { startEventLog } from './features/sync/event-log';
import { DEFAULT_SYNC_SETTINGS, type SyncSettings } from './features/sync/sync-settings';
import { DEFAULT_TRANSLATOR, type TranslatorSettings } from './features/translation/translator';
import { DEFAULT_GIPHY, type GiphySettings } from './features/commands/giphy-service';
import { attachWebSocket } from './realtime/handshake';
import { connectUser } from './features/users/connect-user';
import { scheduleAllExpiries } from './events/expiry';
import { resumeCampaigns } from './features/campaigns/campaign-schedule';
import { seedDemoData } from './store/seed';
import { openStore } from './store/store';
import { Timers } from './infra/timers';
import { uploadConfig, uploadsFolder } from './features/uploads/settings';
import { resolveLimits, type Limits } from './limits';

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
  /**
   * Folder for uploaded files. Default: `uploads` beside the database file, or a temporary
   * folder (removed on close) when the database is ':memory:'.
   */
  uploadsDir?: string;
  /** The app's checks for `/file` uploads (GET /app and enforced); size_limit defaults to 100 MB. */
  fileUploadConfig?: Partial<FileUploadConfig>;
  /** The same for `/image` uploads. */
  imageUploadConfig?: Partial<FileUploadConfig>;
  /** Let `GET /og` fetch loopback, private and link-local addresses. Default false. */
  allowPrivateOg?: boolean;
  /**
   * `GET /og` gives up on a page after this long, redirects included. Default 2500 ms: the SDK
   * abandons any request after 3 s, and should get the readable refusal rather than a timeout.
   */
  ogTimeoutMs?: number;
  /** `GET /og` refuses pages larger than this. Default 1 MB. */
  ogMaxBytes?: number;
  /** Webhook delivery: receiver time-out, retries and back-off, outbox bound. */
  webhooks?: Partial<WebhookOptions>;
  /** Push delivery: provider time-out, retries and back-off, outbox bound, devices per user. */
  push?: Partial<PushOptions>;
  /**
   * The bounds held against clients (limits.ts: liveness, unsent data, connections per user,
   * body size and nesting, rate limits); each one not given keeps its default. A test or
   * benchmark that drives the backend harder than a client could turns the one it trips off,
   * e.g. `{ rateLimits: false }`.
   */
  limits?: Partial<Limits>;
  /**
   * Refuse every WebSocket upgrade (403), as a proxy that blocks WebSockets would: clients with
   * `enableWSFallback` fall back to long-poll. Default false.
   */
  refuseWebSockets?: boolean;
  /** How long a long-poll request waits for an event before it is answered empty. Default 20 s. */
  longPollHoldMs?: number;
  /** POST /sync: the event log's bounds (rows, age) and the most events one sync returns. */
  sync?: Partial<SyncSettings>;
  /**
   * A LibreTranslate-compatible translation service (`POST {url}/translate`) for
   * `POST /messages/{id}/translate` and `POST /translate`; without it both answer that translation
   * is not configured. `timeoutMs` (default 2500, inside the SDK's 3 s) covers the whole exchange;
   * `maxBytes` bounds its answer (1 MB) and `maxChars` the text sent (20,000).
   */
  translation?: Pick<TranslatorSettings, 'url'> & Partial<TranslatorSettings>;
  /**
   * A Giphy-compatible search API (`GET {url}/v1/gifs/search`) for `/giphy` and its Send,
   * Shuffle and Cancel actions; without it `/giphy` answers that GIPHY is not available.
   * `timeoutMs` (default 2500, inside the SDK's 3 s) covers one search; `maxBytes` bounds its
   * answer (1 MB).
   */
  giphy?: Pick<GiphySettings, 'url' | 'apiKey'> & Partial<GiphySettings>;
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
  const dbPath = options.dbPath ?? ':memory:';
  const store = openStore(dbPath);
  // The built-in channel types are written once; from then on they are the app's to change.
  store.channelTypes.ensure(builtinChannelTypes(new Date().toISOString()));
  const uploads = uploadsFolder(dbPath, options.uploadsDir);
  const seeded = options.seed ? seedDemoData(store) : false;
  const limits = resolveLimits(options.limits);
  const ctx: ServerContext = {
    config: {
      apiKey: options.apiKey,
      apiSecret: options.apiSecret,
      devMode: options.devMode ?? true,
      disableAuthChecks: options.disableAuthChecks ?? false,
      ...(options.staticRoot ? { staticRoot: options.staticRoot } : {}),
      uploads: {
        dir: uploads.dir,
        file: uploadConfig(options.fileUploadConfig),
        image: uploadConfig(options.imageUploadConfig),
      },
      og: {
        allowPrivate: options.allowPrivateOg ?? false,
        timeoutMs: options.ogTimeoutMs ?? 2500,
        maxBytes: options.ogMaxBytes ?? 1024 * 1024,
        maxRedirects: 5,
      },
      sync: { ...DEFAULT_SYNC_SETTINGS, ...options.sync },
      push: { ...DEFAULT_PUSH_OPTIONS, ...options.push },
      ...(options.translation ? { translation: { ...DEFAULT_TRANSLATOR, ...options.translation } } : {}),
      ...(options.giphy ? { giphy: { ...DEFAULT_GIPHY, ...options.giphy } } : {}),
    },
    store,
    hub: new RealtimeHub(limits, options.longPollHoldMs !== undefined ? { longPollHoldMs: options.longPollHoldMs } : {}),
    timers: new Timers(),
    changes: new ChangeFeed((error) => ctx.log('a change subscriber failed', error)),
    tasks: new Set(),
    rateLimits: new RateLimitCounters(limits),
    log: options.quiet ? () => {} : (message, error) => console.error(`[chat-widget] ${message}`, error ?? ''),
  };
  const app = createApp(ctx, limits);
  scheduleAllExpiries(ctx);
  // Campaigns a restart interrupted go on; scheduled ones start at their time.
  resumeCampaigns(ctx);
  const stopWebhooks = startWebhookDelivery(ctx, { ...DEFAULT_WEBHOOK_OPTIONS, ...options.webhooks });
  const stopPush = startPushDelivery(ctx);
  const stopEventLog = startEventLog(ctx);
  // GET calls carry their whole input in the URL (`?payload=`); Node's 16 KB default for the
  // request head would answer a long search or a big filter with a bare 431 instead of our JSON.
  const server = createAdaptorServer({ fetch: app.fetch, hostname: host, serverOptions: { maxHeaderSize: 256 * 1024 } }) as Server;
  const wss = attachWebSocket(server, ctx, connectUser, { refuseUpgrades: options.refuseWebSockets ?? false });
  ctx.hub.liveness.start();

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 8787, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await Promise.all([stopWebhooks(), stopPush()]);
    stopEventLog();
    ctx.hub.liveness.stop();
    ctx.timers.stopAll();
    store.close();
    uploads.cleanup();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      await Promise.all([stopWebhooks(), stopPush()]);
      stopEventLog();
      ctx.timers.stopAll();
      ctx.hub.closeAll(1001, 'server shutting down');
      wss.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await Promise.allSettled([...ctx.tasks]);
      store.close();
      uploads.cleanup();
    })();
    return closed;
  };

  return { url: `http://${urlHost}:${port}`, port, seeded, close };
}
