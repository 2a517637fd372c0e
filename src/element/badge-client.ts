// The unread count of a returning visitor whose chat is closed, without the chat: a few hundred
// lines of the provider's realtime protocol instead of stream-chat and the panel. It runs in a
// worker of its own (entries/badge-worker.ts, started by badge-host.ts), so its request, its
// socket and its events cost the page's main thread nothing. It learns who the visitor is as the
// session would (the site's token endpoint, or this browser's guest), opens the socket the SDK
// would (`/connect`, health checks every 25 s), and reads the events that carry the count. It
// takes part in the browser's one connection (contract/shared-connection.ts): it holds the
// connection only where no tab does, relays its events to the others as the SDK's holder does,
// and otherwise follows the tab that holds it. When the visitor reaches for the bubble it lets
// go of its socket before the SDK opens one (pause, stop). What it cannot do (the token
// endpoint's error, any refused handshake, an expired token among them, `GET /unread` refused,
// sockets the network or the page's policy refuses while the API answers) it hands to the full
// chat (listener.fallback), which copes as before.
import type { ChannelRef } from '../contract/attributes';
import { guestDetails, readGrant } from '../contract/token-grant';
import { connectionLockName, fromBackend, type ConnectionNote } from '../contract/shared-connection';
import type { Event, MessageResponse, OwnUserResponse } from 'stream-chat';
import { requestToken } from '../browser/token-request';
import { PolicyBlocked, unlessBlocked } from '../browser/policy-blocks';

export interface BadgeIdentity {
  apiKey: string;
  baseUrl: string | null;
  tokenEndpoint: string | null;
  userName: string | null;
  /** The widget's channel: its unread count is the badge's (else the total over all channels). */
  channel: ChannelRef | null;
  /** This browser's guest, read from the page's storage (a worker has none). */
  guestId: string | null;
}

/** What the page tells the badge's worker; a pause or stop is answered with `left` and its number once the socket has closed. */
export type ToBadge = { start: BadgeIdentity } | { pause: number } | { resume: true } | { stop: number };
/** What the badge's worker tells the page: the listener's calls, and a pause's or stop's end. */
export type FromBadge = { count: number } | { message: MessageResponse; own: boolean } | { fallback: true } | { left: number };

export interface BadgeListener {
  count(count: number): void;
  /** A message from someone else, in a channel the visitor has not muted; `own`: in the widget's channel. */
  message(message: MessageResponse, own: boolean): void;
  /** This client cannot show the count: the full chat should. */
  fallback(): void;
}

const DEFAULT_BASE_URL = 'https://chat.stream-io-api.com';
/** The SDK's rhythm: a ping every 25 s; a connection that said nothing for 35 s is dead. */
const PING_MS = 25_000;
const SILENT_MS = 35_000;
/** Waits before reconnecting, one per consecutive failure (the last repeats), with some jitter. */
const RETRY_MS = [250, 1000, 2000, 5000, 10_000, 20_000];
/** A socket that fails this many times in a row, never having opened, while the API answers, is refused by the network. */
const SOCKET_REFUSALS = 3;
/** A holder that has not answered a newcomer this long is stuck (a hung tab): the newcomer connects on its own, as the session's follower does. */
const STAND_ALONE_AFTER_MS = 20_000;
/** How long a pause waits for its socket to close before going on regardless. */
const CLOSE_WAIT_MS = 1000;
/** The kinds of event that may change a channel's unread count (typing, presence and reactions do not). */
const COUNTING = /^(message|notification|channel)\./;

type Grant = { token: string; user: { id: string } & Record<string, unknown>; channel: ChannelRef | null };
type Role = 'idle' | 'holder' | 'follower' | 'paused' | 'stopped';

class Refused extends Error {}

export class BadgeClient {
  private role: Role = 'idle';
  private grant: Grant | null = null;
  private socket: WebSocket | null = null;
  private connection: string | null = null;
  private me: OwnUserResponse | null = null;
  private bus: BroadcastChannel | null = null;
  private release: (() => void) | null = null;
  private waitTurn: AbortController | null = null;
  /** The retries and waits of the current turn: a pause or stop aborts them all. */
  private turn = new AbortController();
  /** Settles once every earlier pause or stop has closed its socket and let go of the lock. */
  private leaving: Promise<void> = Promise.resolve();
  /** Whether join ran since the last leave (it must not open a second channel or lock request). */
  private joined = false;
  /** A follower with a socket of its own while the holder is stuck: it relays nothing and takes the lock when its turn comes. */
  private alone = false;
  private standAlone: ReturnType<typeof setTimeout> | undefined;
  private ping: ReturnType<typeof setTimeout> | undefined;
  private silence: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  private identifying = false;
  private opened = false;
  private asked: ReturnType<typeof setTimeout> | undefined;
  /** The latest `GET /unread` asked: an older answer arriving later is dropped. */
  private askNo = 0;
  /** The connection whose first health check was heard (a new one may have missed changes). */
  private heard: string | undefined;
  private readonly baseURL: string;

  constructor(
    readonly identity: BadgeIdentity,
    private readonly listener: BadgeListener,
  ) {
    this.baseURL = identity.baseUrl ?? DEFAULT_BASE_URL;
  }

  /** Learns who the visitor is, then holds or follows the browser's connection. */
  start(): void {
    if (this.role !== 'idle') return;
    this.role = 'follower';
    this.enter();
  }

  private enter() {
    if (this.identifying) return;
    this.identifying = true;
    this.identify().then(
      () => {
        this.identifying = false;
        if (this.role === 'follower') this.join();
      },
      (error: unknown) => {
        this.identifying = false;
        if (error instanceof Refused) this.giveUp();
        // Unreachable (offline, the site or the backend down): the count last known stays meanwhile.
        else if (this.role === 'follower') this.later(() => this.enter());
      },
    );
  }

  /**
   * Lets go of the socket and the browser's connection (the visitor reaches for the chat): resolves
   * once the socket has closed, also when an earlier pause is still closing it. resume takes part again.
   */
  pause(): Promise<void> {
    if (this.role === 'stopped' || this.role === 'paused') return this.leaving;
    this.role = 'paused';
    return this.leave();
  }

  /** After a pause: follows the tab that now holds the connection, or holds it again once free. */
  resume(): void {
    if (this.role !== 'paused') return;
    this.role = 'follower';
    void this.leaving.then(() => {
      if (this.role !== 'follower') return;
      if (this.grant) this.join();
      else this.enter();
    });
  }

  /** Done for good (the chat is shown, or the identity changed): the socket is closed when this resolves. */
  stop(): Promise<void> {
    if (this.role === 'stopped') return this.leaving;
    this.role = 'stopped';
    return this.leave();
  }

  private giveUp() {
    if (this.role === 'stopped') return;
    void this.stop();
    this.listener.fallback();
  }

  /** Runs `run` after the next wait of the backoff, unless this turn ends first (a pause or stop). */
  private later(run: () => void) {
    const delay = (RETRY_MS[Math.min(this.failures, RETRY_MS.length - 1)] ?? 0) * (0.8 + Math.random() * 0.4);
    this.failures += 1;
    const { signal } = this.turn;
    const timer = setTimeout(() => {
      // Offline: the browser says when it is back.
      if (navigator.onLine === false) globalThis.addEventListener('online', run, { once: true, signal });
      else run();
    }, delay);
    signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  }

  /** The token and the user, as the session would get them: the site's endpoint, or this browser's guest. */
  private async identify(): Promise<void> {
    const { tokenEndpoint, userName, channel, guestId: id } = this.identity;
    if (tokenEndpoint) {
      let response: Response;
      try {
        response = await requestToken(tokenEndpoint);
      } catch (error) {
        if (error instanceof PolicyBlocked) throw new Refused();
        throw error;
      }
      // An answer the session would refuse is the full chat's to say.
      const grant = response.ok ? readGrant(await response.json().catch(() => null)) : 'shape';
      if (typeof grant === 'string') throw new Refused();
      // The site's server may choose the visitor's conversation, which wins over the attribute.
      this.grant = { token: grant.token, user: grant.user, channel: grant.channel ?? channel };
      return;
    }
    if (!id) throw new Refused();
    const response = await this.api('POST', '/guest', null, { user: { id, name: userName ?? 'Guest' } });
    const { user, access_token } = (await response.json()) as { user: Grant['user']; access_token: string };
    this.grant = { token: access_token, user: guestDetails(user), channel };
  }

  /** A REST call as the SDK makes it; a refusal is Refused, a network failure throws as fetch does. */
  private async api(method: 'GET' | 'POST', path: string, token: string | null, body?: unknown): Promise<Response> {
    const url = new URL(`${this.baseURL.replace(/\/$/, '')}${path}`);
    url.searchParams.set('api_key', this.identity.apiKey);
    if (token && this.grant) url.searchParams.set('user_id', this.grant.user.id);
    const headers: Record<string, string> = { 'stream-auth-type': token ? 'jwt' : 'anonymous' };
    if (token) headers.Authorization = token;
    if (body) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await unlessBlocked(url.href, () => fetch(url, { method, headers, body: body ? JSON.stringify(body) : undefined }));
    } catch (error) {
      if (error instanceof PolicyBlocked) throw new Refused();
      throw error;
    }
    if (!response.ok && response.status < 500 && response.status !== 429) throw new Refused();
    if (!response.ok) throw new Error();
    return response;
  }

  /** Holds the browser's connection if no tab does, else follows the one that does (and waits its turn). */
  private join() {
    if (this.joined || this.role !== 'follower') return;
    this.joined = true;
    const name = connectionLockName(this.identity.apiKey, this.baseURL, this.grant!.user.id);
    if (!navigator.locks || typeof BroadcastChannel === 'undefined') {
      this.role = 'holder';
      return this.connect();
    }
    try {
      this.bus = new BroadcastChannel(name);
    } catch {
      this.role = 'holder';
      return this.connect();
    }
    this.bus.onmessage = ({ data }: MessageEvent<ConnectionNote>) => this.hear(data);
    const hold = () => {
      if (this.role !== 'follower') return undefined;
      // A follower that stood alone keeps its socket: it is now the browser's.
      clearTimeout(this.standAlone);
      this.alone = false;
      this.role = 'holder';
      // Releasable before the socket is tried: a socket that cannot even be made gives up at once.
      const held = new Promise<void>((resolve) => (this.release = resolve));
      this.connect();
      return held;
    };
    navigator.locks
      .request(name, { ifAvailable: true }, (lock) => {
        if (this.role !== 'follower') return undefined;
        if (lock) return hold();
        // Another tab holds it: its events come on the channel; this tab's turn comes when it leaves.
        this.post({ hello: true });
        this.standAlone = setTimeout(() => {
          if (this.role !== 'follower' || this.alone) return;
          this.alone = true;
          this.connect();
        }, STAND_ALONE_AFTER_MS);
        const waitTurn = (this.waitTurn = new AbortController());
        navigator.locks.request(name, { signal: waitTurn.signal }, hold).catch(() => undefined);
        return undefined;
      })
      .catch(() => {
        // Locks refused (an opaque origin): a connection of its own.
        this.bus?.close();
        this.bus = null;
        if (this.role !== 'follower') return;
        this.role = 'holder';
        this.connect();
      });
  }

  /** What the other tabs say: the holder's events, or a newcomer asking for the connection. */
  private hear(note: ConnectionNote) {
    if (this.role === 'holder') {
      // The answer to a newcomer: the connection as its first health check said it, with the current counts.
      if ('hello' in note && this.connection && this.me) {
        this.post({ connected: { type: 'health.check', connection_id: this.connection, cid: '*', me: this.me, created_at: new Date().toISOString() } as Event });
      }
      return;
    }
    // Standing alone, its own socket tells it all.
    if (this.role !== 'follower' || this.alone) return;
    if ('event' in note || 'connected' in note) clearTimeout(this.standAlone);
    if ('event' in note) this.read(note.event);
    else if ('connected' in note) this.read(note.connected);
  }

  private post(note: ConnectionNote, bus = this.bus) {
    try {
      bus?.postMessage(note);
    } catch {
      // an event that cannot be cloned is not relayed
    }
  }

  private connect() {
    if ((this.role !== 'holder' && !this.alone) || this.socket || !this.grant) return;
    const { user, token } = this.grant;
    const params = new URLSearchParams({
      json: JSON.stringify({ user_id: user.id, user_details: user, client_request_id: crypto.randomUUID?.() ?? String(Math.random()) }),
      api_key: this.identity.apiKey,
      authorization: token,
      'stream-auth-type': 'jwt',
    });
    let socket: WebSocket;
    try {
      socket = new WebSocket(`${this.baseURL.replace('http', 'ws')}/connect?${params}`);
    } catch (error) {
      return this.giveUp();
    }
    this.socket = socket;
    // A socket that never answers its handshake is given up like a silent one.
    this.keepAlive();
    let answered = false;
    socket.onmessage = ({ data }) => {
      if (typeof data !== 'string') return;
      let event: Event & { error?: { code?: number; message?: string } };
      try {
        event = JSON.parse(data);
      } catch {
        return;
      }
      if (!answered) {
        answered = true;
        // Refused (a token expired on a page open for hours, say): the full chat knows what to do.
        if (event.error) return this.giveUp();
        this.opened = true;
      }
      this.keepAlive();
      if (event.type === 'health.check' && event.connection_id) {
        if (event.me) this.me = event.me;
        this.connection = event.connection_id;
        this.pingLater();
      }
      if (fromBackend(event) && this.role === 'holder') this.post({ event });
      this.read(event);
    };
    socket.onclose = () => this.lost(socket);
  }

  /** The socket closed or went silent: the other tabs hear it, and it connects again. */
  private lost(socket: WebSocket) {
    if (this.socket !== socket) return;
    this.dropSocket();
    socket.close();
    if (this.role !== 'holder' && !this.alone) return;
    if (this.role === 'holder') this.post({ offline: true });
    // Refused again and again, never opened: if the API answers meanwhile, the network or a proxy
    // refuses WebSockets. The SDK would poll instead; the full chat does.
    if (!this.opened && this.failures + 1 >= SOCKET_REFUSALS && this.grant) {
      const { signal } = this.turn;
      void this.api('GET', '/unread', this.grant.token).then(
        () => signal.aborted || this.giveUp(),
        (error: unknown) => signal.aborted || (error instanceof Refused ? this.giveUp() : this.later(() => this.connect())),
      );
      return;
    }
    this.later(() => this.connect());
  }

  private pingLater() {
    clearTimeout(this.ping);
    const socket = this.socket;
    this.ping = setTimeout(() => {
      // A connection alive this long is a good one: the next loss starts the backoff again.
      this.failures = 0;
      if (socket === this.socket && socket?.readyState === WebSocket.OPEN) {
        socket.send(JSON.stringify([{ type: 'health.check', client_id: `${this.grant?.user.id}--${this.connection}` }]));
      }
    }, PING_MS);
  }

  /** A connection that stays silent past the backend's health checks is dead though not closed (a sleeping laptop). */
  private keepAlive() {
    clearTimeout(this.silence);
    const socket = this.socket;
    this.silence = setTimeout(() => socket && this.lost(socket), SILENT_MS);
  }

  private dropSocket() {
    clearTimeout(this.ping);
    clearTimeout(this.silence);
    this.socket = null;
    this.connection = null;
  }

  /** An event from the backend, heard on this tab's socket or relayed by the holder's tab. */
  private read(event: Event) {
    const { grant } = this;
    if (!grant) return;
    if (event.me) this.me = event.me;
    const home = grant.channel && `${grant.channel.type}:${grant.channel.id}`;
    if ((event.type === 'message.new' || event.type === 'notification.message_new') && event.message && event.user?.id !== grant.user.id) {
      const now = Date.now();
      const mutes = this.me?.channel_mutes ?? [];
      const muted = mutes.some((mute) => mute.channel?.cid === event.cid && (!mute.expires || new Date(mute.expires).getTime() > now));
      if (!muted) this.listener.message(event.message, event.cid === home);
    }
    const total = event.total_unread_count ?? (event.type === 'health.check' ? event.me?.total_unread_count : undefined);
    if (typeof total === 'number' && this.me) {
      this.me = { ...this.me, total_unread_count: total, unread_channels: event.unread_channels ?? this.me.unread_channels };
    }
    const newConnection = event.type === 'health.check' && event.connection_id !== this.heard;
    if (event.type === 'health.check') this.heard = event.connection_id;
    if (!grant.channel) {
      if (typeof total === 'number') this.listener.count(total);
    } else if (total === 0) {
      // Nothing unread anywhere: nothing in the widget's channel either, without asking.
      this.askNo += 1;
      this.listener.count(0);
    } else if (typeof total === 'number' || newConnection || (event.cid === home && COUNTING.test(event.type))) {
      this.askUnread();
    }
  }

  /** The widget's channel's count, which no event carries for a channel not watched: asked of the API, a burst of events asking once. */
  private askUnread() {
    clearTimeout(this.asked);
    this.asked = setTimeout(async () => {
      const { grant } = this;
      if (!grant?.channel || this.role === 'stopped' || this.role === 'paused') return;
      const cid = `${grant.channel.type}:${grant.channel.id}`;
      const ask = ++this.askNo;
      try {
        const response = await this.api('GET', '/unread', grant.token);
        const { channels } = (await response.json()) as { channels?: Array<{ channel_id: string; unread_count: number }> };
        if (ask !== this.askNo || (this.role as Role) === 'stopped' || (this.role as Role) === 'paused') return;
        this.listener.count(channels?.find((channel) => channel.channel_id === cid)?.unread_count ?? 0);
      } catch (error) {
        // Refused (an app without the endpoint, say): the full chat counts instead. Else the next event asks again.
        if (error instanceof Refused) this.giveUp();
      }
    }, 50);
  }

  /**
   * Ends this turn: its retries, its socket, its lock and its channel to the other tabs. The lock
   * goes once the socket has closed (at most CLOSE_WAIT_MS later), so that whoever takes
   * it next does not open a socket beside this one. What this turn held is taken now, so that a
   * turn joined meanwhile keeps its own; the promise settles after every earlier leave.
   */
  private leave(): Promise<void> {
    this.turn.abort();
    this.turn = new AbortController();
    clearTimeout(this.asked);
    this.askNo += 1;
    this.waitTurn?.abort();
    this.waitTurn = null;
    this.joined = false;
    clearTimeout(this.standAlone);
    this.alone = false;
    const { socket, bus, release } = this;
    this.dropSocket();
    this.bus = null;
    this.release = null;
    // The tabs that used this connection take it over once the lock is free.
    if (socket) this.post({ offline: true }, bus);
    const closed =
      socket && socket.readyState !== WebSocket.CLOSED
        ? new Promise<unknown>((resolve) => {
            socket.onclose = resolve;
            socket.onmessage = null;
            socket.close();
            setTimeout(resolve, CLOSE_WAIT_MS);
          })
        : null;
    const left = (closed ?? Promise.resolve()).then(() => {
      release?.();
      bus?.close();
    });
    this.leaving = Promise.all([this.leaving, left]).then(() => undefined);
    return this.leaving;
  }
}
