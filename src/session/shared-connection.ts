// One realtime connection per browser: the tabs of one site, API key and visitor share the socket
// (or long-poll) of the tab that holds a Web Lock, and `BroadcastChannel` carries its events to
// the others. The others make their REST calls as before, naming the holder's connection id, so
// what they watch is delivered on the one connection. When the holder closes, leaves or freezes,
// the lock passes to a waiting tab, which opens its own connection and recovers (the SDK's
// recoverState: a watch of its channels on the new connection, then `connection.recovered`);
// the others see the new connection id in its first health check and recover too.
import type { ConnectionOpen, Event, StableWSConnection, StreamChat } from 'stream-chat';

/** What goes between the tabs: the holder's events and health, a newcomer's question, the answer. */
type Note = { event: Event } | { online: boolean } | { hello: true } | { connected: Event | null };

// A follower's connect fails as a socket's would when the holder has no connection to share
// this long after it was asked (the holder's own connect may still succeed: see `wake`).
const CONNECT_TIMEOUT_MS = 10_000;

/** Events that came from the backend; what the SDK makes in each tab for itself is not relayed. */
const fromBackend = (event: Event) => !!event.created_at && event.type !== 'message.read_locally';

const connectionOf = (client: StreamChat) => client.wsConnection?.connectionID ?? client.wsFallback?.connectionID;
const healthy = (client: StreamChat) => !!(client.wsConnection?.isHealthy || client.wsFallback?.isHealthy());

/**
 * The connection a follower tab's client uses in place of its own socket: the parts of the SDK's
 * StableWSConnection the client reads (connectionID, isHealthy, isConnecting, connect, disconnect).
 */
class RelayedConnection {
  connectionID: string | undefined;
  isHealthy = false;
  isConnecting = false;
  private waiting: { resolve(open: ConnectionOpen): void; reject(error: Error): void } | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(
    private readonly client: StreamChat,
    private readonly ask: () => void,
  ) {}

  /** Resolves with the holder's connection (its first health check) once it has one. */
  connect(): Promise<ConnectionOpen> {
    this.closed = false;
    this.isConnecting = true;
    const opened = new Promise<ConnectionOpen>((resolve, reject) => (this.waiting = { resolve, reject }));
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.settle(new Error('The tab holding the chat connection has none to share')), CONNECT_TIMEOUT_MS);
    this.ask();
    return opened;
  }

  /** Whether a connect waits for the holder's answer. */
  get pending(): boolean {
    return !!this.waiting;
  }

  /** Ends the waiting connect with the holder's connection, an error, or what `outcome` settles to. */
  settle(outcome: ConnectionOpen | Error | Promise<ConnectionOpen | undefined | void>) {
    const waiting = this.waiting;
    this.waiting = null;
    this.isConnecting = false;
    clearTimeout(this.timer);
    if (!waiting) return;
    if (outcome instanceof Error) waiting.reject(outcome);
    else Promise.resolve(outcome).then((open) => waiting.resolve(open as ConnectionOpen), waiting.reject);
  }

  receive(note: Note) {
    if (this.closed) return;
    if ('online' in note && !note.online) this.setHealth(false);
    const event = 'event' in note ? note.event : 'connected' in note ? note.connected : null;
    if (!event) return;
    const id = event.type === 'health.check' ? event.connection_id : undefined;
    if (id && id !== this.connectionID) {
      // The holder has a connection this tab has not used yet: its first, or a new one after a
      // reconnect or a change of holder, on which this tab's channels must be watched again.
      const moved = !!this.connectionID && !this.waiting;
      this.connectionID = id;
      this.settle(event as ConnectionOpen);
      this.setHealth(true);
      this.client.dispatchEvent(event);
      if (moved) void this.client.recoverState().catch(() => undefined);
      return;
    }
    if (!this.connectionID || this.waiting) return;
    if (id) this.setHealth(true);
    this.client.dispatchEvent(event);
  }

  /** The browser came back online: a connection the holder kept meanwhile is healthy as it was. */
  resumed() {
    if (this.isHealthy && !this.closed) this.client.dispatchEvent({ type: 'connection.changed', online: true });
  }

  private setHealth(online: boolean) {
    if (online === this.isHealthy) return;
    this.isHealthy = online;
    this.client.dispatchEvent({ type: 'connection.changed', online });
  }

  disconnect(): Promise<void> {
    this.closed = true;
    this.isHealthy = false;
    this.connectionID = undefined;
    this.settle(new Error('Disconnected'));
    return Promise.resolve();
  }

  _destroyCurrentWSConnection() {}
}

export type ConnectionRole = 'holder' | 'follower' | 'frozen' | 'closed';

/**
 * This tab's part in the browser's one connection for `name` (API key, backend and visitor).
 * Made before the client connects; `open` answers null where the browser has no Web Locks or
 * BroadcastChannel, and each tab then keeps a connection of its own.
 */
export class SharedConnection {
  role: ConnectionRole = 'closed';
  private readonly bus: BroadcastChannel;
  private relay: RelayedConnection | null = null;
  private release: (() => void) | undefined;
  private readonly waitTurn = new AbortController();
  private stopHolding: Array<() => void> = [];
  private readonly stopListening: Array<() => void> = [];
  /** The unread totals last heard, so a newcomer's connection starts with the current ones. */
  private unread: Partial<Pick<Event, 'total_unread_count' | 'unread_channels'>> = {};

  static async open(client: StreamChat, name: string, wake: () => void): Promise<SharedConnection | null> {
    if (!navigator.locks || typeof BroadcastChannel === 'undefined') return null;
    const shared = new SharedConnection(client, name, wake);
    await shared.claim();
    return shared;
  }

  private constructor(
    private readonly client: StreamChat,
    readonly name: string,
    /** Asks the session to connect again (it failed or has no connection, and one can be had now). */
    private readonly wake: () => void,
  ) {
    this.bus = new BroadcastChannel(name);
    this.bus.onmessage = ({ data }: MessageEvent<Note>) => this.hear(data);
    const listen = (target: EventTarget, type: string, handler: () => void) => {
      target.addEventListener(type, handler);
      this.stopListening.push(() => target.removeEventListener(type, handler));
    };
    // A frozen tab runs nothing: the holder lets another tab take the connection, and on resume
    // holds it again or follows whoever took it.
    listen(document, 'freeze', () => this.freeze());
    listen(document, 'resume', () => void this.resume());
    listen(window, 'online', () => this.relay?.resumed());
  }

  /** Holds the lock if no tab does, else follows the tab that holds it. */
  private claim(): Promise<void> {
    return new Promise((decided) => {
      void navigator.locks.request(this.name, { ifAvailable: true }, (lock) => {
        if (!lock) {
          this.follow();
          decided();
          return undefined;
        }
        this.hold();
        decided();
        return this.held();
      });
    });
  }

  /** The lock stays this tab's until `release` is called. */
  private held(): Promise<void> {
    return new Promise((resolve) => (this.release = resolve));
  }

  private hear(note: Note) {
    if (this.role === 'holder' && 'hello' in note) {
      const me = this.client.user && { ...this.client.user, ...this.unread };
      const id = connectionOf(this.client);
      const online = healthy(this.client);
      this.post({ connected: online && id && me ? ({ type: 'health.check', connection_id: id, cid: '*', me, created_at: new Date().toISOString() } as Event) : null });
      return;
    }
    if (this.role !== 'follower') return;
    this.relay?.receive(note);
    // The holder has a connection while this tab's session failed or closed its own: try again.
    const id = 'event' in note && note.event.type === 'health.check' ? note.event.connection_id : undefined;
    if (id && this.client.wsConnection !== this.relay) this.wake();
  }

  private post(note: Note) {
    try {
      this.bus.postMessage(note);
    } catch {
      // An event that cannot be cloned is not relayed; the next recovery brings what it said.
    }
  }

  /** This tab's connection is the browser's: every event from the backend and its health go to the others. */
  private hold() {
    this.role = 'holder';
    const { unsubscribe } = this.client.on((event) => {
      if (event.type === 'connection.changed') this.post({ online: !!event.online });
      if (!fromBackend(event)) return;
      const { total_unread_count, unread_channels } = event;
      if (typeof total_unread_count === 'number') this.unread = { total_unread_count, unread_channels };
      this.post({ event });
    });
    this.stopHolding.push(unsubscribe);
  }

  private stopHold() {
    this.stopHolding.splice(0).forEach((stop) => stop());
    this.release?.();
    this.release = undefined;
  }

  /** Another tab holds the connection: this client uses it, and waits its turn to hold it. */
  private follow() {
    this.role = 'follower';
    const relay = new RelayedConnection(this.client, () => this.post({ hello: true }));
    this.relay = relay;
    this.client.connect = async () => {
      this.client.wsConnection = relay as unknown as StableWSConnection;
      return relay.connect();
    };
    void navigator.locks
      .request(this.name, { signal: this.waitTurn.signal }, () => {
        if (this.role === 'closed') return undefined;
        void this.takeOver();
        return this.held();
      })
      .catch(() => undefined);
  }

  /** The holder is gone: this tab opens the connection (the SDK's own) and recovers its channels. */
  private async takeOver() {
    const relay = this.relay;
    this.relay = null;
    delete (this.client as Partial<Pick<StreamChat, 'connect'>>).connect;
    this.hold();
    const { client } = this;
    if (relay?.pending) {
      // The session is connecting through the relay: the same attempt goes on with a socket.
      relay.settle(client.connect());
      return;
    }
    if (!relay || client.wsConnection !== (relay as unknown as StableWSConnection) || !client.userID) {
      this.wake();
      return;
    }
    await relay.disconnect();
    client.wsConnection = null;
    try {
      await client.openConnection();
      await client.recoverState();
    } catch {
      this.wake();
    }
  }

  private freeze() {
    if (this.role !== 'holder') return;
    this.stopHold();
    this.role = 'frozen';
  }

  /** Back from a freeze: hold the connection again if nobody took it, else use the one who did. */
  private async resume() {
    if (this.role !== 'frozen') return;
    const { client } = this;
    const own = client.userID && (client.wsConnection || client.wsFallback);
    await this.claim();
    if ((this.role as ConnectionRole) !== 'follower' || !own) return;
    await client.closeConnection().catch(() => undefined);
    client.wsConnection = null;
    client.wsFallback = undefined;
    try {
      await client.openConnection();
      await client.recoverState();
    } catch {
      this.wake();
    }
  }

  /** The session closed: the lock goes to a waiting tab, and this one stops hearing the others. */
  close() {
    if (this.role === 'closed') return;
    this.role = 'closed';
    this.stopHold();
    this.waitTurn.abort();
    this.stopListening.splice(0).forEach((stop) => stop());
    void this.relay?.disconnect();
    this.relay = null;
    delete (this.client as Partial<Pick<StreamChat, 'connect'>>).connect;
    this.bus.close();
  }
}
