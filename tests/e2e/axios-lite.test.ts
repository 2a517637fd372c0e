// axios-lite (src/transport/axios-lite.ts) against axios itself, in Chromium: each call that
// stream-chat makes is run through both, bundled for the browser the same way, against one
// local server, and what stream-chat reads of the outcome (data, status, headers, error code,
// error.response, isCancel, progress events) must be the same.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser';

let browser: Browser;
let server: Server;
let origin: string;
let page: Page;

/** The two clients as one browser script: `window.clients = { axios, lite }`. */
async function clientsScript(): Promise<string> {
  const result = await build({
    stdin: {
      contents: `import axios from 'axios'; import lite from './src/transport/axios-lite.ts'; window.clients = { axios, lite };`,
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    bundle: true,
    platform: 'browser',
    format: 'iife',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

beforeAll(async () => {
  const script = await clientsScript();
  server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><script>${script}</script>`);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const echo = {
        method: req.method,
        query: url.search,
        contentType: (req.headers['content-type'] ?? '').replace(/boundary=.*/, 'boundary=…'),
        custom: req.headers['x-custom'] ?? null,
        bytes: body.length,
        json: req.headers['content-type'] === 'application/json' ? JSON.parse(body.toString()) : null,
      };
      if (url.pathname === '/slow') setTimeout(() => res.writeHead(200).end('{}'), 2_000);
      else if (url.pathname === '/refused') res.writeHead(429, { 'content-type': 'application/json', 'x-ratelimit-reset': '1800000000' }).end('{"code":9,"message":"Too many requests"}');
      else if (url.pathname === '/broken') res.writeHead(500).end('not json');
      else if (url.pathname === '/text') res.writeHead(200).end('plain words');
      else res.writeHead(200, { 'content-type': 'application/json', 'x-answer': '42' }).end(JSON.stringify(echo));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(`${origin}/`);
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

/** Runs `scenario` (source of an async function of one client) with both clients; returns both outcomes. */
async function both(scenario: string) {
  return page.evaluate(async ({ scenario, origin }) => {
    const run = new Function('client', 'origin', `return (${scenario})(client, origin);`) as (client: unknown, origin: string) => Promise<unknown>;
    const outcome = async (name: 'axios' | 'lite') => {
      const client = (window as unknown as { clients: Record<string, { isCancel(e: unknown): boolean }> }).clients[name]!;
      try {
        return { ok: await run(client, origin) };
      } catch (error) {
        const e = error as { message: string; code?: string; response?: { status: number; data: unknown; headers: Record<string, string> } };
        return {
          failed: {
            message: e.message,
            code: e.code,
            cancel: client.isCancel(error),
            status: e.response?.status ?? null,
            data: e.response?.data ?? null,
            reset: e.response?.headers['x-ratelimit-reset'] ?? null,
          },
        };
      }
    };
    return { axios: await outcome('axios'), lite: await outcome('lite') };
  }, { scenario, origin });
}

async function same(scenario: string) {
  const { axios, lite } = await both(scenario);
  expect(lite).toEqual(axios);
  return lite;
}

describe('axios-lite behaves as axios for what stream-chat uses', () => {
  it('GET with headers and serialized params through an instance with defaults', async () => {
    const outcome = await same(`async (client, origin) => {
      const instance = client.create({ timeout: 3000, withCredentials: false, headers: { 'X-Custom': 'from defaults' } });
      instance.defaults.paramsSerializer = (params) => Object.entries(params).map(([k, v]) => k + '=' + encodeURIComponent(typeof v === 'object' ? JSON.stringify(v) : v)).join('&');
      const response = await instance.get(origin + '/echo?x=1', { params: { api_key: 'k', payload: { a: [1] } }, headers: { 'X-Custom': 'mine' } });
      return { data: response.data, status: response.status, answer: response.headers['x-answer'] };
    }`);
    expect(outcome).toMatchObject({ ok: { status: 200, answer: '42', data: { method: 'GET', query: '?x=1&api_key=k&payload=%7B%22a%22%3A%5B1%5D%7D', custom: 'mine' } } });
  });

  it('JSON bodies for post, put, patch and delete', async () => {
    await same(`async (client, origin) => {
      const instance = client.create({});
      const out = [];
      out.push((await instance.post(origin + '/echo', { text: 'hi', n: 1 })).data);
      out.push((await instance.put(origin + '/echo', { set: { a: 1 } })).data);
      out.push((await instance.patch(origin + '/echo', [1, 2])).data);
      out.push((await instance.delete(origin + '/echo', { params: { hard: true } })).data);
      out.push((await instance.options(origin + '/echo')).data);
      return out;
    }`);
  });

  it('FormData uploads with the browser multipart type, and upload progress', async () => {
    const outcome = await same(`async (client, origin) => {
      const data = new FormData();
      data.append('file', new Blob([new Uint8Array(3_000_000)], { type: 'image/png' }), 'big.png');
      const events = [];
      const response = await client.create({}).postForm(origin + '/upload', data, {
        headers: { 'Content-Type': 'multipart/form-data' },
        onUploadProgress: (e) => events.push({ computable: e.lengthComputable, total: e.total > 3_000_000 }),
      });
      return { data: response.data, progressed: events.length > 0, last: events.at(-1) };
    }`);
    expect(outcome).toMatchObject({ ok: { progressed: true, last: { computable: true, total: true }, data: { contentType: 'multipart/form-data; boundary=…' } } });
  });

  it('an HTTP refusal: error.response with the JSON, status and headers', async () => {
    const outcome = await same(`async (client, origin) => client.create({}).get(origin + '/refused')`);
    expect(outcome).toMatchObject({ failed: { code: 'ERR_BAD_REQUEST', status: 429, data: { code: 9 }, reset: '1800000000', cancel: false } });
    await same(`async (client, origin) => client.create({}).get(origin + '/broken')`);
    await same(`async (client, origin) => (await client.create({}).get(origin + '/text')).data`);
  });

  it('a request interceptor changes the headers before the request goes out, and one that throws fails the call', async () => {
    const outcome = await same(`async (client, origin) => {
      const instance = client.create({ headers: { 'X-Custom': 'stale' } });
      instance.interceptors.request.use(async (config) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        config.headers['X-Custom'] = 'renewed';
        return config;
      });
      return (await instance.post(origin + '/echo', { a: 1 })).data;
    }`);
    expect(outcome).toMatchObject({ ok: { custom: 'renewed', json: { a: 1 } } });
    expect(
      await same(`async (client, origin) => {
        const instance = client.create({});
        instance.interceptors.request.use(() => { throw new Error('no token'); });
        return instance.get(origin + '/echo');
      }`),
    ).toMatchObject({ failed: { message: 'no token' } });
  });

  it('a timeout, a network failure, and cancellation by signal and by CancelToken', async () => {
    expect(await same(`async (client, origin) => client.create({ timeout: 200 }).get(origin + '/slow')`)).toMatchObject({ failed: { code: 'ECONNABORTED' } });
    expect(await same(`async (client) => client.create({}).get('http://127.0.0.1:1/nothing')`)).toMatchObject({ failed: { code: 'ERR_NETWORK', message: 'Network Error' } });
    expect(
      await same(`async (client, origin) => {
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 100);
        return client.create({}).get(origin + '/slow', { signal: controller.signal });
      }`),
    ).toMatchObject({ failed: { cancel: true, code: 'ERR_CANCELED' } });
    expect(
      await same(`async (client, origin) => {
        const source = client.CancelToken.source();
        setTimeout(() => source.cancel('disconnect() is called'), 100);
        return client.create({}).get(origin + '/slow', { cancelToken: source.token });
      }`),
    ).toMatchObject({ failed: { cancel: true } });
  });
});
