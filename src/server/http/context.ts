// What every route and realtime module is handed: configuration, storage and the live
// connections. Built once per server in index.ts.
import type { FileUploadConfig } from 'stream-chat';
import type { PushOptions } from '../features/push/push-options';
import type { SyncSettings } from '../features/sync/sync-settings';
import type { TranslatorSettings } from '../features/translation/translator';
import type { GiphySettings } from '../features/commands/giphy-service';
import type { Subject } from '../auth/tokens';
import type { BodyLimits } from '../limits';
import type { ChangeFeed } from '../infra/change-feed';
import type { RateLimitCounters, RateLimitInfo } from './rate-limit-counters';
import type { RealtimeHub } from '../realtime/hub';
import type { Store } from '../store/store';
import type { Timers } from '../infra/timers';

export type ServerConfig = {
  apiKey: string;
  apiSecret: string;
  /** Development mode: the /demo/token endpoint exists and static files are never cached. */
  devMode: boolean;
  /** The app setting `disable_auth_checks`: development tokens are accepted. */
  disableAuthChecks: boolean;
  /** Project root holding demo/ and dist/; without it no static files are served. */
  staticRoot?: string;
  uploads: UploadSettings;
  og: OgSettings;
  /** POST /sync and its event log (features/sync); the defaults when absent. */
  sync?: SyncSettings;
  /** Push delivery (features/push): time-out, retries, bounds; the defaults when absent. */
  push?: PushOptions;
  /** The translation service (features/translation); absent: translation is not configured. */
  translation?: TranslatorSettings;
  /** The Giphy search API behind `/giphy` (features/commands/giphy-*.ts); absent: `/giphy` is not available. */
  giphy?: GiphySettings;
};

/** Where uploads are stored and the app's upload checks (also served in `GET /app`). */
export type UploadSettings = {
  dir: string;
  file: FileUploadConfig;
  image: FileUploadConfig;
};

/** Link previews (`GET /og`): how far the backend will go to fetch a page. */
export type OgSettings = {
  /** Fetch loopback, private and link-local addresses too (tests, intranets). */
  allowPrivate: boolean;
  /** For the whole fetch, redirects included. */
  timeoutMs: number;
  /** Bytes read from a page before giving up. */
  maxBytes: number;
  maxRedirects: number;
};

export type ServerContext = {
  config: ServerConfig;
  store: Store;
  hub: RealtimeHub;
  /** Pin and mute expiry, due reminders (events/expiry.ts); all stopped by close(). */
  timers: Timers;
  /** Every change as one event: webhooks, the sync log and push subscribe; see infra/change-feed.ts. */
  changes: ChangeFeed;
  /** Background tasks still running (infra/run-task.ts), awaited by close(). */
  tasks: Set<Promise<void>>;
  /** Per-endpoint request counters behind the X-RateLimit headers and `GET /rate_limits`. */
  rateLimits: RateLimitCounters;
  log: (message: string, error?: unknown) => void;
};

/** Hono environment: values the middleware puts on each request. */
export type AppEnv = {
  Variables: {
    /** performance.now() when the request arrived, for the `duration` field. */
    started: number;
    subject: Subject;
    /** Body size and JSON nesting limits (body.ts), put on every request by createApp. */
    bodyLimits: BodyLimits;
    /** The rate-limit window this request was counted in (rate-limits.ts), for its headers. */
    rateLimit: RateLimitInfo;
  };
};
