// The WebSocket endpoint `/connect`, sharing the HTTP server's port through its `upgrade` event.
// Protocol (stream-chat src/connection.ts, protocol-notes §2): all auth travels in the query
// string (`json`, `api_key`, `authorization`, `stream-auth-type`); the server's first frame is a
// health.check carrying `connection_id` and `me`, or an error frame followed by close 1000, which
// the SDK treats as "rejected, do not retry". Client pings are JSON arrays and each one is
// answered with a health.check, which also keeps the SDK's 35 s silence timer from firing.
// A connect over the rate limits (code 9) or over the user's connection cap (code 71) gets the
// error frame too (admission.ts). The long-poll fallback opens with the same handshake
// (routes/longpoll.ts).
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Event, OwnUserResponse } from 'stream-chat';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Subject } from '../auth/tokens';
import type { ServerContext } from '../http/context';
import { errorBody, toApiError } from '../http/errors';
import { isObject } from '../http/input';
import { admitConnection } from './admission';
import type { Connection } from './registry';
import { userConnected } from './presence';
import { socketConnection } from './socket-connection';

/**
 * `refuseUpgrades` answers every upgrade with 403, as a proxy that blocks WebSockets would: the
 * SDK (with `enableWSFallback`) then falls back to long-poll (routes/longpoll.ts).
 */
export function attachWebSocket(server: Server, ctx: ServerContext, connect: Connect, { refuseUpgrades = false } = {}): WebSocketServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (refuseUpgrades) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (!url.pathname.endsWith('/connect')) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      void accept(ctx, connect, ws, url.searchParams);
    });
  });
  return wss;
}

async function accept(ctx: ServerContext, connect: Connect, ws: WebSocket, params: URLSearchParams): Promise<void> {
  ws.on('error', () => ws.terminate());
  try {
    const { me, subject } = await connect(ctx, {
      json: params.get('json') ?? undefined,
      apiKey: params.get('api_key') ?? undefined,
      authType: params.get('stream-auth-type') ?? undefined,
      token: params.get('authorization') || undefined,
    });
    if (ws.readyState !== ws.OPEN) return;
    if (ctx.hub.closing) {
      ws.close(1001, 'server shutting down');
      return;
    }
    admitConnection(ctx, subject, me.id, params.get('X-Stream-Client') ?? undefined);
    const connection = socketConnection(ctx, ws, { id: me.id, anonymous: me.role === 'anonymous' });
    ctx.hub.registry.add(connection);
    ws.on('message', (data) => answerPing(ctx, connection, data));
    ctx.hub.send(connection, connectedEvent(connection, me));
    userConnected(ctx, connection);
  } catch (error) {
    const apiError = toApiError(error);
    if (apiError.status >= 500) ctx.log('websocket handshake failed', error);
    const frame = {
      type: 'connection.error',
      connection_id: '',
      created_at: new Date().toISOString(),
      error: errorBody(apiError, '0ms'),
    };
    if (ws.readyState !== ws.OPEN) return;
    ws.send(JSON.stringify(frame));
    ws.close(1000, 'connection rejected');
  }
}

/** What opens a connection, whatever its transport: the `json` connect payload and the credentials. */
export type ConnectInput = {
  json: string | undefined;
  apiKey: string | undefined;
  authType: string | undefined;
  token: string | undefined;
};

/**
 * The connect action (features/users/connect-user.ts), given by the server that wires this
 * transport: it checks the payload and credentials and answers `me`, or throws the refusal.
 */
export type Connect = (ctx: ServerContext, input: ConnectInput) => Promise<{ me: OwnUserResponse; subject: Subject }>;

/** The first event of every connection: a health.check with its id and the user (`me`). */
export function connectedEvent(connection: Connection, me: OwnUserResponse): Event {
  return { type: 'health.check', connection_id: connection.id, cid: '*', me, created_at: new Date().toISOString() };
}

function answerPing(ctx: ServerContext, connection: Connection, data: RawData): void {
  let frame: unknown;
  try {
    frame = JSON.parse(data.toString());
  } catch {
    return;
  }
  const items = Array.isArray(frame) ? frame : [frame];
  if (!items.some((item) => isObject(item) && item.type === 'health.check')) return;
  const reply: Event = {
    type: 'health.check',
    connection_id: connection.id,
    cid: '*',
    created_at: new Date().toISOString(),
  };
  ctx.hub.send(connection, reply);
}
