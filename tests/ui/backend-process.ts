import { spawn } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import type { StartServerOptions } from '../../src/server/index';
import { API_KEY, API_SECRET } from './backend';

type Options = Omit<StartServerOptions, 'apiKey' | 'apiSecret' | 'port'>;

/**
 * The real backend in a child process. Uploads need it: in-process, under happy-dom, the
 * backend's request bodies are built with happy-dom's Request and Headers instead of Node's,
 * and multipart bodies cannot be read.
 */
export function useBackendProcess(options: Options = {}) {
  const backend = { server: { url: '' }, stop: async () => undefined as void };
  beforeAll(async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/ui/backend-main.ts'], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, BACKEND_OPTIONS: JSON.stringify({ apiKey: API_KEY, apiSecret: API_SECRET, seed: true, quiet: true, limits: { rateLimits: false }, ...options }) },
    });
    backend.server.url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        const url = /^listening (\S+)/m.exec(chunk.toString())?.[1];
        if (url) resolve(url);
      });
      child.once('exit', (code) => reject(new Error(`the backend exited with ${code}`)));
    });
    backend.stop = () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end();
      });
  }, 20_000);
  afterAll(() => backend.stop());
  return backend;
}
