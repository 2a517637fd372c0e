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
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { ServerContext } from '../http/context';
import type { Connection } from './registry';
import { dropConnection } from './watching';

const TEXT = { binary: false };
/** WebSocket.OPEN, as a constant rather than a getter read for every frame. */
const OPEN = 1;

/** What of `ws`'s internals a direct write reads (ws 8): the TCP socket, the sender's state, the extensions. */
type WsInternals = {
  _socket?: Duplex | null;
  _sender?: { _state?: number; _firstFragment?: boolean } | null;
  _extensions?: Record<string, unknown>;
};

/**
 * A payload as one unmasked, unfragmented text frame (RFC 6455 section 5.2): the bytes
 * `ws.send(payload, { binary: false })` puts on the wire, header and payload in one buffer.
 * Kept per payload, so the receivers of a fan-out share one frame as they share one payload.
 */
const framed = new WeakMap<Buffer, Buffer>();
/** The payload framed last: a fan-out frames one payload for socket after socket. */
let lastFramed: { payload: Buffer; frame: Buffer } | undefined;

function textFrame(payload: Buffer): Buffer {
  if (lastFramed?.payload === payload) return lastFramed.frame;
  let frame = framed.get(payload);
  if (frame) {
    lastFramed = { payload, frame };
    return frame;
  }
  const length = payload.length;
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81; // FIN, text
  if (header === 2) {
    frame[1] = length;
  } else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    frame.writeUInt32BE(length >>> 0, 6);
  }
  payload.copy(frame, header);
  framed.set(payload, frame);
  lastFramed = { payload, frame };
  return frame;
}

export function socketConnection(
  ctx: ServerContext,
  ws: WebSocket,
  user: { id: string; anonymous: boolean },
): Connection {
  const id = randomUUID();
  let cutOff = false;
  // Without an extension (the server negotiates none: no permessage-deflate), a text frame is
  // the same bytes for every receiver, so a fan-out's frame is built once and written to each
  // TCP socket as it is, one write each. ws's own send would build a header per socket and write
  // header and payload corked as two buffers: the same bytes for more work. Without an
  // extension, ws's sender holds a frame of its own only while it sends a fragmented message or
  // reads a Blob, and nothing here sends either; its pings and close frames are written at
  // once, like ours, so the order on the wire stays the order of the calls. Without these
  // internals, the frame goes through ws.
  const internals = ws as unknown as WsInternals;
  const extensionless = internals._extensions !== undefined && Object.keys(internals._extensions).length === 0;
  const direct = extensionless && internals._sender?._state === 0 && internals._sender._firstFragment === true ? (internals._socket ?? undefined) : undefined;
  // What the unsent-data count holds for this socket (set below, before any send).
  let reported = () => 0;

  const connection: Connection = {
    id,
    userId: user.id,
    anonymous: user.anonymous,
    watching: new Set(),
    send: (frame, bytes) => {
      if (cutOff || ws.readyState !== OPEN) return;
      // Frames go out as buffers (a shared one without a copy per socket): what a socket holds
      // for a slow reader then sits outside the JS heap and is freed with the socket, rather
      // than as strings the heap keeps growing for until a full collection.
      const payload = bytes ?? Buffer.from(frame);
      if (direct) direct.write(textFrame(payload));
      else ws.send(payload, TEXT);
      // Nothing held now, and nothing counted for this socket (a shed may have re-read it),
      // changes no sum (unsent-data.ts): the common case skips it. (Written directly, all the
      // socket holds is in its own buffer: ws's sender holds nothing.)
      const unsent = direct ? direct.writableLength : ws.bufferedAmount;
      if (unsent !== 0 || reported() !== 0) ctx.hub.unsent.sent(id, unsent);
    },
    close: (code, reason) => ws.close(code, reason),
  };

  ({ reported } = ctx.hub.unsent.track(id, {
    unsent: () => ws.bufferedAmount,
    // A close frame would queue behind everything unread, so a stalled peer would never see it,
    // and waiting for it would hold that data longer: the socket is dropped at once. The peer
    // sees 1006 (abnormal closure), on which the SDK reconnects and recovers what it missed.
    cutOff: () => {
      cutOff = true;
      ws.terminate();
    },
  }));
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
      if (ws.readyState === OPEN) ws.ping();
    },
    // The peer is gone or wedged: it would never complete a close handshake.
    expire: () => ws.terminate(),
  });
  return connection;
}
