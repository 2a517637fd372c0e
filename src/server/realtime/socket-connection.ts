// A WebSocket as a registry Connection, with the two bounds a socket needs (architecture,
// "Bounded under any client"):
// - Backpressure. Sends never wait: ws queues what the peer has not read yet, and the hub's
//   UnsentData decides when that is too much (per socket, or all sockets together). Then the
//   socket is dropped, which the SDK (any close but 1000) answers by reconnecting and
//   recovering the channel state it missed.
// - Liveness. Every frame received is reported to the hub's liveness sweep, and the sweep's
//   protocol-level pings are answered (or not) by pongs; an expired socket is terminated, and its
//   'close' ends watching and presence exactly as a clean close does.
import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { ServerContext } from '../http/context';
import type { Connection } from './registry';
import { dropConnection } from './watching';

const TEXT = { binary: false };

export function socketConnection(
  ctx: ServerContext,
  ws: WebSocket,
  user: { id: string; anonymous: boolean },
): Connection {
  const id = randomUUID();
  let cutOff = false;

  const connection: Connection = {
    id,
    userId: user.id,
    anonymous: user.anonymous,
    watching: new Set(),
    send: (frame, bytes) => {
      if (cutOff || ws.readyState !== ws.OPEN) return;
      // Frames go out as buffers (a shared one without a copy per socket): what a socket holds
      // for a slow reader then sits outside the JS heap and is freed with the socket, rather
      // than as strings the heap keeps growing for until a full collection.
      ws.send(bytes ?? Buffer.from(frame), TEXT);
      ctx.hub.unsent.sent(id, ws.bufferedAmount);
    },
    close: (code, reason) => ws.close(code, reason),
  };

  ctx.hub.unsent.track(id, {
    unsent: () => ws.bufferedAmount,
    // A close frame would queue behind everything unread, so a stalled peer would never see it,
    // and waiting for it would hold that data longer: the socket is dropped at once. The peer
    // sees 1006 (abnormal closure), on which the SDK reconnects and recovers what it missed.
    cutOff: () => {
      cutOff = true;
      ws.terminate();
    },
  });
  ws.on('message', () => ctx.hub.liveness.heard(id));
  ws.on('pong', () => ctx.hub.liveness.answered(id));
  ws.on('close', () => {
    ctx.hub.liveness.forget(id);
    ctx.hub.unsent.forget(id);
    dropConnection(ctx, id);
  });
  ctx.hub.liveness.track(id, {
    // ws throws on a ping to a socket already closing (cut off, or closed by the peer).
    ping: () => {
      if (ws.readyState === ws.OPEN) ws.ping();
    },
    // The peer is gone or wedged: it would never complete a close handshake.
    expire: () => ws.terminate(),
  });
  return connection;
}
