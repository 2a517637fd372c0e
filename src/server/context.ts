// What every route and realtime module is handed: configuration, storage and the live
// connections. Built once per server in index.ts.
import type { Subject } from './auth';
import type { RealtimeHub } from './realtime/hub';
import type { Store } from './store/store';

export type ServerConfig = {
  apiKey: string;
  apiSecret: string;
  /** Development mode: the /demo/token endpoint exists and static files are never cached. */
  devMode: boolean;
  /** The app setting `disable_auth_checks`: development tokens are accepted. */
  disableAuthChecks: boolean;
  /** Project root holding demo/ and dist/; without it no static files are served. */
  staticRoot?: string;
};

export type ServerContext = {
  config: ServerConfig;
  store: Store;
  hub: RealtimeHub;
  log: (message: string, error?: unknown) => void;
};

/** Hono environment: values the middleware puts on each request. */
export type AppEnv = {
  Variables: {
    /** performance.now() when the request arrived, for the `duration` field. */
    started: number;
    subject: Subject;
  };
};
