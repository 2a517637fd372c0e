// A long-poll client (the SDK's WSConnectionFallback, protocol-notes §10) as a registry
// Connection: the fan-out writes to it exactly as to a socket, `watch: true` with its
// connection_id subscribes it, and presence counts it. What a socket would have sent waits in
// this connection's queue until the client's next `GET /longpoll` takes it, whole and in order;
// one poll waits at a time. The same two bounds as a socket (socket-connection.ts) hold:
// - Unsent data: the queue is reported to the hub's UnsentData after each event, so a client
//   that stops polling while events pile up is cut off at `maxUnsentBytes` (and by the total
//   over every connection). Its queue is dropped and its next poll gets code 46, on which the
//   SDK opens a new connection and runs recoverState(), as after a dropped socket.
// - Liveness: every poll (its arrival and its answer) is reported as heard; a connection not
//   polled for `idleTimeoutMs` is expired by the hub's sweep and closed like a clean close:
//   watching stops and, with the user's last connection, they go offline.
// A poll waits at most `holdMs` (the SDK's comment: "API responds in 20s if there is no
// event"; its own time-out is 30 s) and never longer than half the idle time-out, so a client
// that polls is never taken for one that stopped.
import { randomUUID } from 'node:crypto';
import type { ServerContext } from '../http/context';
import type { Connection } from './registry';
import { dropConnection } from './watching';

/** What a poll gets: the queued frames (each one event as JSON), or that the connection is gone. */
export type PollResult = { frames: string[] } | { closed: true };

export type LongPollConnection = Connection & {
  transport: 'longpoll';
  /** Waits for events, at most `holdMs`; an aborted request leaves the queue as it is. */
  poll(signal: AbortSignal, holdMs: number): Promise<PollResult>;
  /** True until closed (by the client, the liveness sweep, the unsent-data bound or the server). */
  readonly open: boolean;
};

export function isLongPoll(connection: Connection | undefined): connection is LongPollConnection {
  return connection?.transport === 'longpoll';
}

type Waiter = { resolve: (result: PollResult) => void; timer: NodeJS.Timeout; signal: AbortSignal; onAbort: () => void };

export function longPollConnection(ctx: ServerContext, user: { id: string; anonymous: boolean }): LongPollConnection {
  const id = randomUUID();
  let frames: string[] = [];
  let bytes = 0;
  let open = true;
  let waiter: Waiter | undefined;
  let flushing = false;

  const take = (): string[] => {
    const taken = frames;
    frames = [];
    bytes = 0;
    ctx.hub.unsent.sent(id, 0);
    return taken;
  };

  /** Answers the waiting poll (if any) with `result`. */
  const answer = (result: () => PollResult) => {
    const current = waiter;
    if (!current) return;
    waiter = undefined;
    clearTimeout(current.timer);
    current.signal.removeEventListener('abort', current.onAbort);
    ctx.hub.liveness.heard(id);
    current.resolve(result());
  };

  const close = (keepQueue: boolean) => {
    if (!open) return;
    open = false;
    // A poll waiting now takes what was queued before the close (a farewell such as
    // user.deactivated); the next one learns the connection is gone.
    answer(() => (keepQueue && frames.length ? { frames: take() } : { closed: true }));
    frames = [];
    bytes = 0;
    ctx.hub.liveness.forget(id);
    ctx.hub.unsent.forget(id);
    dropConnection(ctx, id);
  };

  const connection: LongPollConnection = {
    id,
    userId: user.id,
    anonymous: user.anonymous,
    transport: 'longpoll',
    watching: new Set(),
    get open() {
      return open;
    },
    send: (frame, encoded) => {
      if (!open) return;
      frames.push(frame);
      bytes += encoded?.length ?? Buffer.byteLength(frame);
      // Events raised together (a message and its notifications) leave in one answer.
      if (waiter && !flushing) {
        flushing = true;
        setImmediate(() => {
          flushing = false;
          if (frames.length) answer(() => ({ frames: take() }));
        });
      }
      ctx.hub.unsent.sent(id, bytes);
    },
    close: () => close(true),
    poll(signal, holdMs) {
      if (!open) return Promise.resolve({ closed: true });
      ctx.hub.liveness.heard(id);
      // A newer poll replaces an older one still waiting (the client gave up on it): the older
      // one is answered empty, so nothing queued is handed to a request nobody reads.
      answer(() => ({ frames: [] }));
      if (frames.length) return Promise.resolve({ frames: take() });
      return new Promise<PollResult>((resolve) => {
        const onAbort = () => {
          if (waiter?.resolve !== resolve) return;
          clearTimeout(waiter.timer);
          waiter = undefined;
          resolve({ frames: [] });
        };
        const timer = setTimeout(() => answer(() => ({ frames: take() })), holdMs);
        timer.unref();
        waiter = { resolve, timer, signal, onAbort };
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      });
    },
  };

  ctx.hub.unsent.track(id, {
    unsent: () => bytes,
    // Over the bound the queue is let go at once; the client reconnects on code 46.
    cutOff: () => close(false),
  });
  ctx.hub.liveness.track(id, { expire: () => close(true) });
  return connection;
}
