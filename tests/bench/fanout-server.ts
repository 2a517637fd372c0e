// The backend for the fan-out benchmark, in a child process of its own so that it has a core
// to itself while the benchmark's WebSocket clients run in the parent. It reports its URL,
// answers `cpu` with its CPU time so far and `rss` with its resident set size, and stops on `stop` or when the parent goes away.
import { startBenchServer } from './backend';

type Request = { type: 'cpu' } | { type: 'rss' } | { type: 'stop' };

const server = await startBenchServer();
const send = (message: unknown) => process.send?.(message);
send({ type: 'ready', url: server.url });

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await server.close().catch(() => undefined);
  process.exit(0);
};

process.on('message', (message: Request) => {
  if (message.type === 'cpu') {
    const { user, system } = process.cpuUsage();
    send({ type: 'cpu', ms: (user + system) / 1000 });
  } else if (message.type === 'rss') {
    send({ type: 'rss', value: process.memoryUsage().rss });
  } else if (message.type === 'stop') {
    void stop();
  }
});
process.on('disconnect', () => void stop());
