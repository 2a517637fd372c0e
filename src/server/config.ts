// Command-line configuration: environment variables, overridden by matching flags.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_LIMITS, type Limits } from './limits';

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
  /** The bounds held against clients (limits.ts); only those set here differ from the defaults. */
  limits: Partial<Limits>;
  /** A LibreTranslate-compatible translation service; absent: translation is not configured. */
  translation?: { url: string; apiKey?: string };
  /** A Giphy-compatible search API for `/giphy`; absent: `/giphy` answers that it is not available. */
  giphy?: { url: string; apiKey: string };
  /** `--export-stream <file>`: write the app in Stream's import format to the file and exit. */
  exportStream?: string;
};

export const USAGE = `Usage: chat-widget-server [options]   (npm start at the project's root)

Options (each also settable by the environment variable shown):
  --port <n>               PORT                 port to listen on (default 8787)
  --host <host>            HOST                 interface to bind (default 127.0.0.1)
  --data-dir <dir>         DATA_DIR             folder holding chat.db (default .data)
  --api-key <key>          STREAM_API_KEY       API key clients must send (default ${DEV_API_KEY})
  --api-secret <secret>    STREAM_API_SECRET    secret that signs tokens (development default)
  --disable-auth-checks    DISABLE_AUTH_CHECKS  accept development tokens (….devtoken)
  --allow-private-og       ALLOW_PRIVATE_OG     let link previews fetch loopback and private
                                                addresses (off: only public hosts)
  --translation-url <url>  TRANSLATION_URL      a LibreTranslate-compatible service (POST <url>/translate)
                                                that translates messages; without it translation
                                                answers "not configured" (code 4)
  --translation-api-key <key>
                           TRANSLATION_API_KEY  the service's api_key, when it needs one
  --giphy-api-key <key>    GIPHY_API_KEY        a Giphy API key: /giphy searches Giphy and previews
                                                the GIF (Send, Shuffle, Cancel); without it /giphy
                                                answers that GIPHY is not available
  --giphy-url <url>        GIPHY_URL            a Giphy-compatible API (GET <url>/v1/gifs/search)
                                                (default https://api.giphy.com)
  --production             NODE_ENV=production  production mode: no /demo/token, no demo seed,
                                                a real secret is required

Moving to Stream's hosted API (docs/server.md):
  --export-stream <file>                        write every user, channel, member, message and
                                                reaction of the data folder's database to <file>
                                                in Stream's import format, then exit (run it with
                                                the server stopped)

Limits (docs/server.md "Limits"; 0 turns a numeric limit off):
  --rate-limits <on|off>   RATE_LIMITS          the provider's rate limits, 429 code 9 (default on)
  --user-rate-limit <n>    USER_RATE_LIMIT      requests per minute per user and endpoint (default ${DEFAULT_LIMITS.userRequestsPerMinute})
  --idle-timeout <s>       IDLE_TIMEOUT         close a connection silent this long (default ${DEFAULT_LIMITS.idleTimeoutMs / 1000})
  --ping-interval <s>      PING_INTERVAL        ping sockets this often; unanswered by the next
                                                ping, closed (default ${DEFAULT_LIMITS.pingIntervalMs / 1000})
  --max-unsent-bytes <n>   MAX_UNSENT_BYTES     close a socket with more unsent data (default ${DEFAULT_LIMITS.maxUnsentBytes})
  --max-unsent-bytes-total <n>
                           MAX_UNSENT_BYTES_TOTAL
                                                unsent data of all sockets together; over it the
                                                sockets holding most are closed (default ${DEFAULT_LIMITS.maxUnsentBytesTotal})
  --max-connections-per-user <n>
                           MAX_CONNECTIONS_PER_USER
                                                sockets one user may hold, code 71 (default ${DEFAULT_LIMITS.maxConnectionsPerUser})
  --max-body-bytes <n>     MAX_BODY_BYTES       JSON bodies larger are 413 code 22 (default ${DEFAULT_LIMITS.maxBodyBytes})
  --max-json-depth <n>     MAX_JSON_DEPTH       deeper JSON input is 400 code 4 (default ${DEFAULT_LIMITS.maxJsonDepth})
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
      'translation-url': { type: 'string' },
      'translation-api-key': { type: 'string' },
      'giphy-api-key': { type: 'string' },
      'giphy-url': { type: 'string' },
      production: { type: 'boolean' },
      'rate-limits': { type: 'string' },
      'user-rate-limit': { type: 'string' },
      'idle-timeout': { type: 'string' },
      'ping-interval': { type: 'string' },
      'max-unsent-bytes': { type: 'string' },
      'max-unsent-bytes-total': { type: 'string' },
      'max-connections-per-user': { type: 'string' },
      'max-body-bytes': { type: 'string' },
      'max-json-depth': { type: 'string' },
      'export-stream': { type: 'string' },
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
    limits: limitsFrom(values, env),
    ...translationFrom(values['translation-url'] ?? env.TRANSLATION_URL, values['translation-api-key'] ?? env.TRANSLATION_API_KEY),
    ...giphyFrom(values['giphy-api-key'] ?? env.GIPHY_API_KEY, values['giphy-url'] ?? env.GIPHY_URL),
    ...(values['export-stream'] ? { exportStream: resolve(values['export-stream']) } : {}),
  };
}

/** The Giphy API's key and address (https://api.giphy.com unless another is given). */
function giphyFrom(apiKey: string | undefined, url: string | undefined): Pick<CliConfig, 'giphy'> {
  if (!apiKey) {
    if (url) throw new Error('--giphy-url needs --giphy-api-key (GIPHY_API_KEY) too');
    return {};
  }
  const address = url || 'https://api.giphy.com';
  let parsed: URL | undefined;
  try {
    parsed = new URL(address);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new Error(`invalid --giphy-url: ${address} (an http or https URL)`);
  }
  return { giphy: { url: parsed.href.replace(/\/+$/, ''), apiKey } };
}

/** The translation service's address, checked at start (an http(s) URL), and its key. */
function translationFrom(url: string | undefined, apiKey: string | undefined): Pick<CliConfig, 'translation'> {
  if (!url) return {};
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`invalid --translation-url: ${url} (an http or https URL)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`invalid --translation-url: ${url} (an http or https URL)`);
  }
  return { translation: { url: parsed.href.replace(/\/+$/, ''), ...(apiKey ? { apiKey } : {}) } };
}

const ON_OFF: Record<string, boolean> = { on: true, off: false, true: true, false: false, '1': true, '0': false, yes: true, no: false };

/** The limits given by flag or environment; each one checked, so a typo fails at start. */
function limitsFrom(values: Record<string, string | boolean | undefined>, env: NodeJS.ProcessEnv): Partial<Limits> {
  const text = (flag: string, name: string) => (values[flag] as string | undefined) ?? env[name];
  const count = (flag: string, name: string, scale = 1): number | undefined => {
    const raw = text(flag, name);
    if (raw === undefined || raw === '') return undefined;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0) throw new Error(`invalid --${flag}: ${raw} (a number, 0 for no limit)`);
    return Math.round(n * scale);
  };
  const limits: Partial<Limits> = {};
  const rate = text('rate-limits', 'RATE_LIMITS');
  if (rate !== undefined && rate !== '') {
    const on = ON_OFF[rate.toLowerCase()];
    if (on === undefined) throw new Error(`invalid --rate-limits: ${rate} (on or off)`);
    limits.rateLimits = on;
  }
  const set = <K extends keyof Limits>(key: K, value: Limits[K] | undefined) => {
    if (value !== undefined) limits[key] = value;
  };
  set('userRequestsPerMinute', count('user-rate-limit', 'USER_RATE_LIMIT'));
  set('idleTimeoutMs', count('idle-timeout', 'IDLE_TIMEOUT', 1000));
  set('pingIntervalMs', count('ping-interval', 'PING_INTERVAL', 1000));
  set('maxUnsentBytes', count('max-unsent-bytes', 'MAX_UNSENT_BYTES'));
  set('maxUnsentBytesTotal', count('max-unsent-bytes-total', 'MAX_UNSENT_BYTES_TOTAL'));
  set('maxConnectionsPerUser', count('max-connections-per-user', 'MAX_CONNECTIONS_PER_USER'));
  set('maxBodyBytes', count('max-body-bytes', 'MAX_BODY_BYTES'));
  set('maxJsonDepth', count('max-json-depth', 'MAX_JSON_DEPTH'));
  return limits;
}
