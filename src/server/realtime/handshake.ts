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
import { authenticateIn } from '../auth/authenticate';
import type { Subject } from '../auth/tokens';
import type { ServerContext } from '../http/context';
import { parseBoundedJson } from '../http/body';
import { ApiError, errorBody, toApiError } from '../http/errors';
import { registerConnectDevice } from '../features/push/devices';
import { isObject } from '../http/input';
import { Presenter } from '../present/presenter';
import { userPatch, validUserId } from '../features/users/user-fields';
import { admitConnection } from './admission';
import type { Connection } from './registry';
import { userConnected } from './presence';
import { socketConnection } from './socket-connection';

/**
 * `refuseUpgrades` answers every upgrade with 403, as a proxy that blocks WebSockets would: the
 * SDK (with `enableWSFallback`) then falls back to long-poll (routes/longpoll.ts).
 */
export function attachWebSocket(server: Server, ctx: ServerContext, { refuseUpgrades = false } = {}): WebSocketServer {
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
      void accept(ctx, ws, url.searchParams);
    });
  });
  return wss;
}

async function accept(ctx: ServerContext, ws: WebSocket, params: URLSearchParams): Promise<void> {
  ws.on('error', () => ws.terminate());
  try {
    const { me, subject } = await handshake(ctx, {
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

/** The first event of every connection: a health.check with its id and the user (`me`). */
export function connectedEvent(connection: Connection, me: OwnUserResponse): Event {
  return { type: 'health.check', connection_id: connection.id, cid: '*', me, created_at: new Date().toISOString() };
}

/**
 * Validates the connect payload and credentials (the socket's query string, or a long-poll
 * open), upserts the user from `user_details`, and returns `me`.
 */
export async function handshake(ctx: ServerContext, input: ConnectInput): Promise<{ me: OwnUserResponse; subject: Subject }> {
  const payload = parseBoundedJson(
    input.json ?? '',
    ctx.hub.limits.maxJsonDepth,
    'the json query parameter',
    'the json query parameter must be the JSON connect payload',
  );
  if (!isObject(payload) || typeof payload.user_id !== 'string' || !payload.user_id) {
    throw ApiError.input('the connect payload needs a user_id');
  }
  const userId = validUserId(payload.user_id, 'user_id');
  const details = isObject(payload.user_details) ? payload.user_details : { id: userId };
  if (details.id !== undefined && details.id !== userId) {
    throw ApiError.input('user_details.id does not match user_id');
  }
  const subject = await authenticateIn(
    ctx,
    { apiKey: input.apiKey, authType: input.authType, token: input.token, userId },
  );
  const now = new Date().toISOString();
  if (subject.kind === 'anonymous') {
    // Anonymous visitors are not stored: they get an ephemeral identity for this socket.
    const me: OwnUserResponse = {
      id: userId,
      role: 'anonymous',
      anon: true,
      online: true,
      created_at: now,
      updated_at: now,
      devices: [],
      mutes: [],
      channel_mutes: [],
      blocked_user_ids: [],
      total_unread_count: 0,
      unread_count: 0,
      unread_channels: 0,
      unread_threads: 0,
    };
    return { me, subject };
  }
  const user = ctx.store.users.upsert({ ...userPatch(userId, details), lastActive: now });
  // `client.setDevice(...)` puts the device in the connect payload: it is registered like addDevice.
  registerConnectDevice(ctx, user.id, payload.device);
  return { me: new Presenter(ctx).ownUser(user), subject };
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
