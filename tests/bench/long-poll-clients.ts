// The clients of the long-poll benchmark: raw connections doing what the SDK does, cheap enough
// that 100 of them cost this process little. A WebSocket client is the SDK's handshake
// (`/connect?json=…`, first frame health.check with its connection_id); a long-poll client is
// the SDK's WSConnectionFallback (`GET /longpoll?json=…` for its connection_id, then
// `GET /longpoll?connection_id=…` in a loop, each answer `{events: [...]}`). Both report the
// arrival of every message.new by message id; both then watch a channel with their connection
// id, as channel.watch() does.
import { Agent, get as httpGet } from 'node:http';
import { StreamChat } from 'stream-chat';
import WebSocket from 'ws';
import { API_KEY, API_SECRET } from './backend';

const signer = new StreamChat(API_KEY, API_SECRET);

export type Arrival = (messageId: string, at: number) => void;
export type RawClient = { connectionId: string; stop(): void };

const connectPayload = (userId: string) => JSON.stringify({ user_id: userId, user_details: { id: userId, name: `Watcher ${userId}` } });

export function webSocketClient(base: string, userId: string, arrived: Arrival): Promise<RawClient> {
  const wsBase = base.replace(/^http/, 'ws');
  const url = `${wsBase}/connect?json=${encodeURIComponent(connectPayload(userId))}&api_key=${API_KEY}&authorization=${signer.createToken(userId)}&stream-auth-type=jwt`;
  const socket = new WebSocket(url, { perMessageDeflate: false });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('message', (data: Buffer) => {
      const first = JSON.parse(data.toString('utf8')) as { type: string; connection_id?: string };
      if (first.type !== 'health.check' || !first.connection_id) {
        reject(new Error(`handshake for ${userId} failed: ${data.toString('utf8').slice(0, 200)}`));
        return;
      }
      socket.on('message', (frame: Buffer) => {
        const at = performance.now();
        const event = JSON.parse(frame.toString('utf8')) as { type?: string; message?: { id?: string } };
        if (event.type === 'message.new' && event.message?.id) arrived(event.message.id, at);
      });
      resolve({ connectionId: first.connection_id, stop: () => socket.terminate() });
    });
  });
}

export async function longPollClient(base: string, userId: string, arrived: Arrival): Promise<RawClient> {
  const token = signer.createToken(userId);
  const headers = { authorization: token, 'stream-auth-type': 'jwt' };
  const query = (extra: Record<string, string>) => new URLSearchParams({ api_key: API_KEY, user_id: userId, ...extra });
  const opened = await fetch(`${base}/longpoll?${query({ json: connectPayload(userId) })}`, { headers, signal: AbortSignal.timeout(8_000) });
  if (!opened.ok) throw new Error(`long-poll open for ${userId}: ${opened.status} ${(await opened.text()).slice(0, 200)}`);
  const { event } = (await opened.json()) as { event: { connection_id: string } };
  const connectionId = event.connection_id;
  const stopper = new AbortController();
  const pollUrl = new URL(`${base}/longpoll?${query({ connection_id: connectionId })}`);
  // The SDK's poll loop: the next poll goes out as soon as an answer is in. Node's own HTTP
  // client on a keep-alive connection of its own, lighter per answer than fetch().
  const poll = () => {
    if (stopper.signal.aborted) return;
    const request = httpGet(pollUrl, { agent: pollAgent, headers, signal: stopper.signal }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const at = performance.now();
        const text = Buffer.concat(chunks).toString('utf8');
        if (response.statusCode !== 200) {
          process.stderr.write(`long-poll client ${userId} stopped: poll ${response.statusCode}: ${text.slice(0, 200)}\n`);
          return;
        }
        // The next poll goes out before this one's events are handled, so handling them never delays it.
        poll();
        const { events } = JSON.parse(text) as { events: Array<{ type?: string; message?: { id?: string } }> };
        for (const polled of events) if (polled.type === 'message.new' && polled.message?.id) arrived(polled.message.id, at);
      });
    });
    request.on('error', (error) => {
      if (!stopper.signal.aborted) process.stderr.write(`long-poll client ${userId} stopped: ${error.message}\n`);
    });
  };
  poll();
  return { connectionId, stop: () => stopper.abort() };
}

/** Every poll holds a connection open: as many as there are clients, kept alive between polls. */
const pollAgent = new Agent({ keepAlive: true, maxSockets: Infinity });

/** A POST as `userId` with their token (and a connection id, for watch: true). */
export async function api(base: string, path: string, userId: string, body: unknown, connectionId?: string): Promise<void> {
  const query = new URLSearchParams({ api_key: API_KEY, user_id: userId, ...(connectionId ? { connection_id: connectionId } : {}) });
  const response = await fetch(`${base}${path}?${query}`, {
    method: 'POST',
    headers: { authorization: signer.createToken(userId), 'stream-auth-type': 'jwt', 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  if (!response.ok) throw new Error(`${path} as ${userId}: ${response.status} ${(await response.text()).slice(0, 200)}`);
  await response.arrayBuffer();
}
