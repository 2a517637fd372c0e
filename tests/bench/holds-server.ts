// The backend for the "backend holds" benchmarks (holds.ts), in a child process so that its
// resident memory is its own: the clients, and the bodies they send, live in the parent. The
// limits come as JSON in HOLDS_LIMITS (none given: the defaults of `npm start`). It samples its
// RSS every 20 ms and answers `memory` with the current and peak values since the last `reset`
// (which may first collect garbage, so a phase starts from a settled heap). Like `npm start` on a
// fresh data folder, it keeps chat.db and uploads in HOLDS_DATA_DIR (the parent removes it).
import { join } from 'node:path';
import { startServer } from '../../src/server/index';
import type { Limits } from '../../src/server/limits';
import { API_KEY, API_SECRET } from './backend';

type Request = { type: 'memory' } | { type: 'reset'; gc: boolean } | { type: 'stop' };

const limits = JSON.parse(process.env.HOLDS_LIMITS ?? '{}') as Partial<Limits>;
const dataDir = process.env.HOLDS_DATA_DIR;
const server = await startServer({
  port: 0,
  dbPath: dataDir ? join(dataDir, 'chat.db') : ':memory:',
  ...(dataDir ? { uploadsDir: join(dataDir, 'uploads') } : {}),
  apiKey: API_KEY,
  apiSecret: API_SECRET,
  quiet: true,
  limits,
});
const send = (message: unknown) => process.send?.(message);

const MB = 1024 * 1024;
let peak = process.memoryUsage.rss();
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss());
}, 20);

send({ type: 'ready', url: server.url });

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  clearInterval(sampler);
  await server.close().catch(() => undefined);
  process.exit(0);
};

process.on('message', (message: Request) => {
  if (message.type === 'memory') {
    const rss = process.memoryUsage.rss();
    peak = Math.max(peak, rss);
    send({ type: 'memory', rssMb: rss / MB, peakMb: peak / MB });
  } else if (message.type === 'reset') {
    if (message.gc) (globalThis as { gc?: () => void }).gc?.();
    peak = process.memoryUsage.rss();
    send({ type: 'memory', rssMb: peak / MB, peakMb: peak / MB });
  } else if (message.type === 'stop') {
    void stop();
  }
});
process.on('disconnect', () => void stop());
