// Long-poll delivery latency beside the WebSocket's: 100 connected clients watch one
// channel, all over WebSocket or all over long-poll (the SDK's fallback), while 4 senders post
// to it over REST at a steady 10 messages a second. Latency is from the sender's request to the
// moment each client has the message.new (for long-poll, the poll answer that carries it);
// p50 and p99 over every delivery of a round of 30 messages, the median of 3 rounds, after a
// warm-up. Each transport gets a fresh backend in a child process (fanout-server.ts, a core to
// itself); the clients (long-poll-clients.ts) run here. Every wait is bounded.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { StreamChat } from 'stream-chat';
import { API_KEY, API_SECRET } from './backend';
import { whenListening } from './backend-process';
import { api, longPollClient, webSocketClient, type RawClient } from './long-poll-clients';
import { median, percentile } from './stats';
import type { BenchRow } from './types';

const CLIENTS = 100;
const SENDERS = 4;
const WARMUP_MESSAGES = 8;
const ROUNDS = 3;
const ROUND_MESSAGES = 30;
const PACE_MS = 100;
const SETUP_CONCURRENCY = 25;
const SETUP_TIMEOUT_MS = 60_000;
const DRAIN_TIMEOUT_MS = 15_000;
/** Time for the setup's own events (watching starts) to reach every client before measuring. */
const SETTLE_MS = 1_000;
// A long-poll delivery costs an HTTP answer and a new poll where a socket writes one frame;
// within a few milliseconds of the socket is the aim on one machine.
const BUDGET_P50_MS = 30;
const BUDGET_P99_MS = 100;

type Transport = 'websocket' | 'long-poll';
type Result = { p50: number; p99: number; p99s: number[]; samples: number; setupMs: number; clientCpuShare: number };

function startBackend(): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ChildProcess = fork(fileURLToPath(new URL('./fanout-server.ts', import.meta.url)), [], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return whenListening(child).then((url) => ({
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.send({ type: 'stop' });
      }),
  }));
}

const deadline = (label: string, ms: number) =>
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${label} took over ${ms / 1000} s`)), ms).unref());

async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await task(items[next++] as T);
    }),
  );
}

async function measure(transport: Transport): Promise<Result> {
  const started = performance.now();
  const backend = await startBackend();
  const clients: RawClient[] = [];
  // Messages in flight: when each was sent, how many clients still wait for it.
  const inFlight = new Map<string, { sentAt: number; remaining: number; done: () => void }>();
  let latencies: number[] = [];
  let recording = false;
  const arrived = (id: string, at: number) => {
    const entry = inFlight.get(id);
    if (!entry) return;
    if (recording) latencies.push(at - entry.sentAt);
    if (--entry.remaining === 0) {
      inFlight.delete(id);
      entry.done();
    }
  };
  try {
    const channelId = `long-poll-${transport}`;
    const watcherIds = Array.from({ length: CLIENTS }, (_, i) => `w${i}`);
    const senderIds = Array.from({ length: SENDERS }, (_, i) => `s${i}`);
    const admin = new StreamChat(API_KEY, API_SECRET, { baseURL: backend.url, timeout: 30_000 });
    await admin.upsertUsers([...watcherIds, ...senderIds].map((id) => ({ id, name: id })));
    await admin.channel('messaging', channelId, { members: [...senderIds, ...watcherIds], created_by_id: 's0' } as never).create();
    const connect = transport === 'websocket' ? webSocketClient : longPollClient;
    await Promise.race([
      pool(watcherIds, SETUP_CONCURRENCY, async (userId) => {
        const client = await connect(backend.url, userId, arrived);
        clients.push(client);
        await api(backend.url, `/channels/messaging/${channelId}/query`, userId, { watch: true, state: true }, client.connectionId);
      }),
      deadline(`connecting ${CLIENTS} ${transport} clients`, SETUP_TIMEOUT_MS),
    ]);
    const setupMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

    let sequence = 0;
    // Resolves when the HTTP answer is in, with the last delivery still to wait for (wrapped:
    // an async function would otherwise wait for it too).
    const sendOne = async (sender: string): Promise<{ delivered: Promise<void> }> => {
      const id = `${transport}-${sequence++}`;
      const delivered = new Promise<void>((done) => inFlight.set(id, { sentAt: performance.now(), remaining: CLIENTS, done }));
      await api(backend.url, `/channels/messaging/${channelId}/message`, sender, { message: { id, text: `latency ${id}` } });
      return { delivered };
    };
    const drain = (all: Promise<void>[], label: string) => Promise.race([Promise.all(all), deadline(label, DRAIN_TIMEOUT_MS)]);

    for (let i = 0; i < WARMUP_MESSAGES; i++) await drain([(await sendOne(senderIds[i % SENDERS] as string)).delivered], 'warm-up');
    const rounds: Array<{ p50: number; p99: number; samples: number }> = [];
    const clientCpu = process.cpuUsage();
    const measuring = performance.now();
    for (let round = 0; round < ROUNDS; round++) {
      latencies = [];
      recording = true;
      const paced: Promise<void>[] = [];
      const roundStarted = performance.now();
      for (let i = 0; i < ROUND_MESSAGES; i++) {
        const wait = roundStarted + i * PACE_MS - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        paced.push(sendOne(senderIds[i % SENDERS] as string).then(({ delivered }) => delivered));
      }
      await drain(paced, `${transport} round ${round + 1}`);
      recording = false;
      rounds.push({ p50: percentile(latencies, 50), p99: percentile(latencies, 99), samples: latencies.length });
    }
    const cpu = process.cpuUsage(clientCpu);
    return {
      clientCpuShare: (cpu.user + cpu.system) / 1000 / (performance.now() - measuring),
      p50: median(rounds.map((r) => r.p50)),
      p99: median(rounds.map((r) => r.p99)),
      p99s: rounds.map((r) => r.p99),
      samples: rounds.reduce((sum, r) => sum + r.samples, 0),
      setupMs,
    };
  } finally {
    inFlight.clear();
    for (const client of clients) client.stop();
    await backend.stop();
  }
}

export default async function longPoll(): Promise<BenchRow[]> {
  const ms = (x: number) => Math.round(x * 100) / 100;
  const socket = await measure('websocket');
  const polled = await measure('long-poll');
  const how = `${CLIENTS} clients watching one channel, ${ROUNDS} rounds of ${ROUND_MESSAGES} messages at 10 msg/s from ${SENDERS} senders after ${WARMUP_MESSAGES} warm-up`;
  return [
    {
      name: `long-poll N=${CLIENTS}: delivery latency p50`,
      unit: 'ms',
      measured: ms(polled.p50),
      peer: ms(socket.p50),
      budget: BUDGET_P50_MS,
      note: `peer: the same ${CLIENTS} clients over WebSocket, same run; ${how} (${polled.samples} deliveries)`,
    },
    {
      name: `long-poll N=${CLIENTS}: delivery latency p99`,
      unit: 'ms',
      measured: ms(polled.p99),
      peer: ms(socket.p99),
      budget: BUDGET_P99_MS,
      note: `sender request start → message.new at each client; rounds: long-poll ${polled.p99s.map(ms).join(', ')} ms, WebSocket ${socket.p99s.map(ms).join(', ')} ms; client process CPU ${Math.round(polled.clientCpuShare * 100)}% / ${Math.round(socket.clientCpuShare * 100)}% busy`,
    },
  ];
}
