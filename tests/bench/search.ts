// Search over 1,000,000 messages. The data (search-data.ts) is written straight into a
// database file; then the backend serves it and we time:
// - `GET /search` as MessageSearchSource sends it (the user's channels, text, type regular,
//   newest first, 10 a page), over HTTP from this process: p50 and p95 over every query, each
//   first page and the page after it; and the same with the relevance sort (p95 at
//   most 50 ms), whose first two pages of every query are then compared with the exhaustive
//   ranking (one SQL query over every match in the user's channels, ordered by FTS5's rank).
// - In Chromium, with the built widget: from the moment the `/search` response has arrived to
//   the first painted frame that shows its results. When a hit's channel is new to the client,
//   the SDK loads it first (one more request), so the span is also reported from the last
//   response before the paint; after the warm-up round the user's channels are all known.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { createUserToken } from '../../src/server/auth/tokens';
import { messageCondition } from '../../src/server/features/search/message-filter';
import { startServer, type RunningServer } from '../../src/server/index';
import { API_KEY, API_SECRET, BENCH_LIMITS } from './backend';
import { freshPage, launchChromium } from './browser';
import { QUERIES, seedSearchData } from './search-data';
import { median, percentile, spread } from './stats';
import type { BenchRow } from './types';

// SEARCH_BENCH_MESSAGES runs it smaller, to try it out quickly.
const MESSAGES = Number(process.env.SEARCH_BENCH_MESSAGES ?? 1_000_000);
const USER = 'alice';
const REPEATS = 15;
const RELEVANCE_REPEATS = 3;
const RELEVANCE_BUDGET_MS = 50;
const RELEVANCE = { sort: [{ field: 'relevance', direction: -1 }] };
const RENDER_ROUNDS = 3;
const API_BUDGET_MS = 20;
const RENDER_BUDGET_MS = 50;

type Timed = { ms: number; serverMs: number; next?: string };

async function timedSearch(server: RunningServer, token: string, payload: object): Promise<Timed> {
  const query = new URLSearchParams({ api_key: API_KEY, user_id: USER, payload: JSON.stringify(payload) });
  const started = performance.now();
  const res = await fetch(`${server.url}/search?${query}`, { headers: { authorization: token, 'stream-auth-type': 'jwt' } });
  const body = (await res.json()) as { duration?: string; next?: string; message?: string };
  const ms = performance.now() - started;
  if (!res.ok) throw new Error(`search failed: ${body.message}`);
  return { ms, serverMs: Number.parseFloat(body.duration ?? ''), ...(body.next ? { next: body.next } : {}) };
}

/** The payload MessageSearchSource sends (stream-chat src/search/MessageSearchSource.ts). */
const sourcePayload = (text: string, extra: object = {}) => ({
  filter_conditions: { members: { $in: [USER] } },
  message_filter_conditions: { type: 'regular', text },
  sort: [{ field: 'created_at', direction: -1 }],
  limit: 10,
  ...extra,
});

async function apiTimes(server: RunningServer, token: string, repeats: number, sort?: object) {
  const client: number[] = [];
  const own: number[] = [];
  const firstPages: number[] = [];
  for (let round = 0; round < repeats + 1; round++) {
    for (const text of QUERIES) {
      const first = await timedSearch(server, token, sourcePayload(text, sort ?? {}));
      const second = first.next ? await timedSearch(server, token, sourcePayload(text, { ...sort, next: first.next })) : undefined;
      if (round === 0) continue; // warm-up
      for (const sample of second ? [first, second] : [first]) {
        client.push(sample.ms);
        own.push(sample.serverMs);
      }
      firstPages.push(first.ms);
    }
  }
  return { client, own, firstPages };
}

/**
 * The first two relevance pages of every query, through HTTP, against the exhaustive ranking
 * read straight from the database: every match in the user's channels, ordered by FTS5's rank
 * and then newest first. Returns the queries whose pages differ.
 */
async function relevanceAgainstExhaustive(server: RunningServer, token: string, dbPath: string): Promise<string[]> {
  const reader = new Database(dbPath, { readonly: true });
  try {
    const cids = JSON.stringify(reader.prepare('SELECT cid FROM members WHERE user_id = ?').pluck().all(USER));
    const exhaustive = reader
      .prepare(
        `SELECT m.id FROM message_search s JOIN messages m ON m.seq = s.rowid
          WHERE s.message_search MATCH ? AND m.cid IN (SELECT value FROM json_each(?))
            AND m.type = 'regular' AND m.deleted_at IS NULL
          ORDER BY s.rank, s.rowid DESC LIMIT 20`,
      )
      .pluck();
    const differing: string[] = [];
    for (const text of QUERIES) {
      const { match } = messageCondition(undefined, { type: 'regular', text });
      const expected = match === undefined ? [] : (exhaustive.all(match, cids) as string[]);
      const got: string[] = [];
      let next: string | undefined;
      for (let page = 0; page < 2 && (page === 0 || next); page++) {
        const query = new URLSearchParams({ api_key: API_KEY, user_id: USER, payload: JSON.stringify(sourcePayload(text, { ...RELEVANCE, ...(next ? { next } : {}) })) });
        const res = await fetch(`${server.url}/search?${query}`, { headers: { authorization: token, 'stream-auth-type': 'jwt' } });
        const body = (await res.json()) as { results: { message: { id: string } }[]; next?: string };
        got.push(...body.results.map((result) => result.message.id));
        next = body.next;
      }
      if (JSON.stringify(got) !== JSON.stringify(expected)) differing.push(text);
    }
    return differing;
  } finally {
    reader.close();
  }
}

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Search bench</title></head>
<body style="margin:0;padding:24px;background:#fafaf7">
  <chat-widget api-key="__CHAT_WIDGET_API_KEY__" base-url="/" mode="inline" channel="messaging:c0" token-endpoint="/demo/token?user=${USER}" style="max-width:420px"></chat-widget>
  <script src="/chat-widget.js"></script>
</body></html>`;

/** Waits in the page for a painted frame that shows message hits for `query`; returns the spans. */
async function renderOnce(page: Page, query: string): Promise<{ fromSearch: number; fromLast: number }> {
  const input = page.locator('chat-widget [part~="search-input"]');
  await input.fill('');
  await page.locator('chat-widget .search-hint').waitFor();
  await page.evaluate(() => performance.clearResourceTimings());
  await input.fill(query);
  return page.evaluate(async (word) => {
    const root = document.querySelector('chat-widget')?.shadowRoot;
    const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    const shown = () => {
      const hit = root?.querySelector('section[aria-label="Messages"] .search-hit mark');
      return fold(hit?.textContent ?? '').startsWith(word.slice(0, 3));
    };
    const giveUpAt = performance.now() + 10_000;
    const painted = await new Promise<number>((done) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => done(performance.now());
      const frame = () => {
        if (shown()) channel.port2.postMessage(null);
        else if (performance.now() > giveUpAt) done(Number.NaN);
        else requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
    const calls = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const search = calls.filter((call) => call.name.includes('/search?')).at(-1);
    const last = Math.max(...calls.filter((call) => call.responseEnd <= painted).map((call) => call.responseEnd));
    return { fromSearch: painted - (search?.responseEnd ?? Number.NaN), fromLast: painted - last };
  }, query);
}

async function renderTimes(server: RunningServer) {
  const browser = await launchChromium();
  try {
    const { page } = await freshPage(browser);
    await page.goto(`${server.url}/`);
    await page.locator('chat-widget [part~="search-button"]').click();
    const fromSearch: number[] = [];
    const fromLast: number[] = [];
    // Words that find a full page in the user's channels.
    const words = ['harbour', 'cafe', 'lantern', 'tideline', 'harb', 'lan'];
    for (let round = 0; round < RENDER_ROUNDS + 1; round++) {
      for (const word of words) {
        const spans = await renderOnce(page, word);
        if (round === 0 || Number.isNaN(spans.fromSearch)) continue;
        fromSearch.push(spans.fromSearch);
        fromLast.push(spans.fromLast);
      }
    }
    return { fromSearch, fromLast };
  } finally {
    await browser.close();
  }
}

export default async function searchBench(): Promise<BenchRow[]> {
  // The page and the bundle are served by the same backend (demo/ and its token endpoint).
  const dir = mkdtempSync(join(tmpdir(), 'chat-widget-search-'));
  mkdirSync(join(dir, 'demo'));
  copyFileSync(resolve('dist/chat-widget.js'), join(dir, 'demo', 'chat-widget.js'));
  writeFileSync(join(dir, 'demo', 'index.html'), PAGE);
  const dbPath = join(dir, 'chat.db');
  try {
    const seedSeconds = seedSearchData(dbPath, MESSAGES);
    const server = await startServer({ port: 0, dbPath, apiKey: API_KEY, apiSecret: API_SECRET, staticRoot: dir, devMode: true, quiet: true, limits: BENCH_LIMITS });
    let api: Awaited<ReturnType<typeof apiTimes>>;
    let relevance: Awaited<ReturnType<typeof apiTimes>>;
    let differing: string[];
    let render: Awaited<ReturnType<typeof renderTimes>>;
    try {
      const token = await createUserToken(USER, API_SECRET);
      api = await apiTimes(server, token, REPEATS);
      relevance = await apiTimes(server, token, RELEVANCE_REPEATS, RELEVANCE);
      differing = await relevanceAgainstExhaustive(server, token, dbPath);
      if (differing.length > 0) console.error(`search bench: relevance pages differ from the exhaustive ranking for ${differing.join(', ')}`);
      render = await renderTimes(server);
    } finally {
      await server.close();
    }
    const round = (ms: number) => Math.round(ms * 100) / 100;
    const queries = `${QUERIES.length} queries × ${REPEATS}, first and next page`;
    return [
      { name: `search: seed ${MESSAGES.toLocaleString('en')} messages through the store (one transaction, index by trigger)`, unit: 's', measured: round(seedSeconds) },
      {
        name: `search: GET /search over ${MESSAGES.toLocaleString('en')} messages, p95 (HTTP round trip)`,
        unit: 'ms',
        budget: API_BUDGET_MS,
        measured: round(percentile(api.client, 95)),
        note: `${queries}; p50 ${round(median(api.client))} ms; handler p95 ${round(percentile(api.own, 95))} ms`,
      },
      {
        name: 'search: GET /search sorted by relevance, p95',
        unit: 'ms',
        budget: RELEVANCE_BUDGET_MS,
        measured: round(percentile(relevance.client, 95)),
        note:
          `${QUERIES.length} queries × ${RELEVANCE_REPEATS}, first and next page; p50 ${round(median(relevance.client))} ms; ` +
          `first pages p95 ${round(percentile(relevance.firstPages, 95))} ms; handler p95 ${round(percentile(relevance.own, 95))} ms; ` +
          `top 20 equal to the exhaustive ranking for ${QUERIES.length - differing.length} of ${QUERIES.length} queries`,
      },
      {
        name: 'search: results painted after the /search response, p95 (Chromium)',
        unit: 'ms',
        budget: RENDER_BUDGET_MS,
        measured: round(percentile(render.fromSearch, 95)),
        note: `${render.fromSearch.length} searches of 6 words after a warm-up round; p50 ${round(median(render.fromSearch))} ms; spread ${spread(render.fromSearch)} ms`,
      },
      {
        name: 'search: results painted after the last response, p95 (Chromium)',
        unit: 'ms',
        measured: round(percentile(render.fromLast, 95)),
        note: `without any channel loading in between; p50 ${round(median(render.fromLast))} ms; spread ${spread(render.fromLast)} ms`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
