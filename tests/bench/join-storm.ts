// Join storm: N sockets joining one N-member channel at once, as after a
// restart when every client comes back within the SDK's backoff cap. Each does the SDK's
// handshake (`/connect`, the health.check with its connection_id) and the watch
// (`POST /channels/messaging/<id>/query` with watch and state), as fan-out's watchers do; the
// backend runs in a child process of its own (fanout-server.ts).
//
// Measured: seconds from the first connect until every socket watches; the backend's peak RSS
// during the storm (sampled every 250 ms); and the delivery of a steady stream of messages (10 a
// second from one sender to one watcher who joined before the storm), p50 and p99 from the
// sender's request to that watcher's frame, so a storm that starves the channel shows.
import type WebSocket from 'ws';
import { StreamChat } from 'stream-chat';
import { API_KEY, API_SECRET } from './backend';
import { api, connectWatcher, Deliveries, now, pool, ServerProcess } from './fanout';
import { percentile } from './stats';
import type { BenchRow } from './types';

/** `--storm-sizes=1000,5000`. */
const SIZES = (process.argv.find((arg) => arg.startsWith('--storm-sizes='))?.split('=')[1]?.split(',').map(Number) ?? [1000, 5000]).filter((n) => n > 0);
/** Clients connecting at a time: enough to keep the backend busy, few enough for one client process. */
const CONCURRENCY = 100;
const PACE_MS = 100;
const STORM_TIMEOUT_MS = 240_000;
const BUDGET_SECONDS_AT_5000 = 30;

type Result = { n: number; seconds: number; peakRssMb: number; rssBeforeMb: number; p50: number; p99: number; delivered: number; sent: number };

async function storm(n: number): Promise<Result> {
  const server = await ServerProcess.start();
  const sockets: WebSocket[] = [];
  const observer: { current: Deliveries | undefined } = { current: undefined };
  const none: { current: Deliveries | undefined } = { current: undefined };
  let streaming = true;
  try {
    const channelId = `storm-${n}`;
    const joiners = Array.from({ length: n }, (_, i) => `j${i}`);
    const admin = new StreamChat(API_KEY, API_SECRET, { baseURL: server.url, timeout: 60_000 });
    const everyone = [...joiners, 'sender', 'observer'];
    for (let i = 0; i < everyone.length; i += 100) await admin.upsertUsers(everyone.slice(i, i + 100).map((id) => ({ id, name: id })));
    await admin.channel('messaging', channelId, { members: everyone, created_by_id: 'sender' } as never).create();

    // The observer watches first; the sender streams through the storm.
    const deliveries = new Deliveries(1);
    observer.current = deliveries;
    deliveries.recording = true;
    const wsBase = server.url.replace(/^http/, 'ws');
    const watched = await connectWatcher(wsBase, 'observer', observer);
    sockets.push(watched.socket);
    await api(server.url, `/channels/messaging/${channelId}/query`, 'observer', { watch: true, state: true }, watched.connectionId);
    let sent = 0;
    const stream = (async () => {
      while (streaming) {
        const id = `storm-${n}-${sent++}`;
        void deliveries.expect(id, now());
        await api(server.url, `/channels/messaging/${channelId}/message`, 'sender', { message: { id, text: `during the storm ${id}` } }).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, PACE_MS));
      }
    })();

    const rssBefore = await server.rssBytes();
    let peakRss = rssBefore;
    const sampler = setInterval(() => void server.rssBytes().then((rss) => (peakRss = Math.max(peakRss, rss))), 250);
    const started = performance.now();
    try {
      await Promise.race([
        pool(joiners, CONCURRENCY, async (userId) => {
          const { socket, connectionId } = await connectWatcher(wsBase, userId, none);
          sockets.push(socket);
          await api(server.url, `/channels/messaging/${channelId}/query`, userId, { watch: true, state: true }, connectionId);
        }),
        new Promise((_, reject) => setTimeout(() => reject(new Error(`the storm took over ${STORM_TIMEOUT_MS / 1000} s`)), STORM_TIMEOUT_MS).unref()),
      ]);
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - started) / 1000;
    peakRss = Math.max(peakRss, await server.rssBytes());
    streaming = false;
    await stream;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
    return {
      n,
      seconds,
      peakRssMb: mb(peakRss),
      rssBeforeMb: mb(rssBefore),
      p50: percentile(deliveries.latencies, 50),
      p99: percentile(deliveries.latencies, 99),
      delivered: deliveries.latencies.length,
      sent,
    };
  } finally {
    streaming = false;
    observer.current?.clear();
    await server.stop();
    for (const socket of sockets) socket.terminate();
  }
}

export default async function joinStorm(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const n of SIZES) {
    try {
      const r = await storm(n);
      const ms = (x: number) => Math.round(x * 10) / 10;
      rows.push(
        {
          name: `join storm N=${n}: until every socket watches`,
          unit: 's',
          measured: Math.round(r.seconds * 10) / 10,
          ...(n === 5000 ? { budget: BUDGET_SECONDS_AT_5000 } : {}),
          note: `${n} sockets (handshake and watch, ${CONCURRENCY} at a time) joining one ${n + 2}-member channel; ${Math.round(n / r.seconds)} joins/s`,
        },
        {
          name: `join storm N=${n}: backend peak RSS`,
          unit: 'MB',
          measured: r.peakRssMb,
          note: `${r.rssBeforeMb} MB before the storm; MB here is 1,048,576 bytes`,
        },
        {
          name: `join storm N=${n}: message delivery during the storm, p99`,
          unit: 'ms',
          measured: ms(r.p99),
          note: `p50 ${ms(r.p50)} ms; ${r.delivered} of ${r.sent} messages (10 a second) reached a watcher who joined before the storm`,
        },
      );
    } catch (error) {
      rows.push({ name: `join storm N=${n}`, unit: '', measured: Number.NaN, note: `failed: ${(error as Error).message}` });
    }
  }
  return rows;
}
