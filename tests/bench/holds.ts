// The backend holds: what a fault or an abusive client costs the server. Each run
// starts the backend in a child process (holds-server.ts) so that its RSS is its own, on a
// fresh data folder as `npm start` would be (messages go to chat.db on disk); growth is
// the peak RSS during the phase minus the RSS at its start (after a forced GC), sampled every
// 20 ms. Clients are raw `ws` sockets doing the SDK's handshake and watch (as in fanout.ts) and
// a server-side `stream-chat` client; bodies are streamed by node:http, never built whole.
//
// - slow readers: 20 sockets stop reading while 4,000 messages of 4 KB go out to their channel;
//   RSS growth from a warm server (1,000 messages first, every socket reading), and the reading
//   socket's p99 delivery latency against the same run without them.
// - dead clients: seconds from a socket's network vanishing (it stops reading and writing) to
//   its user's `user.presence.changed` offline, with the default timeouts and a short setting.
// - body bomb: RSS growth for one 200 MB JSON body (declared length, and streamed without one)
//   and for four concurrent 90 MB uploads.
// - soak: N sockets pinging like the SDK, a steady message rate for a few minutes
//   (SOAK_MINUTES or --soak-minutes=N for longer): deliveries lost, RSS at start, peak and end.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StreamChat } from 'stream-chat';
import WebSocket from 'ws';
import { DEFAULT_LIMITS, type Limits } from '../../src/server/limits';
import { API_KEY, API_SECRET } from './backend';
import { whenListening } from './backend-process';
import { median, percentile } from './stats';
import type { BenchRow } from './types';

const MB = 1024 * 1024;
const signer = new StreamChat(API_KEY, API_SECRET);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const one = (n: number) => Math.round(n * 10) / 10;

type Memory = { rssMb: number; peakMb: number };

/** The backend child process, started with the given limits. */
class HoldsServer {
  private waiting: Array<(memory: Memory) => void> = [];

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    private readonly dataDir: string,
  ) {
    child.on('message', (message: { type: string } & Memory) => {
      if (message.type === 'memory') this.waiting.shift()?.(message);
    });
  }

  static start(limits: Partial<Limits>): Promise<HoldsServer> {
    const dataDir = mkdtempSync(join(tmpdir(), 'holds-bench-'));
    const child = fork(fileURLToPath(new URL('./holds-server.ts', import.meta.url)), [], {
      execArgv: [...process.execArgv, '--expose-gc'],
      env: { ...process.env, HOLDS_LIMITS: JSON.stringify(limits), HOLDS_DATA_DIR: dataDir },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    return whenListening(child).then((url) => new HoldsServer(child, url, dataDir));
  }

  private ask(message: { type: 'memory' } | { type: 'reset'; gc: boolean }): Promise<Memory> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.child.send(message);
    });
  }

  memory(): Promise<Memory> {
    return this.ask({ type: 'memory' });
  }

  /**
   * Starts a new peak: the start of a measured phase. With `gc` (the default) garbage is
   * collected first; a warmed-up phase measures the process as it is instead.
   */
  reset(gc = true): Promise<Memory> {
    return this.ask({ type: 'reset', gc });
  }

  admin(): StreamChat {
    return new StreamChat(API_KEY, API_SECRET, { baseURL: this.url, timeout: 30_000 });
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.send({ type: 'stop' });
    await Promise.race([exited, sleep(5_000)]);
    this.child.kill('SIGKILL');
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** A raw socket after the SDK's handshake, calling `onFrame` for each event frame. */
type Socket = { ws: WebSocket; userId: string; connectionId: string; closed: Promise<number> };

function connect(base: string, userId: string, onFrame: (frame: any) => void = () => {}): Promise<Socket> {
  const json = JSON.stringify({ user_id: userId, user_details: { id: userId } });
  const url = `${base.replace('http', 'ws')}/connect?json=${encodeURIComponent(json)}&api_key=${API_KEY}&authorization=${signer.createToken(userId)}&stream-auth-type=jwt`;
  const ws = new WebSocket(url);
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  ws.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${userId}: no handshake`)), 15_000);
    ws.once('message', (data) => {
      clearTimeout(timer);
      const first = JSON.parse(String(data)) as { connection_id?: string };
      if (!first.connection_id) return reject(new Error(`${userId}: refused ${String(data).slice(0, 200)}`));
      ws.on('message', (frame) => onFrame(JSON.parse(String(frame))));
      resolve({ ws, userId, connectionId: first.connection_id, closed });
    });
  });
}

async function watch(base: string, socket: Socket, cid: string): Promise<void> {
  const [type, id] = cid.split(':');
  const query = new URLSearchParams({ api_key: API_KEY, user_id: socket.userId, connection_id: socket.connectionId });
  const response = await fetch(`${base}/channels/${type}/${id}/query?${query}`, {
    method: 'POST',
    headers: { authorization: signer.createToken(socket.userId), 'stream-auth-type': 'jwt', 'content-type': 'application/json' },
    body: JSON.stringify({ watch: true, state: true, presence: true }),
  });
  if (!response.ok) throw new Error(`${socket.userId}: watch ${cid} answered ${response.status}`);
  await response.arrayBuffer();
}

/** The SDK's own keep-alive: a health.check ping every `ms`. */
function keepAlive(socket: Socket, ms: number): () => void {
  const timer = setInterval(() => {
    if (socket.ws.readyState === WebSocket.OPEN) socket.ws.send(JSON.stringify([{ type: 'health.check', client_id: `${socket.userId}--bench` }]));
  }, ms);
  return () => clearInterval(timer);
}

function pause(socket: Socket): void {
  (socket.ws as unknown as { _socket: { pause(): void } })._socket.pause();
}

async function createChannel(admin: StreamChat, id: string, members: string[]): Promise<void> {
  for (let i = 0; i < members.length; i += 100) {
    await admin.upsertUsers(members.slice(i, i + 100).map((member) => ({ id: member })));
  }
  await admin.channel('messaging', id, { members, created_by_id: members[0] } as never).create();
}

// ---------------------------------------------------------------------------------------------
// slow readers

const SLOW_MESSAGES = 4_000;
const STALLED = 20;
const MESSAGE_BYTES = 4 * 1024;
const SEND_CONCURRENCY = 4;
const WARMUP_MESSAGES = 1_000;

type SlowRun = { startMb: number; peakMb: number; endMb: number; received: number; p50: number; p99: number; stalledLetGo: number; seconds: number };

async function slowReaderRun(stalledCount: number): Promise<SlowRun> {
  // The sender posts 4,000 messages in well under a minute: rate limits off, every other
  // limit as `npm start` has it.
  const server = await HoldsServer.start({ rateLimits: false });
  const sockets: Socket[] = [];
  try {
    const admin = server.admin();
    const stalledIds = Array.from({ length: stalledCount }, (_, i) => `stalled-${i}`);
    await createChannel(admin, 'firehose', ['sender', 'reader', ...stalledIds]);
    const arrivals = new Map<string, number>();
    const letGo = new Set<string>();
    const reader = await connect(server.url, 'reader', (frame) => {
      if (frame.type === 'message.new') arrivals.set(frame.message.id, performance.now());
      else if (frame.type === 'user.watching.stop') letGo.add(frame.user?.id);
    });
    sockets.push(reader);
    await watch(server.url, reader, 'messaging:firehose');
    const stalled: Socket[] = [];
    for (const id of stalledIds) {
      const socket = await connect(server.url, id);
      sockets.push(socket);
      stalled.push(socket);
      await watch(server.url, socket, 'messaging:firehose');
    }

    const channel = admin.channel('messaging', 'firehose');
    const filler = 'lorem ipsum dolor sit amet consectetur adipiscing elit '.repeat(Math.ceil(MESSAGE_BYTES / 56));
    const sentAt = new Map<string, number>();
    const send = async (prefix: string, count: number) => {
      let next = 0;
      const sender = async () => {
        while (next < count) {
          const id = `${prefix}-${next++}`;
          const text = `${id} ${filler}`.slice(0, MESSAGE_BYTES);
          sentAt.set(id, performance.now());
          await channel.sendMessage({ id, text, user_id: 'sender' } as never);
        }
      };
      await Promise.all(Array.from({ length: SEND_CONCURRENCY }, sender));
    };
    // A warm server: every socket reads while the first messages go out.
    await send('warm', WARMUP_MESSAGES);
    await sleep(500);
    for (const socket of stalled) pause(socket);
    await sleep(300);
    const start = await server.reset(false);
    sentAt.clear();
    arrivals.clear();

    const started = performance.now();
    await send('fire', SLOW_MESSAGES);
    const deadline = performance.now() + 60_000;
    while (arrivals.size < SLOW_MESSAGES && performance.now() < deadline) await sleep(50);
    const seconds = (performance.now() - started) / 1000;
    await sleep(500);
    const end = await server.memory();
    const latencies = [...sentAt].filter(([id]) => arrivals.has(id)).map(([id, at]) => (arrivals.get(id) as number) - at);
    return {
      startMb: start.rssMb,
      peakMb: end.peakMb,
      endMb: end.rssMb,
      received: arrivals.size,
      p50: median(latencies),
      p99: percentile(latencies, 99),
      stalledLetGo: stalledIds.filter((id) => letGo.has(id)).length,
      seconds,
    };
  } finally {
    for (const socket of sockets) socket.ws.terminate();
    await server.stop();
  }
}

export async function slowReaders(): Promise<BenchRow[]> {
  const calm = await slowReaderRun(0);
  const stalled = await slowReaderRun(STALLED);
  const growth = stalled.peakMb - stalled.startMb;
  const calmGrowth = calm.peakMb - calm.startMb;
  const latencyBudget = Math.max(2 * calm.p99, calm.p99 + 20);
  return [
    {
      name: `slow readers: RSS growth, ${STALLED} stalled sockets while 4,000 messages of 4 KB go out`,
      unit: 'MB',
      budget: 64,
      measured: one(growth),
      note:
        `after ${WARMUP_MESSAGES} warm-up messages, server RSS ${one(stalled.startMb)} → peak ${one(stalled.peakMb)} → ${one(stalled.endMb)} MB; the reading socket got ${stalled.received} of ${SLOW_MESSAGES}; ` +
        `${stalled.stalledLetGo} of ${STALLED} stalled sockets dropped (bounds: ${DEFAULT_LIMITS.maxUnsentBytes / MB} MiB a socket, ${DEFAULT_LIMITS.maxUnsentBytesTotal / MB} MiB in all); ` +
        `without stalled sockets the same run grows ${one(calmGrowth)} MB (the stored messages and their index); ${one(stalled.seconds)} s to send`,
    },
    {
      name: `slow readers: reading socket's p99 delivery latency with ${STALLED} stalled sockets`,
      unit: 'ms',
      budget: one(latencyBudget),
      measured: one(stalled.p99),
      note:
        `without stalled sockets p99 ${one(calm.p99)} ms (p50 ${one(calm.p50)}); with them p50 ${one(stalled.p50)} ms; ` +
        `budget max(2×, +20 ms) of the calm run; ${SEND_CONCURRENCY} server-side senders back to back, latency from the send request to the frame`,
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// dead clients

async function deadClientRun(limits: Partial<Limits>, observerPingMs: number): Promise<{ seconds: number; watchersAfter: number | undefined }> {
  const server = await HoldsServer.start(limits);
  const sockets: Socket[] = [];
  const stops: Array<() => void> = [];
  try {
    const admin = server.admin();
    await createChannel(admin, 'presence', ['watcher', 'ghost']);
    let offlineAt = 0;
    const observer = await connect(server.url, 'watcher', (frame) => {
      if (frame.type === 'user.presence.changed' && frame.user?.id === 'ghost' && frame.user?.online === false) offlineAt ||= performance.now();
    });
    sockets.push(observer);
    stops.push(keepAlive(observer, observerPingMs));
    await watch(server.url, observer, 'messaging:presence');
    const ghost = await connect(server.url, 'ghost');
    sockets.push(ghost);
    await watch(server.url, ghost, 'messaging:presence');
    const vanished = performance.now();
    pause(ghost);
    const deadline = vanished + 150_000;
    while (!offlineAt && performance.now() < deadline) await sleep(20);
    const [channel] = await admin.queryChannels({ cid: 'messaging:presence' }, {}, { state: true });
    return { seconds: offlineAt ? (offlineAt - vanished) / 1000 : Number.NaN, watchersAfter: channel?.state.watcher_count };
  } finally {
    for (const stop of stops) stop();
    for (const socket of sockets) socket.ws.terminate();
    await server.stop();
  }
}

export async function deadClients(): Promise<BenchRow[]> {
  const short = { idleTimeoutMs: 2_000, pingIntervalMs: 1_000 };
  const quick = await deadClientRun(short, 500);
  const defaults = await deadClientRun({}, 10_000);
  return [
    {
      name: 'dead clients: seconds until a paused socket\'s user is offline (default timeouts)',
      unit: 's',
      budget: 70,
      measured: one(defaults.seconds),
      note:
        `idle ${DEFAULT_LIMITS.idleTimeoutMs / 1000} s, ping every ${DEFAULT_LIMITS.pingIntervalMs / 1000} s (an unanswered ping closes it at the next); ` +
        `watcher_count afterwards ${defaults.watchersAfter} (the observer alone)`,
    },
    {
      name: 'dead clients: the same with IDLE_TIMEOUT=2 PING_INTERVAL=1',
      unit: 's',
      budget: 3,
      measured: Math.round(quick.seconds * 100) / 100,
      note: `a shorter configured run; watcher_count afterwards ${quick.watchersAfter}`,
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// body bomb

type Sent = { status: number; body: string };

/**
 * POSTs `prefix`, `total` bytes of `chunk` repeated and `suffix`, streamed with backpressure;
 * with `declare`, the Content-Length says how long it is. Stops sending when answered.
 */
function postStream(url: string, headers: Record<string, string>, total: number, chunk: Buffer, prefix: Buffer, suffix: Buffer, declare: boolean): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const length = prefix.length + total + suffix.length;
    const req = request(url, { method: 'POST', headers: { ...headers, ...(declare ? { 'content-length': String(length) } : {}) } });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') });
        req.destroy();
      });
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const canWrite = () => !answered && !req.destroyed;
    const flush = () =>
      new Promise<void>((done) => {
        const finish = () => {
          req.off('drain', finish);
          req.off('close', finish);
          done();
        };
        req.on('drain', finish);
        req.on('close', finish);
      });
    void (async () => {
      if (!req.write(prefix)) await flush();
      let sent = 0;
      while (sent < total && canWrite()) {
        const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
        sent += piece.length;
        if (!req.write(piece)) await flush();
      }
      if (canWrite()) req.end(suffix);
    })().catch(() => undefined);
  });
}

export async function bodyBomb(): Promise<BenchRow[]> {
  // `npm start`'s limits: 5 MiB JSON bodies, uploads up to the app's 100 MB size_limit.
  const server = await HoldsServer.start({});
  try {
    const admin = server.admin();
    await createChannel(admin, 'bomb', ['alice']);
    const auth = { authorization: signer.createToken('alice'), 'stream-auth-type': 'jwt' };
    const at = (path: string) => `${server.url}${path}?api_key=${API_KEY}&user_id=alice`;
    const filler = Buffer.alloc(256 * 1024, 'x');

    const json = async (declare: boolean) => {
      const start = await server.reset();
      const sent = await postStream(
        at('/channels/messaging/bomb/message'),
        { ...auth, 'content-type': 'application/json' },
        200 * MB,
        filler,
        Buffer.from('{"message":{"text":"'),
        Buffer.from('"}}'),
        declare,
      );
      await sleep(700);
      const end = await server.memory();
      return { sent, growth: end.peakMb - start.rssMb, code: (JSON.parse(sent.body) as { code?: number }).code };
    };
    const declared = await json(true);
    const streamed = await json(false);

    const boundary = '----holds-bench';
    const uploads = async () => {
      const start = await server.reset();
      const started = performance.now();
      const sent = await Promise.all(
        [0, 1, 2, 3].map((i) =>
          postStream(
            at('/channels/messaging/bomb/file'),
            { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
            90 * MB,
            filler,
            Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big-${i}.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
            Buffer.from(`\r\n--${boundary}--\r\n`),
            false,
          ),
        ),
      );
      const end = await server.memory();
      return { sent, growth: end.peakMb - start.rssMb, endMb: end.rssMb, startMb: start.rssMb, seconds: (performance.now() - started) / 1000 };
    };
    const four = await uploads();
    const stored = four.sent.filter((s) => s.status === 200).length;
    return [
      {
        name: 'body bomb: RSS growth for one 200 MB JSON body',
        unit: 'MB',
        budget: 16,
        measured: one(Math.max(declared.growth, streamed.growth)),
        note:
          `declared Content-Length: ${declared.sent.status} code ${declared.code}, +${one(declared.growth)} MB; ` +
          `streamed without a length: ${streamed.sent.status} code ${streamed.code}, +${one(streamed.growth)} MB (cut off at ${DEFAULT_LIMITS.maxBodyBytes / MB} MiB)`,
      },
      {
        name: 'body bomb: RSS growth for four concurrent 90 MB uploads',
        unit: 'MB',
        budget: 64,
        measured: one(four.growth),
        note: `${stored} of 4 stored (statuses ${four.sent.map((s) => s.status).join(', ')}) in ${one(four.seconds)} s; server RSS ${one(four.startMb)} → peak ${one(four.startMb + four.growth)} → ${one(four.endMb)} MB`,
      },
    ];
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// soak

const SOAK_SOCKETS = 200;
const SOAK_RATE_PER_S = 2;

function soakMinutes(): number {
  const flag = process.argv.find((arg) => arg.startsWith('--soak-minutes='))?.split('=')[1];
  const minutes = Number(flag ?? process.env.SOAK_MINUTES ?? 2);
  return Number.isFinite(minutes) && minutes > 0 ? minutes : 2;
}

export async function soak(): Promise<BenchRow[]> {
  const minutes = soakMinutes();
  // Every limit as `npm start` has it: the sockets ping like the SDK, the sender is server-side.
  const server = await HoldsServer.start({});
  const sockets: Socket[] = [];
  const stops: Array<() => void> = [];
  try {
    const admin = server.admin();
    const ids = Array.from({ length: SOAK_SOCKETS }, (_, i) => `soak-${i}`);
    await createChannel(admin, 'soak', ['soak-sender', ...ids]);
    const received = new Map<string, number>();
    let closedEarly = 0;
    for (const id of ids) {
      const socket = await connect(server.url, id, (frame) => {
        if (frame.type === 'message.new') received.set(id, (received.get(id) ?? 0) + 1);
      });
      void socket.closed.then(() => closedEarly++);
      sockets.push(socket);
      stops.push(keepAlive(socket, 25_000));
      await watch(server.url, socket, 'messaging:soak');
    }
    await sleep(500);
    const start = await server.reset();
    const channel = admin.channel('messaging', 'soak');
    const until = performance.now() + minutes * 60_000;
    let sent = 0;
    let failed = 0;
    const samples: number[] = [];
    while (performance.now() < until) {
      const tick = performance.now();
      await channel.sendMessage({ id: `soak-${sent}`, text: `steady message ${sent}`, user_id: 'soak-sender' } as never).then(
        () => sent++,
        () => failed++,
      );
      if (sent % 20 === 0) samples.push((await server.memory()).rssMb);
      await sleep(Math.max(0, 1000 / SOAK_RATE_PER_S - (performance.now() - tick)));
    }
    await sleep(2_000);
    const end = await server.memory();
    const delivered = [...received.values()].reduce((sum, n) => sum + n, 0);
    const expected = sent * SOAK_SOCKETS;
    return [
      {
        name: `soak: deliveries lost, ${SOAK_SOCKETS} sockets for ${minutes} min at ${SOAK_RATE_PER_S} messages/s`,
        unit: 'messages',
        budget: 0,
        measured: expected - delivered,
        note:
          `${delivered} of ${expected} deliveries (${sent} messages, ${failed} sends failed); ${closedEarly} sockets closed by the server; ` +
          `server RSS start ${one(start.rssMb)}, peak ${one(end.peakMb)}, end ${one(end.rssMb)} MB (median of samples ${one(median(samples))}); default limits; longer with SOAK_MINUTES or --soak-minutes=N`,
      },
    ];
  } finally {
    for (const stop of stops) stop();
    for (const socket of sockets) socket.ws.terminate();
    await server.stop();
  }
}

/** How long the soak may take in all (run.ts's per-benchmark timeout). */
export function soakTimeoutMs(): number {
  return (soakMinutes() + 4) * 60_000;
}
