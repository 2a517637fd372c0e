// Command-line configuration: environment variables, overridden by matching flags.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

/** Public development credentials: anyone reading this file knows them. */
export const DEV_API_KEY = 'chat-widget-dev';
export const DEV_API_SECRET = 'chat-widget-dev-secret-do-not-use-in-production';

export type CliConfig = {
  port: number;
  host: string;
  dataDir: string;
  dbPath: string;
  apiKey: string;
  apiSecret: string;
  devMode: boolean;
  disableAuthChecks: boolean;
  /** Uploaded files: `uploads` inside the data folder. */
  uploadsDir: string;
  /** `GET /og` may fetch loopback and private addresses. */
  allowPrivateOg: boolean;
  /** True when the development key or secret is in use. */
  devCredentials: boolean;
};

export const USAGE = `Usage: tsx src/server/main.ts [options]

Options (each also settable by the environment variable shown):
  --port <n>               PORT                 port to listen on (default 8787)
  --host <host>            HOST                 interface to bind (default 127.0.0.1)
  --data-dir <dir>         DATA_DIR             folder holding chat.db (default .data)
  --api-key <key>          STREAM_API_KEY       API key clients must send (default ${DEV_API_KEY})
  --api-secret <secret>    STREAM_API_SECRET    secret that signs tokens (development default)
  --disable-auth-checks    DISABLE_AUTH_CHECKS  accept development tokens (….devtoken)
  --allow-private-og       ALLOW_PRIVATE_OG     let link previews fetch loopback and private
                                                addresses (off: only public hosts)
  --production             NODE_ENV=production  production mode: no /demo/token, no demo seed,
                                                a real secret is required
  --help                   show this help`;

const TRUE = new Set(['1', 'true', 'yes', 'on']);

export function loadConfig(argv: string[], env: NodeJS.ProcessEnv): CliConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      'api-key': { type: 'string' },
      'api-secret': { type: 'string' },
      'disable-auth-checks': { type: 'boolean' },
      'allow-private-og': { type: 'boolean' },
      production: { type: 'boolean' },
    },
    strict: true,
  });
  const portText = values.port ?? env.PORT ?? '8787';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port: ${portText}`);
  const devMode = !(values.production ?? env.NODE_ENV === 'production');
  const apiKey = values['api-key'] ?? env.STREAM_API_KEY ?? DEV_API_KEY;
  const apiSecret = values['api-secret'] ?? env.STREAM_API_SECRET ?? DEV_API_SECRET;
  if (!devMode && apiSecret === DEV_API_SECRET) {
    throw new Error('production mode needs a real secret: set STREAM_API_SECRET or --api-secret');
  }
  const dataDir = resolve(values['data-dir'] ?? env.DATA_DIR ?? '.data');
  return {
    port,
    host: values.host ?? env.HOST ?? '127.0.0.1',
    dataDir,
    dbPath: resolve(dataDir, 'chat.db'),
    uploadsDir: resolve(dataDir, 'uploads'),
    apiKey,
    apiSecret,
    devMode,
    disableAuthChecks: values['disable-auth-checks'] ?? TRUE.has((env.DISABLE_AUTH_CHECKS ?? '').toLowerCase()),
    allowPrivateOg: values['allow-private-og'] ?? TRUE.has((env.ALLOW_PRIVATE_OG ?? '').toLowerCase()),
    devCredentials: apiKey === DEV_API_KEY || apiSecret === DEV_API_SECRET,
  };
}
