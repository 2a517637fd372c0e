// `npm start` / `npm run dev`: read env + flags, start the backend, print where it is; or, with
// `--export-stream <file>`, write the data folder's app in Stream's import format and exit.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { USAGE, loadConfig, type CliConfig } from './config';
import { exportAppToFile } from './features/import-export/app-export';
import { startServer } from './index';
import { resolveLimits } from './limits';
import { openStore } from './store/store';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  let config: CliConfig;
  try {
    config = loadConfig(argv, process.env);
  } catch (error) {
    console.error(`chat-widget backend: ${(error as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (config.exportStream) {
    await exportForStream(config.dbPath, config.exportStream);
    return;
  }
  const server = await startServer({
    port: config.port,
    host: config.host,
    dbPath: config.dbPath,
    apiKey: config.apiKey,
    apiSecret: config.apiSecret,
    devMode: config.devMode,
    disableAuthChecks: config.disableAuthChecks,
    uploadsDir: config.uploadsDir,
    allowPrivateOg: config.allowPrivateOg,
    limits: config.limits,
    ...(config.translation ? { translation: config.translation } : {}),
    ...(config.giphy ? { giphy: config.giphy } : {}),
    staticRoot: PROJECT_ROOT,
    seed: config.devMode,
  });
  console.log(banner(config, server.port, server.seeded));

  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** `--export-stream`: the database as it is, read without starting the server (nor seeding it). */
async function exportForStream(dbPath: string, file: string): Promise<void> {
  if (!existsSync(dbPath)) {
    console.error(`chat-widget backend: no database at ${dbPath} (set --data-dir or DATA_DIR)`);
    process.exitCode = 2;
    return;
  }
  const store = openStore(dbPath);
  try {
    const counts = await exportAppToFile(store, file);
    const summary = Object.entries(counts).map(([type, n]) => `${n} ${type}${n === 1 ? '' : 's'}`).join(', ');
    console.log(`Wrote ${summary} to ${file}\nImport it into your Stream app: see "Moving to Stream's hosted API" in docs/server.md.`);
  } catch (error) {
    console.error(`chat-widget backend: could not write ${file}: ${(error as Error).message}`);
    process.exitCode = 1;
  } finally {
    store.close();
  }
}

function banner(config: CliConfig, port: number, seeded: boolean): string {
  const shownHost = ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost'].includes(config.host) ? 'localhost' : config.host;
  const lines = [
    'chat-widget local backend',
    `  URL:        http://${shownHost}:${port}`,
    `  API key:    ${config.apiKey}`,
    `  Data file:  ${config.dbPath}${seeded ? ' (new: seeded demo users and #general)' : ''}`,
    `  Mode:       ${config.devMode ? 'development (/demo/token enabled)' : 'production'}` +
      `, dev tokens ${config.disableAuthChecks ? 'accepted' : 'refused'}`,
  ];
  lines.push(`  Translator: ${config.translation ? config.translation.url : 'none, translation is off (--translation-url)'}`);
  lines.push(`  Giphy:      ${config.giphy ? config.giphy.url : 'none, /giphy is off (--giphy-api-key)'}`);
  const limits = resolveLimits(config.limits);
  lines.push(
    `  Limits:     rate limits ${limits.rateLimits ? 'on' : 'off'}, ${limits.maxConnectionsPerUser || 'any number of'} connections a user, ` +
      `silent connections closed after ${limits.idleTimeoutMs ? `${limits.idleTimeoutMs / 1000} s` : 'never'} (docs/server.md "Limits"; --help)`,
  );
  if (config.devCredentials) {
    lines.push('  Warning:    using the built-in development API key/secret. They are public;');
    lines.push('              set STREAM_API_KEY and STREAM_API_SECRET for anything real.');
  }
  return lines.join('\n');
}

main().catch((error: unknown) => {
  console.error('chat-widget backend failed to start:', error);
  process.exitCode = 1;
});
