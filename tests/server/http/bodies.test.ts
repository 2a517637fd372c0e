// Bounded bodies: a JSON body over the limit is refused with 413 and code 22
// before it is read whole (by its Content-Length, or as it streams in), JSON nested past the
// depth limit is a 400 on every route of the call table, and uploads stream to disk: a large
// one never sits in memory, and one over the size limit is refused as it arrives.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEFAULT_LIMITS } from '../../../src/server/limits';
import { CALL_TABLE } from '../call-table';
import { API_KEY, createUsers, signToken, startHarness, type Harness } from '../helpers';

const MB = 1024 * 1024;

let harness: Harness;
let uploadsDir: string;

beforeAll(async () => {
  uploadsDir = mkdtempSync(join(tmpdir(), 'bodies-test-'));
  harness = await startHarness({
    uploadsDir,
    // The sweep below sends one request per route from one server-side client.
    limits: { rateLimits: false },
    fileUploadConfig: { size_limit: 120 * MB },
    imageUploadConfig: { size_limit: 1 * MB },
  });
  await createUsers(harness, 'alice');
  await harness.admin.channel('messaging', 'bodies', { members: ['alice'], created_by_id: 'alice' } as never).create();
});

afterAll(async () => {
  await harness?.close();
  rmSync(uploadsDir, { recursive: true, force: true });
});

/** A body of `total` bytes made of `chunk` repeated, produced as it is sent (never whole). */
function streamOf(total: number, chunk: Uint8Array, prefix = new Uint8Array(), suffix = new Uint8Array()): ReadableStream<Uint8Array> {
  let sent = 0;
  let stage = 0;
  return new ReadableStream({
    pull(controller) {
      if (stage === 0) {
        stage = 1;
        controller.enqueue(prefix);
        return;
      }
      if (sent < total) {
        const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
        sent += piece.length;
        controller.enqueue(piece);
        return;
      }
      controller.enqueue(suffix);
      controller.close();
    },
  });
}

function url(path: string, userId = 'alice'): string {
  return `${harness.url}${path}?${new URLSearchParams({ api_key: API_KEY, user_id: userId })}`;
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: harness.token('alice'), 'stream-auth-type': 'jwt', ...extra };
}

/** Resident memory growth (MB) of this process, which is both the server and the client here. */
function rssMb(): number {
  return process.memoryUsage().rss / MB;
}

describe('JSON bodies', () => {
  it('refuses a body that declares more than the limit with 413 and code 22, without reading it', async () => {
    const body = `{"message":{"text":"${'x'.repeat(DEFAULT_LIMITS.maxBodyBytes)}"}}`;
    const response = await fetch(url('/channels/messaging/bodies/message'), {
      method: 'POST',
      headers: headers({ 'content-type': 'application/json' }),
      body,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 22, StatusCode: 413 });
  });

  it('cuts off a streamed body (no Content-Length) at the limit: 413, and memory stays flat for 200 MB', async () => {
    const before = rssMb();
    const response = await fetch(url('/channels/messaging/bodies/message'), {
      method: 'POST',
      headers: headers({ 'content-type': 'application/json' }),
      body: streamOf(200 * MB, new TextEncoder().encode('x'.repeat(64 * 1024)), new TextEncoder().encode('{"message":{"text":"'), new TextEncoder().encode('"}}')),
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 22 });
    expect(rssMb() - before).toBeLessThan(48);
  });

  it('still takes a body just under the limit', async () => {
    const text = 'y'.repeat(4000);
    const response = await fetch(url('/channels/messaging/bodies/message'), {
      method: 'POST',
      headers: headers({ 'content-type': 'application/json' }),
      body: JSON.stringify({ message: { text }, padding: 'z'.repeat(DEFAULT_LIMITS.maxBodyBytes - 6000) }),
    });
    expect(response.status).toBe(200);
  });

  it('answers JSON nested 5,000 deep with 400 code 4 on every route of the call table, in a body or a payload', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const deepArray = `{"filter_conditions":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const token = await signToken({ server: true });
    const wrong: string[] = [];
    for (const call of CALL_TABLE) {
      if (call.path === '/connect' || call.path === '/longpoll') continue;
      const path = call.path.replace(/\{id\}/g, 'x');
      const reads = call.method === 'GET' || call.method === 'DELETE';
      for (const body of [deep, deepArray]) {
        const response = await harness.request(path, {
          method: call.method,
          token,
          ...(reads ? { query: { payload: body } } : { body }),
        });
        const json = response.body as { code?: number } | string;
        const isError = typeof json === 'object' && typeof json.code === 'number';
        // Routes that read no input at all may answer as they would anyway, never with a 500.
        if (response.status >= 500 || (response.status !== 200 && !isError) || (response.status === 400 && (json as { code?: number }).code !== 4)) {
          wrong.push(`${call.method} ${call.path} → ${response.status} ${JSON.stringify(json).slice(0, 80)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 30_000);

  it('refuses a connect payload nested 5,000 deep with the error frame code 4 (the /connect row of the table)', async () => {
    const json = `{"user_id":"alice","user_details":{"id":"alice","deep":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}`;
    const params = new URLSearchParams({ json, api_key: API_KEY, authorization: harness.token('alice'), 'stream-auth-type': 'jwt' });
    const socket = new WebSocket(`${harness.url.replace('http', 'ws')}/connect?${params}`);
    const frame = await new Promise<any>((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))));
    expect(frame).toMatchObject({ type: 'connection.error', error: { code: 4, StatusCode: 400 } });
    socket.close();
  });

  it('answers the deep POST /polls of the report with 400, not 500', async () => {
    const deep = `{"name":"q","options":[{"text":"a"}],"custom":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
    const response = await harness.request('/polls', { token: harness.token('alice'), userId: 'alice', body: deep });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 4, StatusCode: 400 });
  });
});

describe('a body that came whole with its headers', () => {
  it('is refused over a small limit and taken under it, and the connection goes on to the next request', async () => {
    const small = await startHarness({ limits: { rateLimits: false, maxBodyBytes: 1024 } });
    try {
      await createUsers(small, 'alice');
      await small.admin.channel('messaging', 'whole', { members: ['alice'], created_by_id: 'alice' } as never).create();
      const path = `/channels/messaging/whole/message?${new URLSearchParams({ api_key: API_KEY, user_id: 'alice' })}`;
      const head = (extra: string) => `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${small.token('alice')}\r\nStream-Auth-Type: jwt\r\nContent-Type: application/json\r\n${extra}\r\n`;
      // Chunked, so no declared length refuses it first: the whole body is in the parser's
      // hands before the handler reads it. Then, on the same connection, one under the limit.
      const over = JSON.stringify({ message: { text: 'x'.repeat(2000) } });
      const under = JSON.stringify({ message: { id: 'whole-1', text: 'fits' } });
      const requests =
        head('Transfer-Encoding: chunked\r\n') + `${over.length.toString(16)}\r\n${over}\r\n0\r\n\r\n` +
        head(`Content-Length: ${Buffer.byteLength(under)}\r\nConnection: close\r\n`) + under;
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = createConnection(Number(new URL(small.url).port), '127.0.0.1');
        let received = '';
        socket.on('data', (data) => (received += data.toString('utf8')));
        socket.on('end', () => resolve(received));
        socket.on('error', reject);
        socket.setTimeout(10_000, () => socket.destroy(new Error(`no end; got ${received.slice(0, 300)}`)));
        socket.write(requests);
      });
      const statuses = [...answer.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
      expect(statuses).toEqual([413, 200]);
      expect(answer).toContain('"code":22');
      const stored = await small.admin.channel('messaging', 'whole').query({ messages: { limit: 10 } });
      expect(stored.messages.map((message) => message.text)).toEqual(['fits']);
    } finally {
      await small.close();
    }
  });
});

describe('uploads stream to disk', () => {
  const boundary = '----bodies-test-boundary';
  const head = (name: string, type: string) =>
    new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`);
  const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);

  it('stores a 100 MB upload with memory flat, byte for byte', async () => {
    const before = rssMb();
    const chunk = new Uint8Array(256 * 1024).map((_, i) => i % 251);
    const response = await fetch(url('/channels/messaging/bodies/file'), {
      method: 'POST',
      headers: headers({ 'content-type': `multipart/form-data; boundary=${boundary}` }),
      body: streamOf(100 * MB, chunk, head('big.bin', 'application/octet-stream'), tail),
      duplex: 'half',
    } as RequestInit);
    const json = (await response.json()) as { file: string };
    expect(response.status).toBe(200);
    expect(rssMb() - before).toBeLessThan(48);
    const served = await fetch(json.file);
    expect(Number(served.headers.get('content-length'))).toBe(100 * MB);
    await served.body?.cancel();
  }, 60_000);

  it('refuses an upload over the size limit as it arrives (413), keeping nothing on disk', async () => {
    const before = readdirSync(uploadsDir).length;
    const response = await fetch(url('/channels/messaging/bodies/image'), {
      method: 'POST',
      headers: headers({ 'content-type': `multipart/form-data; boundary=${boundary}` }),
      body: streamOf(50 * MB, new Uint8Array(64 * 1024), head('huge.png', 'image/png'), tail),
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 4, StatusCode: 413 });
    expect(readdirSync(uploadsDir).length).toBe(before);
  });

  it('refuses one that declares a length over the limit before reading it', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(2 * MB)], { type: 'image/png' }), 'declared.png');
    const response = await fetch(url('/channels/messaging/bodies/image'), { method: 'POST', headers: headers(), body: form });
    expect(response.status).toBe(413);
  });
});
