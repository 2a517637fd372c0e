// Backend fan-out: N WebSocket clients watch one channel while a few senders post to it.
//
// The backend runs in a child process (fanout-server.ts); the watchers in a few others
// (fanout-watchers.ts, each reading its share of the sockets, as separate machines would), the
// senders here. Watchers are raw `ws` sockets doing the SDK's real handshake
// (`/connect?json=…`, first frame health.check with the connection_id) and then watching the
// channel with `POST /channels/messaging/<id>/query` (watch, state), as the SDK's
// channel.watch() does; real SDK clients would cost the watcher processes far more than the
// server at 1,000. Users are upserted and the channel created with every watcher and sender as
// a member by a server-side `stream-chat` client. Senders post over REST with their own user
// tokens. Times are read on the system's monotonic clock, which every process shares (`now`).
//
// For each N (a fresh backend each time), and beside it the floor (a bare `ws` server sending
// the same frame to the same N, fanout-floor-server.ts), both up at once: a warm-up of a few
// messages each; then latency at a steady 10 messages a second, from the sender's request to
// each watcher's `message.new` frame (p50, p99 over every delivery of a round, and each
// message's first frame, which is the fixed cost before the writes; the median of five
// rounds); then throughput, the senders posting back to back (each waits only for its own
// HTTP response) in five short bursts, messages per second until the last watcher has the last
// message (median of the bursts), and the server's CPU time per message during the bursts,
// which is how the cost grows with N. Ours' rounds and bursts alternate with the floor's, so the
// CPU ratio is taken within each pair. Every loop is bounded in count and in time.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { StreamChat } from 'stream-chat';
import WebSocket from 'ws';
import { API_KEY, API_SECRET } from './backend';
import { whenListening } from './backend-process';
import { median, percentile, spread } from './stats';
import type { BenchRow } from './types';

/** `--fanout-sizes=1000` (or 100,1000) measures only those. */
const SIZES = (process.argv.find((arg) => arg.startsWith('--fanout-sizes='))?.split('=')[1]?.split(',').map(Number) ?? [10, 100, 500, 1000]).filter((n) => n > 0);
const SENDERS = 4;
const WARMUP_MESSAGES = 8;
/** Paired rounds (ours and the floor's in turn): a round's p99 is set by its slowest message or two, so one bad round must not decide the median. */
const LATENCY_ROUNDS = 5;
const LATENCY_MESSAGES = 30;
/** After connecting, wait until no frame has arrived for this long (setup events drained). */
const QUIET_MS = 300;
/** One message every 100 ms across all senders: 10 messages a second. */
const PACE_MS = 100;
/** Bursts of each side, ours and the floor's in pairs (at least five paired runs). */
const BURSTS = 5;
const BURST_MS = 1500;
const BURST_MAX_MESSAGES = 400;
const DRAIN_TIMEOUT_MS = 15_000;
const SETUP_CONCURRENCY = 50;
const SETUP_TIMEOUT_MS = 60_000;
const BUDGET_P99_MS = 50;
const BUDGET_AT = 500;
/** Budget: at 1,000 watchers, CPU per delivered frame within 1.25x the bare socket's, and p99 within 15 ms. */
const FLOOR_BUDGET_AT = 1000;
const FLOOR_BUDGET_RATIO = 1.25;
const BUDGET_P99_AT_1000_MS = 15;

const signer = new StreamChat(API_KEY, API_SECRET);
const tokens = new Map<string, string>();
/**
 * A user's token, signed once: as a real client holds its token, signing is no part of a
 * delivery (jsonwebtoken took 0.5–1 ms of this process per request, inside the measured latency).
 */
function tokenFor(userId: string): string {
  let token = tokens.get(userId);
  if (token === undefined) tokens.set(userId, (token = signer.createToken(userId)));
  return token;
}

/** The backend child process. */
export class ServerProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  /** The backend (fanout-server.ts), or the bare `ws` floor (fanout-floor-server.ts). */
  static start(script = './fanout-server.ts'): Promise<ServerProcess> {
    const child = fork(fileURLToPath(new URL(script, import.meta.url)), [], {
      // FANOUT_CPU_PROF=dir writes each server's V8 CPU profile there (for a trace of the fan-out).
      execArgv: [...process.execArgv, ...(process.env.FANOUT_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.FANOUT_CPU_PROF}`] : [])],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    return whenListening(child).then((url) => new ServerProcess(child, url));
  }

  /** CPU time (user + system) the backend has used so far, ms. */
  cpuMs(): Promise<number> {
    return this.ask('cpu');
  }

  /** The backend's resident set size now, bytes (fanout-server.ts answers `rss`). */
  rssBytes(): Promise<number> {
    return this.ask('rss');
  }

  private ask(type: string): Promise<number> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.child.off('message', onMessage);
        resolve(Number.NaN);
      }, 5_000);
      // `cpu` answers in `ms`, `rss` in `value`.
      const onMessage = (message: { type: string; value?: number; ms?: number }) => {
        if (message.type !== type) return;
        clearTimeout(timer);
        this.child.off('message', onMessage);
        resolve(message.value ?? message.ms ?? Number.NaN);
      };
      this.child.on('message', onMessage);
      this.child.send({ type });
    });
  }

  /** The floor's frame: `placeholder` is replaced by each message's id. */
  setFrame(template: string, placeholder: string): Promise<void> {
    return new Promise((resolve) => {
      const onMessage = (message: { type: string }) => {
        if (message.type !== 'frame-set') return;
        this.child.off('message', onMessage);
        resolve();
      };
      this.child.on('message', onMessage);
      this.child.send({ type: 'frame', template, placeholder });
    });
  }

  stop(): Promise<void> {
    if (this.child.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
      this.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.child.send({ type: 'stop' });
    });
  }
}

/**
 * The clock every process of the benchmark reads (the system's monotonic clock, in ms), so a
 * frame's arrival in a watcher process can be set against its sending here.
 */
export const now = () => Number(process.hrtime.bigint()) / 1e6;

/** Where a watcher's socket reports each message.new it receives. */
export type Receiver = { receive(id: string, at: number, frame: Buffer): void };

/** Every message in flight: when it was sent and how many watchers still wait for it. */
export class Deliveries implements Receiver {
  private pending = new Map<string, { sentAt: number; remaining: number; first: number; done: () => void }>();
  latencies: number[] = [];
  /** Per message, its first frame's latency (the server's work before its first write, and the wire). */
  firsts: number[] = [];
  recording = false;
  delivered = 0;
  lastAt = 0;

  constructor(private readonly watchers: number) {}

  /** Call just before sending; resolves when every watcher has the message. */
  expect(id: string, sentAt: number): Promise<void> {
    return new Promise((done) => this.pending.set(id, { sentAt, remaining: this.watchers, first: Number.POSITIVE_INFINITY, done }));
  }

  receive(id: string, at: number) {
    this.receiveMany(id, [at]);
  }

  /** Arrivals of one message at several watchers (a watcher process reports its share at once). */
  receiveMany(id: string, times: number[]) {
    const entry = this.pending.get(id);
    if (!entry) return;
    for (const at of times) {
      if (this.recording) this.latencies.push(at - entry.sentAt);
      if (at > this.lastAt) this.lastAt = at;
      if (at < entry.first) entry.first = at;
    }
    this.delivered += times.length;
    entry.remaining -= times.length;
    if (entry.remaining <= 0) {
      if (this.recording) this.firsts.push(entry.first - entry.sentAt);
      this.pending.delete(id);
      entry.done();
    }
  }

  /** Forgets what never arrived (after a timeout), so a late frame does not count. */
  clear() {
    this.pending.clear();
  }
}

const MESSAGE_ID = Buffer.from('"message_id":"');
/** When any watcher of this process last received any frame (`now`). */
let lastFrameAt = 0;
export const lastFrame = () => lastFrameAt;

/** Counts each message.new frame the socket receives, reading its message_id without parsing the JSON. */
function countMessages(socket: WebSocket, deliveries: { current: Receiver | undefined }) {
  socket.on('message', (frame: Buffer) => {
    const at = now();
    lastFrameAt = at;
    if (!frame.toString('latin1', 0, 40).includes('"type":"message.new"')) return;
    const start = frame.indexOf(MESSAGE_ID);
    if (start < 0) return;
    const from = start + MESSAGE_ID.length;
    deliveries.current?.receive(frame.toString('latin1', from, frame.indexOf(34, from)), at, frame);
  });
}

/** A watcher: a raw socket after the SDK's handshake. Resolves with its connection_id. */
export function connectWatcher(wsBase: string, userId: string, deliveries: { current: Receiver | undefined }): Promise<{ socket: WebSocket; connectionId: string }> {
  const json = JSON.stringify({ user_id: userId, user_details: { id: userId, name: `Watcher ${userId}` } });
  const token = tokenFor(userId);
  const url = `${wsBase}/connect?json=${encodeURIComponent(json)}&api_key=${API_KEY}&authorization=${token}&stream-auth-type=jwt`;
  const socket = new WebSocket(url, { perMessageDeflate: false });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('message', (data: Buffer) => {
      const first = JSON.parse(data.toString('utf8')) as { type: string; connection_id?: string };
      if (first.type !== 'health.check' || !first.connection_id) {
        reject(new Error(`handshake for ${userId} failed: ${data.toString('utf8').slice(0, 200)}`));
        return;
      }
      countMessages(socket, deliveries);
      resolve({ socket, connectionId: first.connection_id });
    });
  });
}

/** A socket of the floor's: open, nothing else. */
export function connectBare(wsBase: string, deliveries: { current: Receiver | undefined }): Promise<WebSocket> {
  const socket = new WebSocket(wsBase, { perMessageDeflate: false });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('open', () => {
      countMessages(socket, deliveries);
      resolve(socket);
    });
  });
}

/** How many processes read the watchers' sockets (fanout-watchers.ts), each its share. */
const WATCHER_PROCESSES = 2;
/** The first message.new frame a watcher received, whole: the floor sends the same. */
let capturedFrame: { frame: string; messageId: string } | undefined;

/** The watchers of one server, read by WATCHER_PROCESSES child processes. */
class WatcherProcesses {
  private constructor(
    private readonly children: ChildProcess[],
    /** Where every arrival goes. */
    readonly deliveries: Deliveries,
  ) {
    for (const child of children) {
      child.on('message', (message: { type: string; id?: string; times?: number[]; frame?: string; messageId?: string }) => {
        if (message.type === 'got' && message.id && message.times) deliveries.receiveMany(message.id, message.times);
        else if (message.type === 'captured' && message.frame && message.messageId) capturedFrame ??= { frame: message.frame, messageId: message.messageId };
      });
    }
  }

  static async start(deliveries: Deliveries): Promise<WatcherProcesses> {
    const children = Array.from({ length: WATCHER_PROCESSES }, () =>
      fork(fileURLToPath(new URL('./fanout-watchers.ts', import.meta.url)), [], { execArgv: process.execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }),
    );
    await Promise.all(children.map((child) => answer(child, 'ready', 30_000)));
    return new WatcherProcesses(children, deliveries);
  }

  /** Our watchers: the user ids shared out among the processes, each connecting and watching. */
  async connectOurs(wsBase: string, httpBase: string, channelId: string, userIds: string[]): Promise<void> {
    const per = Math.ceil(userIds.length / this.children.length);
    await this.connect((child, i) => child.send({ type: 'ours', wsBase, httpBase, channelId, userIds: userIds.slice(i * per, (i + 1) * per), concurrency: Math.ceil(SETUP_CONCURRENCY / this.children.length) }));
  }

  /** The floor's `n` bare sockets, shared out the same way. */
  async connectFloor(wsBase: string, n: number): Promise<void> {
    const per = Math.ceil(n / this.children.length);
    await this.connect((child, i) => child.send({ type: 'floor', wsBase, count: Math.max(0, Math.min(per, n - i * per)), concurrency: Math.ceil(SETUP_CONCURRENCY / this.children.length) }));
  }

  private async connect(order: (child: ChildProcess, index: number) => void): Promise<void> {
    const answers = this.children.map((child) => answer(child, 'connected', SETUP_TIMEOUT_MS));
    this.children.forEach(order);
    await Promise.all(answers);
  }

  /** When any of the watchers last received a frame (`now`). */
  async lastFrameAt(): Promise<number> {
    const answers = this.children.map((child) => answer(child, 'last', 5_000));
    for (const child of this.children) child.send({ type: 'last' });
    return Math.max(...(await Promise.all(answers)).map((message) => Number(message.at)));
  }

  /** Forgets what never arrived (after a timeout), here and in every process. */
  clear() {
    this.deliveries.clear();
    for (const child of this.children) if (child.connected) child.send({ type: 'clear' });
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            if (child.connected) child.send({ type: 'stop' });
            else child.kill();
          }),
      ),
    );
  }
}

/** The child's next message of `type` (a `failed` one, its exit or silence rejects). */
function answer(child: ChildProcess, type: string, timeoutMs: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error, message?: Record<string, unknown>) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(message ?? {});
    };
    const timer = setTimeout(() => done(new Error(`a watcher process gave no '${type}' within ${timeoutMs / 1000} s`)), timeoutMs);
    const onMessage = (message: Record<string, unknown>) => {
      if (message.type === type) done(undefined, message);
      else if (message.type === 'failed') done(new Error(String(message.message)));
    };
    const onExit = (code: number | null) => done(new Error(`a watcher process exited with ${code}`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Runs `task` for every item, at most `limit` at a time. */
export async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await task(items[next++] as T);
    }),
  );
}

export async function api(base: string, path: string, userId: string, body: unknown, connectionId?: string) {
  const query = new URLSearchParams({ api_key: API_KEY, user_id: userId, ...(connectionId ? { connection_id: connectionId } : {}) });
  const response = await fetch(`${base}${path}?${query}`, {
    method: 'POST',
    headers: { authorization: tokenFor(userId), 'stream-auth-type': 'jwt', 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  if (!response.ok) throw new Error(`${path} as ${userId}: ${response.status} ${(await response.text()).slice(0, 200)}`);
  await response.arrayBuffer();
}

type Measured = {
  p50: number;
  p99: number;
  p99s: number[];
  /** The median over rounds of the median message's first frame. */
  first: number;
  latencySamples: number;
  messagesPerSecond: number;
  deliveriesPerSecond: number;
  serverCpuPerMessageMs: number;
  /** Each burst's CPU per message, in the order run (paired with the floor's). */
  cpuPerMessageMs: number[];
};
type Result = Measured & { n: number; setupMs: number; floor?: Measured; floorError?: string };

const deadline = (label: string, ms: number) =>
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${label} took over ${ms / 1000} s`)), ms).unref());

/** One server under measurement (ours or the floor) with its N watchers connected. */
type Target = {
  label: string;
  n: number;
  server: ServerProcess;
  watchers: WatcherProcesses;
  deliveries: Deliveries;
  senderIds: string[];
  /** Posts one message with the given id; resolves when its HTTP response is in. */
  post: (sender: string, id: string) => Promise<void>;
  sequence: number;
};

type Round = { p50: number; p99: number; first: number; samples: number };
type Burst = { perSecond: number; deliveriesPerSecond: number; cpuPerMessage: number };

/** Resolves when the HTTP response is in, with a promise of the last delivery (wrapped: an async function would otherwise wait for it). */
async function sendOne(target: Target, sender: string): Promise<{ delivered: Promise<void> }> {
  const id = `${target.label}-${target.n}-${target.sequence++}`;
  const delivered = target.deliveries.expect(id, now());
  await target.post(sender, id);
  return { delivered };
}

const drain = (all: Promise<void>[], what: string) => Promise.race([Promise.all(all), deadline(what, DRAIN_TIMEOUT_MS)]);

/** Waits until no frame has arrived for a while (a setup's own events, user.watching.start to every watcher, …). */
async function quiet(target: Target) {
  const quietBy = now() + SETUP_TIMEOUT_MS;
  while (now() - (await target.watchers.lastFrameAt()) < QUIET_MS && now() < quietBy) await new Promise((resolve) => setTimeout(resolve, 50));
}

async function warmUp(target: Target) {
  await quiet(target);
  for (let i = 0; i < WARMUP_MESSAGES; i++) await drain([(await sendOne(target, target.senderIds[i % SENDERS] as string)).delivered], 'warm-up');
}

/** Latency at a steady pace (sends are not awaited: the pace holds): the round's p50 and p99. */
async function latencyRound(target: Target): Promise<Round> {
  const { deliveries } = target;
  deliveries.latencies = [];
  deliveries.firsts = [];
  deliveries.recording = true;
  const paced: Promise<void>[] = [];
  const pacedStarted = now();
  for (let i = 0; i < LATENCY_MESSAGES; i++) {
    const due = pacedStarted + i * PACE_MS;
    const wait = due - now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    paced.push(sendOne(target, target.senderIds[i % SENDERS] as string).then(({ delivered }) => delivered));
  }
  await drain(paced, 'paced messages');
  deliveries.recording = false;
  return { p50: percentile(deliveries.latencies, 50), p99: percentile(deliveries.latencies, 99), first: median(deliveries.firsts), samples: deliveries.latencies.length };
}

/** Throughput: senders back to back for a short burst, then the last delivery; with the server's CPU time. */
async function burst(target: Target): Promise<Burst> {
  const { deliveries, server } = target;
  const cpuBefore = await server.cpuMs();
  const started = now();
  const deliveredBefore = deliveries.delivered;
  const all: Promise<void>[] = [];
  let sent = 0;
  await Promise.all(
    target.senderIds.map(async (sender) => {
      while (now() - started < BURST_MS && sent < BURST_MAX_MESSAGES) {
        sent++;
        all.push((await sendOne(target, sender)).delivered);
      }
    }),
  );
  await drain(all, `burst of ${sent}`);
  const seconds = (deliveries.lastAt - started) / 1000;
  const cpu = (await server.cpuMs()) - cpuBefore;
  return { perSecond: sent / seconds, deliveriesPerSecond: (deliveries.delivered - deliveredBefore) / seconds, cpuPerMessage: cpu / sent };
}

function summarize(rounds: Round[], bursts: Burst[]): Measured {
  return {
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    p99s: rounds.map((r) => r.p99),
    first: median(rounds.map((r) => r.first)),
    latencySamples: rounds.reduce((sum, r) => sum + r.samples, 0),
    messagesPerSecond: median(bursts.map((b) => b.perSecond)),
    deliveriesPerSecond: median(bursts.map((b) => b.deliveriesPerSecond)),
    serverCpuPerMessageMs: median(bursts.map((b) => b.cpuPerMessage)),
    cpuPerMessageMs: bursts.map((b) => b.cpuPerMessage),
  };
}

/** The backend: N watchers after the SDK's handshake and watch, senders posting over REST. */
async function startOurs(n: number, targets: Target[]): Promise<Target> {
  const deliveries = new Deliveries(n);
  const [server, watchers] = await Promise.all([ServerProcess.start(), WatcherProcesses.start(deliveries)]);
  const channelId = `fanout-${n}`;
  const senderIds = Array.from({ length: SENDERS }, (_, i) => `s${i}`);
  const post = (sender: string, id: string) => api(server.url, `/channels/messaging/${channelId}/message`, sender, { message: { id, text: `fan-out ${id}` } });
  const target: Target = { label: 'fan', n, server, watchers, deliveries, senderIds, post, sequence: 0 };
  targets.push(target);
  const watcherIds = Array.from({ length: n }, (_, i) => `w${i}`);
  const admin = new StreamChat(API_KEY, API_SECRET, { baseURL: server.url, timeout: 30_000 });
  for (let i = 0; i < watcherIds.length + SENDERS; i += 100) {
    await admin.upsertUsers([...watcherIds, ...senderIds].slice(i, i + 100).map((id) => ({ id, name: id })));
  }
  await admin.channel('messaging', channelId, { members: [...senderIds, ...watcherIds], created_by_id: 's0' } as never).create();
  await watchers.connectOurs(server.url.replace(/^http/, 'ws'), server.url, channelId, watcherIds);
  return target;
}

/** The floor: the same N and senders against a bare `ws` server sending the backend's frame. */
async function startFloor(n: number, frame: { frame: string; messageId: string }, targets: Target[]): Promise<Target> {
  const deliveries = new Deliveries(n);
  const [server, watchers] = await Promise.all([ServerProcess.start('./fanout-floor-server.ts'), WatcherProcesses.start(deliveries)]);
  const post = async (_sender: string, id: string) => {
    const response = await fetch(`${server.url}/send?id=${encodeURIComponent(id)}`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(30_000) });
    await response.arrayBuffer();
  };
  const target: Target = { label: 'floor', n, server, watchers, deliveries, senderIds: Array.from({ length: SENDERS }, (_, i) => `s${i}`), post, sequence: 0 };
  targets.push(target);
  await server.setFrame(frame.frame, frame.messageId);
  await watchers.connectFloor(server.url.replace(/^http/, 'ws'), n);
  return target;
}

/**
 * Ours and the floor for one N, both up at once and measured in turns: each latency round and
 * each burst of ours beside one of the floor's, in alternating order (ours first, then the floor
 * first, …), so a change in the machine's load falls on both sides of a pair. The floor sends
 * the frame ours sent in the warm-up.
 */
async function runSize(n: number): Promise<Result> {
  const setupStarted = now();
  const targets: Target[] = [];
  capturedFrame = undefined;
  try {
    const ours = await startOurs(n, targets);
    const setupMs = now() - setupStarted;
    await warmUp(ours);
    let floor: Target | undefined;
    let floorError: string | undefined;
    try {
      if (!capturedFrame) throw new Error('no message.new frame was captured for the floor');
      floor = await startFloor(n, capturedFrame, targets);
      await warmUp(floor);
    } catch (error) {
      floor = undefined;
      floorError = `floor failed: ${(error as Error).message}`;
    }
    // Ours' first round, the first of all, would otherwise come straight after the floor's setup
    // (N sockets connected, the watcher processes' collections after it): in two runs it was
    // ours' worst round (27 and 22 ms against 15-18). The floor's first round follows ours'.
    if (floor) await warmUp(ours);
    // Runs `step` on ours and the floor, in turn; a failure of the floor's drops the floor.
    const inTurn = async <T>(turn: number, step: (target: Target) => Promise<T>, into: { ours: T[]; floor: T[] }) => {
      const order = floor && turn % 2 === 1 ? [floor, ours] : [ours, floor];
      for (const target of order) {
        if (!target) continue;
        if (target === ours) {
          into.ours.push(await step(ours));
          continue;
        }
        try {
          into.floor.push(await step(target));
        } catch (error) {
          floor = undefined;
          floorError = `floor failed: ${(error as Error).message}`;
        }
      }
    };
    const rounds = { ours: [] as Round[], floor: [] as Round[] };
    for (let turn = 0; turn < LATENCY_ROUNDS; turn++) await inTurn(turn, latencyRound, rounds);
    const bursts = { ours: [] as Burst[], floor: [] as Burst[] };
    for (let turn = 0; turn < BURSTS; turn++) await inTurn(turn, burst, bursts);
    const floorMeasured = floor && bursts.floor.length === BURSTS ? summarize(rounds.floor, bursts.floor) : undefined;
    return { n, setupMs, ...summarize(rounds.ours, bursts.ours), ...(floorMeasured ? { floor: floorMeasured } : { floorError: floorError ?? 'floor failed' }) };
  } finally {
    for (const target of targets) target.watchers.clear();
    await Promise.all(targets.flatMap((target) => [target.server.stop(), target.watchers.stop()]));
  }
}

export default async function fanout(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const results: Result[] = [];
  for (const n of SIZES) {
    try {
      const result = await runSize(n);
      results.push(result);
      const ms = (x: number) => Math.round(x * 100) / 100;
      const { floor } = result;
      rows.push(
        {
          name: `fan-out N=${n}: delivery latency p50`,
          unit: 'ms',
          measured: ms(result.p50),
          ...(floor ? { peer: ms(floor.p50) } : {}),
          note: `median of ${LATENCY_ROUNDS} rounds of ${LATENCY_MESSAGES} messages at 10 msg/s from ${SENDERS} senders after ${WARMUP_MESSAGES} warm-up (${result.latencySamples} deliveries); watchers read by ${WATCHER_PROCESSES} processes${floor ? '; peer: the bare ws floor, its rounds alternating with ours' : ''}`,
        },
        {
          name: `fan-out N=${n}: delivery latency p99`,
          unit: 'ms',
          measured: ms(result.p99),
          ...(floor ? { peer: ms(floor.p99) } : {}),
          ...(n === BUDGET_AT ? { budget: BUDGET_P99_MS } : n === FLOOR_BUDGET_AT ? { budget: BUDGET_P99_AT_1000_MS } : {}),
          note: `sender request start → message.new frame at each watcher; rounds: ${result.p99s.map((x) => ms(x)).join(', ')} ms${floor ? `; floor's rounds: ${floor.p99s.map((x) => ms(x)).join(', ')} ms` : ''}`,
        },
        {
          name: `fan-out N=${n}: first frame of a message (median)`,
          unit: 'ms',
          measured: ms(result.first),
          ...(floor ? { peer: ms(floor.first) } : {}),
          note: `sender request start → the first watcher's frame, the median message of each round, median of the rounds: the fixed cost of a send before its writes (HTTP, checks, storage, the event) and the wire${floor ? `; the floor's only parses the request` : ''}`,
        },
        {
          name: `fan-out N=${n}: messages per second`,
          unit: 'msg/s',
          measured: Math.round(result.messagesPerSecond),
          note: `${SENDERS} senders back to back until every watcher has them, median of ${BURSTS} bursts; ${Math.round(result.deliveriesPerSecond)} deliveries/s`,
        },
        {
          name: `fan-out N=${n}: backend CPU per message`,
          unit: 'ms',
          measured: ms(result.serverCpuPerMessageMs),
          note: `setup (connect and watch) ${Math.round(result.setupMs / 100) / 10} s`,
        },
      );
      // The floor in the same run: a bare `ws` server sending the same frame to the same N.
      const perFrame = (cpuPerMessageMs: number) => Math.round(((cpuPerMessageMs * 1000) / n) * 10) / 10;
      if (!floor) {
        rows.push({ name: `fan-out N=${n}: backend CPU per delivered frame (peer: bare ws floor)`, unit: 'µs', measured: perFrame(result.serverCpuPerMessageMs), note: result.floorError ?? '' });
        continue;
      }
      const ratios = result.cpuPerMessageMs.map((cpu, i) => cpu / (floor.cpuPerMessageMs[i] as number));
      rows.push({
        name: `fan-out N=${n}: backend CPU per delivered frame (peer: bare ws floor)`,
        unit: 'µs',
        measured: perFrame(result.serverCpuPerMessageMs),
        peer: perFrame(floor.serverCpuPerMessageMs),
        note: `CPU per message / N, all of the backend's work included, median of ${BURSTS} bursts (spread ${spread(result.cpuPerMessageMs.map(perFrame))}); floor: the same ${Buffer.byteLength(capturedFrame!.frame)}-byte frame encoded once per message and written to N sockets by a bare ws server posted to over HTTP, same senders, its bursts alternating with ours (spread ${spread(floor.cpuPerMessageMs.map(perFrame))})`,
      });
      if (n === FLOOR_BUDGET_AT) {
        rows.push({
          name: `fan-out N=${n}: CPU per delivered frame against the floor`,
          unit: 'x',
          measured: Math.round(median(ratios) * 100) / 100,
          budget: FLOOR_BUDGET_RATIO,
          note: `median of the ${BURSTS} per-pair ratios (ours' burst beside the floor's; spread ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}; in order ${ratios.map((ratio) => ratio.toFixed(2)).join(', ')})`,
        });
      }
    } catch (error) {
      rows.push({ name: `fan-out N=${n}`, unit: '', measured: Number.NaN, note: `failed: ${(error as Error).message}` });
    }
  }
  // How the cost grows: backend CPU per message against N, fitted to a + b·N.
  if (results.length >= 2) {
    const fit = leastSquares(results.map((r) => [r.n, r.serverCpuPerMessageMs] as [number, number]));
    const first = results[0] as Result;
    const last = results.at(-1) as Result;
    rows.push({
      name: 'fan-out: backend CPU per message per watcher (growth with N)',
      unit: 'µs',
      measured: Math.round(fit.slope * 1000 * 10) / 10,
      note: `CPU per message ≈ ${Math.round(fit.intercept * 100) / 100} ms + ${Math.round(fit.slope * 1000 * 10) / 10} µs × N (least squares over N = ${results.map((r) => r.n).join(', ')}; R² ${fit.r2.toFixed(3)}): linear in N; p99 ${Math.round(first.p99 * 10) / 10} ms at N=${first.n} → ${Math.round(last.p99 * 10) / 10} ms at N=${last.n}`,
    });
  }
  return rows;
}

/** y = intercept + slope·x by least squares, with the fit's R². */
function leastSquares(points: Array<[number, number]>): { slope: number; intercept: number; r2: number } {
  const n = points.length;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  const sxy = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const sxx = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  const slope = sxy / sxx;
  const intercept = meanY - slope * meanX;
  const ssTotal = points.reduce((sum, [, y]) => sum + (y - meanY) ** 2, 0);
  const ssResidual = points.reduce((sum, [x, y]) => sum + (y - intercept - slope * x) ** 2, 0);
  return { slope, intercept, r2: ssTotal ? 1 - ssResidual / ssTotal : 1 };
}
