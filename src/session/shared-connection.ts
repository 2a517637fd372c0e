// One realtime connection per browser: the tabs of one site, API key and visitor share the socket
// (or long-poll) of the tab that holds a Web Lock, and `BroadcastChannel` carries its events to
// the others. The others make their REST calls as before, naming the holder's connection id, so
// what they watch is delivered on the one connection. When the holder closes, leaves, freezes or
// fails to connect, the lock passes to a waiting tab, which opens its own connection and recovers
// (the SDK's recoverState: a watch of its channels on the new connection, then
// `connection.recovered`); the others see the new connection id in its first health check and
// recover too.
import type { ConnectionOpen, Event, StableWSConnection, StreamChat } from 'stream-chat';
import { isConnected } from './connection-state';
import { fromBackend, type ConnectionNote as Note } from '../contract/shared-connection';

// A holder that has shared no connection this long after a follower asked is taken to be stuck
// (a busy or hung tab): the follower opens a connection of its own rather than wait on.
const STAND_ALONE_AFTER_MS = 20_000;

/**
 * The connection a follower tab's client uses in place of its own socket: the parts of the SDK's
 * StableWSConnection the client reads (connectionID, isHealthy, isConnecting, connect, disconnect).
 */
class RelayedConnection {
  connectionID: string | undefined;
  isHealthy = false;
  isConnecting = false;
  closed = false;
  private waiting: { resolve(open: ConnectionOpen): void; reject(error: Error): void } | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The channels' recovery on the current connection failed: tried again at its next health check. */
  private unrecovered = false;

  constructor(
    private readonly client: StreamChat,
    private readonly ask: () => void,
    private readonly standAlone: () => void,
  ) {}

  /** Resolves with the holder's connection (its health check) once it has one. */
  connect(): Promise<ConnectionOpen> {
    this.closed = false;
    this.isConnecting = true;
    const opened = new Promise<ConnectionOpen>((resolve, reject) => (this.waiting = { resolve, reject }));
    clearTimeout(this.timer);
    this.timer = setTimeout(this.standAlone, STAND_ALONE_AFTER_MS);
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
    if ('offline' in note) return this.setHealth(false);
    // A newcomer's answer is for a connect that waits; the others have heard it all already.
    const event = 'event' in note ? note.event : 'connected' in note && this.waiting ? note.connected : null;
    if (!event) return;
    const id = event.type === 'health.check' ? event.connection_id : undefined;
    if (id && id !== this.connectionID) {
      // The holder has a connection this tab has not used yet: its first, or a new one after a
      // reconnect or a change of holder, on which this tab's channels must be watched again.
      const moved = !this.waiting;
      this.connectionID = id;
      this.settle(event as ConnectionOpen);
      this.setHealth(true);
      this.client.dispatchEvent(event);
      if (moved) this.recover();
      return;
    }
    if (!this.connectionID || this.waiting) return;
    if (id) {
      this.setHealth(true);
      if (this.unrecovered) this.recover();
    }
    this.client.dispatchEvent(event);
  }

  private recover() {
    this.unrecovered = false;
    this.client.recoverState().catch(() => (this.unrecovered = true));
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
}

export type ConnectionRole = 'holder' | 'follower' | 'frozen' | 'closed';

/**
 * This tab's part in the browser's one connection for `name` (API key, backend and visitor).
 * Made before the client connects; `open` answers null where the browser has no Web Locks or
 * BroadcastChannel (or refuses them, as an opaque origin does), and each tab then keeps a
 * connection of its own.
 */
export class SharedConnection {
  role: ConnectionRole = 'follower';
  private readonly bus: BroadcastChannel;
  private relay: RelayedConnection | null = null;
  private release: (() => void) | undefined;
  private waitTurn: AbortController | null = null;
  private readonly stopHolding: Array<() => void> = [];
  private readonly stopListening: Array<() => void> = [];
  /** The unread totals last heard, so a newcomer's connection starts with the current ones. */
  private unread: Partial<Pick<Event, 'total_unread_count' | 'unread_channels'>> = {};

  static async open(client: StreamChat, name: string, wake: () => void): Promise<SharedConnection | null> {
    if (!navigator.locks || typeof BroadcastChannel === 'undefined') return null;
    const shared = new SharedConnection(client, name, wake);
    try {
      await shared.claim();
      return shared;
    } catch {
      shared.close();
      return null;
    }
  }

  private constructor(
    private readonly client: StreamChat,
    readonly name: string,
    /** Asks the session to connect again (it failed for want of a network, and one may be had now). */
    private readonly wake: () => void,
  ) {
    this.bus = new BroadcastChannel(name);
    this.bus.onmessage = ({ data }: MessageEvent<Note>) => this.hear(data);
    const listen = (target: EventTarget, type: string, handler: () => void) => {
      target.addEventListener(type, handler);
      this.stopListening.push(() => target.removeEventListener(type, handler));
    };
    // A frozen tab runs nothing: it neither holds the connection nor waits for it meanwhile.
    listen(document, 'freeze', () => this.freeze());
    listen(document, 'resume', () => void this.resume());
    listen(window, 'online', () => this.relay?.resumed());
  }

  /** Holds the lock if no tab does, else follows the tab that holds it. Rejects where locks are refused. */
  private claim(): Promise<void> {
    return new Promise((decided, refused) => {
      navigator.locks
        .request(this.name, { ifAvailable: true }, (lock) => {
          if (!lock) {
            this.follow();
            decided();
            return undefined;
          }
          this.hold();
          decided();
          return this.held();
        })
        .catch(refused);
    });
  }

  /** The lock stays this tab's until `release` is called. */
  private held(): Promise<void> {
    return new Promise((resolve) => (this.release = resolve));
  }

  private hear(note: Note) {
    if (this.role === 'holder' && 'hello' in note) {
      // Not connected yet: its first health check, relayed when it comes, is the answer.
      const id = this.client._getConnectionID();
      if (!id || !isConnected(this.client)) return;
      const { client } = this;
      const me = { ...client.user, mutes: client.mutedUsers, channel_mutes: client.mutedChannels, ...this.unread };
      this.post({ connected: { type: 'health.check', connection_id: id, cid: '*', me, created_at: new Date().toISOString() } as Event });
    } else if (this.role === 'follower') this.relay?.receive(note);
  }

  private post(note: Note) {
    try {
      this.bus.postMessage(note);
    } catch {
      // An event that cannot be cloned is not relayed; the next recovery brings what it said.
    }
  }

  /** This tab's connection is the browser's: every event from the backend, and its loss, go to the others. */
  private hold() {
    this.role = 'holder';
    const { unsubscribe } = this.client.on((event) => {
      if (event.type === 'connection.changed' && !event.online) this.post({ offline: true });
      if (!fromBackend(event)) return;
      const total = event.total_unread_count ?? event.me?.total_unread_count;
      if (typeof total === 'number') this.unread = { total_unread_count: total, unread_channels: event.unread_channels ?? event.me?.unread_channels };
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
    const relay = new RelayedConnection(this.client, () => this.post({ hello: true }), () => this.standAlone());
    this.relay = relay;
    this.client.connect = async () => {
      this.client.wsConnection = relay as unknown as StableWSConnection;
      return relay.connect();
    };
    this.waitForTurn();
  }

  private waitForTurn() {
    const waitTurn = (this.waitTurn = new AbortController());
    navigator.locks
      .request(this.name, { signal: waitTurn.signal }, () => {
        if (this.role !== 'follower') return undefined;
        void this.takeOver();
        return this.held();
      })
      .catch(() => undefined);
  }

  /** The relay is done with: the client's own `connect` (the SDK's socket) is used again. */
  private dropRelay(): RelayedConnection | null {
    const relay = this.relay;
    this.relay = null;
    delete (this.client as Partial<Pick<StreamChat, 'connect'>>).connect;
    return relay;
  }

  /** The holder shares nothing (stuck): this tab's connect goes on with a socket of its own, and it still waits its turn. */
  private standAlone() {
    this.dropRelay()?.settle(this.client.connect());
  }

  /** The holder is gone: this tab opens the connection (the SDK's own) and recovers its channels. */
  private async takeOver() {
    const relay = this.dropRelay();
    const { client } = this;
    if (relay?.pending) {
      // The session is connecting through the relay: the same attempt goes on with a socket.
      this.hold();
      relay.settle(client.connect());
    } else if (relay && client.wsConnection === (relay as unknown as StableWSConnection) && client.userID) {
      this.hold();
      await relay.disconnect();
      await this.reopen();
    } else if (client.wsConnection && client.userID) {
      // It already had a connection of its own (the holder was stuck): now it is the browser's.
      this.hold();
    } else {
      // No connection to share (its session failed or ended): the lock goes to the next tab.
      this.close();
      this.wake();
    }
  }

  /** The client's connection is replaced (the relay by a socket, or the other way): opened anew, its channels watched on it. */
  private async reopen() {
    const { client } = this;
    client.wsConnection = null;
    client.wsFallback = undefined;
    try {
      await client.openConnection();
      await client.recoverState();
    } catch {
      this.wake();
    }
  }

  private freeze() {
    this.waitTurn?.abort();
    if (this.role !== 'holder') return;
    this.stopHold();
    this.role = 'frozen';
  }

  /** Back from a freeze: wait for the connection again, or hold it again if nobody took it, else use the one who did. */
  private async resume() {
    if (this.role === 'follower') return this.waitForTurn();
    if (this.role !== 'frozen') return;
    const { client } = this;
    const own = client.userID && (client.wsConnection || client.wsFallback);
    await this.claim().catch(() => undefined);
    if ((this.role as ConnectionRole) !== 'follower' || !own) return;
    await client.closeConnection().catch(() => undefined);
    await this.reopen();
  }

  /** The session closed or failed: the lock goes to a waiting tab, and this one stops hearing the others. */
  close() {
    if (this.role === 'closed') return;
    this.role = 'closed';
    this.stopHold();
    this.waitTurn?.abort();
    this.stopListening.splice(0).forEach((stop) => stop());
    void this.dropRelay()?.disconnect();
    this.bus.close();
  }
}
