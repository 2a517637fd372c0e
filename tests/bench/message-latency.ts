// Message latency through the local backend: the time from one real SDK client's sendMessage
// call to the other client's message.new, for 1,000 sequential messages. Localhost only; the
// backend runs in-process on a random port with in-memory storage and stops by itself.
import { StreamChat, type Event } from 'stream-chat';
import { startServer } from '../../src/server/index';
import { BENCH_LIMITS } from './backend';
import type { BenchRow } from './types';

const API_KEY = 'bench-key';
const API_SECRET = 'bench-secret';
const WARMUP = 50;
const MESSAGES = 1000;
// Generous for a shared 2-core machine: locally the median is ~1.5 ms and p99 under 10 ms.
const BUDGET_MEDIAN_MS = 15;
const BUDGET_P99_MS = 50;

export default async function messageLatency(): Promise<BenchRow[]> {
  const server = await startServer({ port: 0, dbPath: ':memory:', apiKey: API_KEY, apiSecret: API_SECRET, quiet: true, limits: BENCH_LIMITS });
  const signer = new StreamChat(API_KEY, API_SECRET);
  const sender = new StreamChat(API_KEY, { baseURL: server.url, allowServerSideConnect: true });
  const receiver = new StreamChat(API_KEY, { baseURL: server.url, allowServerSideConnect: true });
  try {
    await receiver.connectUser({ id: 'bench-receiver' }, signer.createToken('bench-receiver'));
    await sender.connectUser({ id: 'bench-sender' }, signer.createToken('bench-sender'));
    const outgoing = sender.channel('messaging', 'bench', { members: ['bench-sender', 'bench-receiver'] });
    await outgoing.watch();
    const incoming = receiver.channel('messaging', 'bench');
    await incoming.watch();

    // Arrival times by message id; the sender stamps each id just before calling sendMessage.
    const waiting = new Map<string, (at: number) => void>();
    incoming.on('message.new', (event: Event) => {
      const id = event.message?.id;
      if (id) waiting.get(id)?.(performance.now());
    });
    const roundTrip = async (id: string): Promise<number> => {
      const arrived = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`message ${id} never arrived`)), 5000);
        waiting.set(id, (at) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(at);
        });
      });
      const started = performance.now();
      await outgoing.sendMessage({ id, text: `message ${id}` });
      return (await arrived) - started;
    };

    for (let i = 0; i < WARMUP; i++) await roundTrip(`warmup-${i}`);
    const samples: number[] = [];
    for (let i = 0; i < MESSAGES; i++) samples.push(await roundTrip(`measured-${i}`));
    samples.sort((a, b) => a - b);

    const note = `${MESSAGES} sequential messages after ${WARMUP} warm-up, two SDK clients, in-memory store`;
    return [
      { name: 'message latency: sendMessage → other client message.new (median)', unit: 'ms', measured: round(percentile(samples, 0.5)), budget: BUDGET_MEDIAN_MS, note },
      { name: 'message latency: sendMessage → other client message.new (p99)', unit: 'ms', measured: round(percentile(samples, 0.99)), budget: BUDGET_P99_MS, note },
    ];
  } finally {
    await Promise.allSettled([sender.disconnectUser(), receiver.disconnectUser()]);
    await server.close();
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? NaN;
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
