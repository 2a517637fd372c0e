// Jump-to-message on a long channel: a page of 25 messages around a random message id
// (`messages.id_around`) in a channel of 1,000,000 messages. Measured as the store's page query
// alone, and as the whole channel query the SDK sends (auth, access, presentation): its server
// time and its HTTP round trip from a client in this same process. The table is seeded straight
// through the store in one transaction, in a temporary database file removed afterwards.
// Not registered in run.ts; `npx tsx` a file that imports and runs it, or add it to the runner.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StreamChat } from 'stream-chat';
import { startServer } from '../../src/server/index';
import { BENCH_LIMITS } from './backend';
import { openStore } from '../../src/server/store/store';
import { percentile } from './stats';
import type { BenchRow } from './types';

const API_KEY = 'bench-key';
const API_SECRET = 'bench-secret-long-enough-for-hs256';
const MESSAGES = 1_000_000;
const SAMPLES = 1000;
const WARMUP = 50;
const PAGE = 25;
const BUDGET_P95_MS = 5;
const CID = 'messaging:long';

function seed(path: string): number {
  const started = performance.now();
  const store = openStore(path);
  try {
    const now = new Date().toISOString();
    store.users.upsert({ id: 'reader', name: 'Reader' });
    store.users.upsert({ id: 'writer', name: 'Writer' });
    store.channels.create({ type: 'messaging', id: 'long', name: 'Long', custom: {}, createdById: 'writer', now });
    store.channels.addMembers(CID, ['writer'], 'owner', now);
    store.channels.addMembers(CID, ['reader'], 'member', now);
    store.reads.start(CID, ['writer', 'reader'], now);
    const insert = store.db.prepare(
      `INSERT INTO messages (id, cid, user_id, type, text, created_at, updated_at)
       VALUES (?, ?, 'writer', 'regular', ?, ?, ?)`,
    );
    // One message per 10 ms, ending now: a channel about three hours long.
    const first = Date.now() - MESSAGES * 10;
    store.transaction(() => {
      for (let i = 0; i < MESSAGES; i++) {
        const at = new Date(first + i * 10).toISOString();
        insert.run(messageId(i), CID, `message number ${i}`, at, at);
      }
    });
    store.channels.setLastMessageAt(CID, new Date(first + (MESSAGES - 1) * 10).toISOString());
  } finally {
    store.close();
  }
  return performance.now() - started;
}

const messageId = (i: number) => `m-${i.toString(36).padStart(5, '0')}`;
const randomId = () => messageId(Math.floor(Math.random() * MESSAGES));

async function time(run: () => unknown): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return samples;
}

export default async function idAround(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'chat-widget-bench-'));
  const path = join(dir, 'chat.db');
  try {
    const seedMs = seed(path);
    const store = openStore(path);
    const server = await startServer({ port: 0, dbPath: path, apiKey: API_KEY, apiSecret: API_SECRET, quiet: true, limits: BENCH_LIMITS, uploadsDir: join(dir, 'uploads') });
    try {
      const storeSamples = await time(() => {
        const page = store.messages.page(CID, { limit: PAGE, id_around: randomId() });
        if (page.length !== PAGE) throw new Error(`expected ${PAGE} messages, got ${page.length}`);
      });
      const token = new StreamChat(API_KEY, API_SECRET).createToken('reader');
      const url = `${server.url}/channels/messaging/long/query?api_key=${API_KEY}&user_id=reader`;
      const headers = { authorization: token, 'stream-auth-type': 'jwt', 'content-type': 'application/json' };
      // The response's own `duration` is the server's handling time (auth, access, queries,
      // presentation), without this process's HTTP client; the round trip includes both.
      const serverSamples: number[] = [];
      const httpSamples = await time(async () => {
        const body = JSON.stringify({ state: true, watch: false, presence: false, messages: { limit: PAGE, id_around: randomId() } });
        const response = await fetch(url, { method: 'POST', headers, body });
        const state = (await response.json()) as { messages?: unknown[]; duration?: string };
        if (state.messages?.length !== PAGE) throw new Error(`query answered ${response.status}`);
        serverSamples.push(parseFloat(state.duration ?? 'NaN'));
      });
      serverSamples.splice(0, WARMUP);
      const note = `${MESSAGES.toLocaleString('en')} messages in one channel (seeded in ${(seedMs / 1000).toFixed(1)} s), ${SAMPLES} random ids, page of ${PAGE}`;
      const row = (name: string, samples: number[], p: number, budget?: number): BenchRow => ({
        name,
        unit: 'ms',
        measured: Math.round(percentile(samples, p) * 100) / 100,
        ...(budget !== undefined ? { budget } : {}),
        note,
      });
      return [
        row('id_around page, store query (p50)', storeSamples, 50),
        row('id_around page, store query (p95)', storeSamples, 95, BUDGET_P95_MS),
        row('id_around page, channel query, server time (p50)', serverSamples, 50),
        row('id_around page, channel query, server time (p95)', serverSamples, 95, BUDGET_P95_MS),
        row('id_around page, channel query, HTTP round trip (p50)', httpSamples, 50),
        row('id_around page, channel query, HTTP round trip (p95)', httpSamples, 95),
      ];
    } finally {
      store.close();
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
