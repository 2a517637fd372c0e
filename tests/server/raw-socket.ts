// A raw `ws` socket doing the SDK's handshake, for what the SDK would not do on its own: stop
// reading (a phone that lost signal, a stalled tab), never ping, or ping on a short clock.
import WebSocket from 'ws';
import { API_KEY, type Harness } from './helpers';

export type RawSocket = {
  ws: WebSocket;
  connectionId: string;
  userId: string;
  /** Every frame received, parsed. */
  frames: any[];
  /** Resolves with the close code (and reason) once the socket closes. */
  closed: Promise<{ code: number; reason: string }>;
  /** The first frame of `type` (`*`: any) matching `where`, received already or still to come. */
  next(type: string, where?: (frame: any) => boolean, timeoutMs?: number): Promise<any>;
  /** Watches `type:id` on this connection, as channel.watch() does. */
  watch(type: string, id: string): Promise<void>;
  /** Stops reading: no frames, no pongs, as if the network vanished. */
  pause(): void;
  resume(): void;
  /** Sends the SDK's health.check ping every `ms` until stopped. */
  keepAlive(ms: number): () => void;
};

export async function rawSocket(harness: Harness, userId: string): Promise<RawSocket> {
  const params = new URLSearchParams({
    json: JSON.stringify({ user_id: userId, user_details: { id: userId } }),
    api_key: API_KEY,
    authorization: harness.token(userId),
    'stream-auth-type': 'jwt',
  });
  const ws = new WebSocket(`${harness.url.replace('http', 'ws')}/connect?${params}`);
  const frames: any[] = [];
  const waiters = new Set<() => void>();
  ws.on('message', (data) => {
    frames.push(JSON.parse(String(data)));
    for (const waiter of [...waiters]) waiter();
  });
  ws.on('error', () => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );

  const next = (type: string, where: (frame: any) => boolean = () => true, timeoutMs = 5000) => {
    let seen = 0;
    return new Promise<any>((resolve, reject) => {
      const check = () => {
        for (; seen < frames.length; seen++) {
          const frame = frames[seen];
          if ((type === '*' || frame.type === type) && where(frame)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(frame);
            return;
          }
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no ${type} frame within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  };

  // The first frame is the health.check, or the refusal (an `error` frame).
  const first = await next('*');
  if (!first.connection_id) throw new Error(`handshake refused: ${JSON.stringify(first)}`);
  const connectionId: string = first.connection_id;
  return {
    ws,
    connectionId,
    userId,
    frames,
    closed,
    next,
    async watch(type, id) {
      const response = await harness.request(`/channels/${type}/${id}/query`, {
        token: harness.token(userId),
        userId,
        query: { connection_id: connectionId },
        body: { watch: true, state: true, presence: true },
      });
      if (response.status !== 200) throw new Error(`watch failed: ${response.status} ${JSON.stringify(response.body)}`);
    },
    pause() {
      (ws as unknown as { _socket: { pause(): void } })._socket.pause();
    },
    resume() {
      (ws as unknown as { _socket: { resume(): void } })._socket.resume();
    },
    keepAlive(ms) {
      const timer = setInterval(() => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify([{ type: 'health.check', client_id: `${userId}--raw` }]));
      }, ms);
      return () => clearInterval(timer);
    },
  };
}
