import { StateStore, StreamChat, type Channel, type Event, type TokenOrProvider, type UserResponse } from 'stream-chat';
import type { ChannelRef } from '../contract/attributes';
import { ChannelHandle } from './channel-handle';
import { setupComposer, type ComposerOptions } from './composer-setup';
import { startLiveLocations } from './live-locations';
import { watchPolicyBlocks } from '../browser/policy-blocks';
import { closedAccount, SessionError, toSessionError } from './session-error';
import { text } from '../i18n/translate';
import { fetchToken } from './token-endpoint';
import { refreshExpiredTokens, shared } from './token-freshness';
import { closeOutbox, forgetOutbox } from './outbox';
import { forgetCache, readCache, saveAppSettings, saveChannels, type VisitorCache } from './visitor-cache';
import { newGuestId, visitorStorage } from '../browser/visitor-storage';
import { SharedConnection } from './shared-connection';
import { connectionLockName } from '../contract/shared-connection';
import { guestDetails } from '../contract/token-grant';

export type ConnectionStatus = 'idle' | 'connecting' | 'connected' | 'offline' | 'error';

export type SessionState = {
  status: ConnectionStatus;
  error: SessionError | null;
  /** Something the site must fix although the chat works (its policy blocks the socket). */
  warning: SessionError | null;
  userId: string | null;
  /** Unread messages over all of the user's channels, as the backend counts them. */
  totalUnread: number;
  /** The conversation the token endpoint chose for this visitor; it wins over the attribute. */
  channel: ChannelRef | null;
  /**
   * The panel shows what this browser kept of the conversation (see visitor-cache.ts): before the
   * connection answers, or, when the chat cannot be reached, instead of "could not be opened".
   * Counts up each time the kept channels are put in the client again.
   */
  cached: number;
};

/** Everything that decides who the visitor is and where the chat lives. */
export interface SessionIdentity {
  apiKey: string;
  baseUrl: string | null;
  tokenEndpoint: string | null;
  userName: string | null;
}

// Moving an element in the page unmounts and remounts it: wait this long before
// treating "no element holds the session" as "the widget left the page".
const RELEASE_GRACE_MS = 1000;
// A session started on the visitor's intent (a pointer over the launcher, its focus, a touch)
// that no panel has taken within this long closes: the visitor did not click.
const PREPARED_GRACE_MS = 30_000;

/**
 * One connected user on one `stream-chat` client, shared by every `<chat-widget>` on
 * the page with the same identity. It connects only when asked (first open, or at page
 * load for a browser that already had a session), and disconnects when the last
 * element holding it is gone.
 */
export class ChatSession {
  readonly client: StreamChat;
  readonly state = new StateStore<SessionState>({ status: 'idle', error: null, warning: null, userId: null, totalUnread: 0, channel: null, cached: 0 });

  private connecting: Promise<void> | null = null;
  /** Settles once the latest attempt has its socket under way (connectUser called) or has ended. */
  private underWay: Promise<void> = Promise.resolve();
  private markUnderWay: () => void = () => undefined;
  private holders = 0;
  private releaseTimer: ReturnType<typeof setTimeout> | undefined;
  private channels = new Map<string, ChannelHandle>();
  private stopListening: Array<() => void> = [];
  /** The channel a panel wants watched as soon as the socket is being opened (see watchEarly). */
  private wantedChannel: ChannelRef | null = null;
  /** Whether connectUser has been called for the current attempt (the client has its user). */
  private userSet = false;
  /** A channel watched before the connection resolved; dropped if the connection fails. */
  private early: ChannelHandle | null = null;
  /** A token request already sent (prepare), used by the next attempt instead of a new one. */
  private startedToken: Promise<Response> | undefined;
  /** The backend's origins (http(s), ws(s)) the page's Content-Security-Policy has refused. */
  private readonly policyBlocked = new Set<string>();
  private stopPolicyWatch: (() => void) | undefined;
  /** What this browser kept of this visitor's chat, read when the session opens. */
  private kept: VisitorCache | null = null;
  /** This tab's part in the browser's one connection for this visitor (null: a connection of its own). */
  private shared: SharedConnection | null = null;

  constructor(
    readonly identity: SessionIdentity,
    private readonly onClosed: () => void,
    /** Signs out the previous visitor of this app, if any, before this one connects. */
    private readonly replacePrevious: () => Promise<unknown> = () => Promise.resolve(),
  ) {
    // Where WebSockets are blocked (proxies, some networks) the SDK falls back to long-poll.
    this.client = new StreamChat(identity.apiKey, {
      enableWSFallback: true,
      ...(identity.baseUrl ? { baseURL: identity.baseUrl } : {}),
    });
    this.setComposerOptions({ drafts: false });
    refreshExpiredTokens(this.client);
    this.keepAppSettings();
  }

  /**
   * The app's settings (the composer checks files against them): kept with the visitor's chat,
   * used when they cannot be fetched, and a failed fetch is not kept as the answer (the SDK would
   * give every later caller the same failure).
   */
  private keepAppSettings() {
    const { client } = this;
    const fetch = client.getAppSettings.bind(client);
    client.getAppSettings = async () => {
      try {
        const settings = await fetch();
        if (this.state.getLatestValue().status === 'connected') void saveAppSettings(this.identity.apiKey, this.cacheIdentity, settings);
        return settings;
      } catch (error) {
        client.appSettingsPromise = undefined;
        // Offline, or shown from the cache before any connection (no token yet): what was kept.
        if (this.kept?.appSettings) return this.kept.appSettings;
        throw error;
      }
    };
  }

  /**
   * What the page's policy blocks of the backend: a failure when its REST address is refused
   * (naming every refused origin), else a warning when its socket alone is (the SDK then polls).
   */
  private policyFailure(): SessionError | null {
    const blocked = [...this.policyBlocked];
    if (!blocked.some((origin) => origin.startsWith('http'))) return null;
    return new SessionError('backend-blocked-by-policy', text('error.backendBlockedByPolicy', { origins: blocked.join(' ') }));
  }

  private policyWarning(): SessionError | null {
    const blocked = [...this.policyBlocked];
    if (!blocked.length || this.policyFailure()) return null;
    return new SessionError('socket-blocked-by-policy', text('error.socketBlockedByPolicy', { origins: blocked.join(' ') }));
  }

  /** Notes the backend's origins the page's policy refuses (its socket may be refused alone: the SDK then polls). */
  private watchPolicy(): () => void {
    const { baseURL, wsBaseURL } = this.client;
    return watchPolicyBlocks([baseURL, wsBaseURL].filter((url): url is string => !!url), (origin) => {
      this.policyBlocked.add(origin);
      if (this.state.getLatestValue().status === 'connected') this.state.partialNext({ warning: this.policyWarning() });
    });
  }

  /** Whose chat the browser's cache holds: one record per backend and identity. */
  private get cacheIdentity(): string {
    return JSON.stringify([this.identity.baseUrl, this.identity.tokenEndpoint ?? 'guest']);
  }

  /**
   * Keeps channels the visitor has open, or their conversation list, for the next open
   * (connected only: what the backend said).
   */
  keep(...channels: Channel[]): void {
    if (this.state.getLatestValue().status !== 'connected') return;
    void saveChannels(this.identity.apiKey, this.cacheIdentity, channels, this.state.getLatestValue().totalUnread);
  }

  /**
   * The visitor's conversations among the channels shown from the cache, as the list orders them
   * (pinned first, then by latest message); none unless the panel shows the cache.
   */
  keptConversations(): Channel[] {
    if (!this.state.getLatestValue().cached || !this.kept) return [];
    const time = (date: Date | string | null | undefined) => (date ? new Date(date).getTime() : 0);
    return this.kept.channels
      .flatMap(({ response }) => this.client.activeChannels[response.channel.cid] ?? [])
      .filter((channel) => channel.state.membership?.user && !channel.state.membership.archived_at)
      .sort(
        (a, b) =>
          time(b.state.membership?.pinned_at) - time(a.state.membership?.pinned_at) ||
          time(b.state.last_message_at) - time(a.state.last_message_at),
      );
  }

  /**
   * Puts the kept channels in the client as the SDK's offline mode does, so the panel paints them
   * at once; the composer writes as the kept user (its sends wait in the outbox). The connection,
   * when it comes, queries them again.
   */
  private showKept() {
    const kept = this.kept;
    if (!kept || this.client.userID) return;
    this.client.userID = kept.user.id;
    this.client.user = kept.user;
    this.client.hydrateActiveChannels(
      kept.channels.map((entry) => entry.response),
      { offlineMode: true },
    );
    this.channels.forEach((handle) => handle.dispose());
    this.channels.clear();
    const { cached } = this.state.getLatestValue();
    this.state.partialNext({ cached: cached + 1, userId: kept.user.id, totalUnread: kept.totalUnread });
  }

  /**
   * The kept channels were shown as their user (the SDK makes channels only for a client with a
   * user id): before the real connection, the id goes, and if the visitor turned out to be someone
   * else, everything kept is dropped.
   */
  private async leaveKept(userId: string) {
    if (!this.state.getLatestValue().cached || this.userSet) return;
    if (this.kept?.user.id === userId) {
      delete this.client.userID;
      return;
    }
    await this.dropKept();
  }

  /** The kept channels leave the screen and the client (the client's user with them). */
  private async clearKeptView() {
    this.channels.forEach((handle) => handle.dispose());
    this.channels.clear();
    await this.client.disconnectUser().catch(() => undefined);
    this.state.partialNext({ cached: 0 });
  }

  /** What was shown from the cache is not this visitor's: off the screen and out of the browser. */
  private async dropKept() {
    const previous = this.kept?.user.id;
    this.kept = null;
    closeOutbox(this.client);
    await this.clearKeptView();
    await forgetCache(this.identity.apiKey, this.cacheIdentity);
    if (previous) await forgetOutbox(this.identity.apiKey, previous);
  }

  /** Applies to every composer of this client, now and later (the SDK's composer setup hook). */
  setComposerOptions(options: ComposerOptions) {
    this.client.setMessageComposerSetupFunction(({ composer }) => setupComposer(composer, options));
  }

  /** Connects once; concurrent and repeated calls share the attempt. After an error it tries again. */
  connect(): Promise<void> {
    if (!this.connecting) {
      this.connecting = this.open().catch((error: unknown) => {
        this.connecting = null;
        throw error;
      });
    }
    return this.connecting;
  }

  /**
   * The visitor shows intent (a pointer over the launcher, its focus, a touch): the token is
   * fetched and the socket opened now, so the click finds them ready. Nothing is remembered for
   * this browser until a panel holds the session, and if none does within PREPARED_GRACE_MS the
   * session closes again. Resolves once the socket is under way or the attempt has failed.
   */
  prepare(token?: Promise<Response>): Promise<void> {
    // The token request the element sent on the same intent, read by the next connection attempt.
    if (token && this.state.getLatestValue().status !== 'connected' && !this.connecting) this.startedToken = token;
    if (!this.held) {
      clearTimeout(this.releaseTimer);
      this.releaseTimer = setTimeout(() => void this.close(), PREPARED_GRACE_MS);
    }
    this.connect().catch(() => undefined);
    return this.underWay;
  }

  /**
   * A panel will show `ref` (unless the token endpoint chooses the visitor's channel): its watch
   * is sent as soon as the client has its user, and the SDK sends it the moment the socket's
   * connection id exists, not after the connection's answer has gone round the panel's render.
   */
  watchEarly(ref: ChannelRef | null): void {
    this.wantedChannel = ref;
    if (this.userSet) this.startEarlyWatch();
  }

  private startEarlyWatch() {
    const ref = this.state.getLatestValue().channel ?? this.wantedChannel;
    if (!ref || !this.client.userID) return;
    const handle = this.channel(ref);
    if (this.state.getLatestValue().status === 'connecting') this.early = handle;
    void handle.load();
  }

  /**
   * Whether this session is itself waiting for the previous visitor's to close: two sessions
   * started on intent, neither held, must not each wait for the other (sessions.ts).
   */
  replacing = false;

  /** Whether any element still holds the session. */
  get held(): boolean {
    return this.holders > 0;
  }

  /**
   * This visitor left (the site signed them out or in as someone else): disconnect now, and
   * forget what the browser kept for them (a guest's id, the returning-visitor mark).
   */
  async signOut(): Promise<void> {
    clearTimeout(this.releaseTimer);
    visitorStorage.rememberSession(this.identity.apiKey, false);
    if (!this.identity.tokenEndpoint) visitorStorage.forgetGuest(this.identity.apiKey);
    const userID = this.client.userID ?? this.kept?.user.id;
    this.kept = null;
    await this.close();
    await forgetCache(this.identity.apiKey, this.cacheIdentity);
    if (userID) await forgetOutbox(this.identity.apiKey, userID);
  }

  /** Holds the session open; the returned function lets go of it. */
  retain(): () => void {
    this.holders += 1;
    clearTimeout(this.releaseTimer);
    // A session started on intent and now taken by a panel: this browser has chatted here.
    if (this.state.getLatestValue().status === 'connected') visitorStorage.rememberSession(this.identity.apiKey, true);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders -= 1;
      if (this.holders === 0) this.releaseTimer = setTimeout(() => void this.close(), RELEASE_GRACE_MS);
    };
  }

  /** The page's handle on one channel; its composer (and the text being typed) lives as long as the session. */
  channel(ref: ChannelRef): ChannelHandle {
    const cid = `${ref.type}:${ref.id}`;
    let handle = this.channels.get(cid);
    if (!handle) {
      handle = new ChannelHandle(this.client, ref, (channel) => this.keep(channel));
      this.channels.set(cid, handle);
    }
    return handle;
  }

  private async open() {
    const { apiKey, tokenEndpoint, userName } = this.identity;
    this.underWay = new Promise((resolve) => (this.markUnderWay = resolve));
    this.state.partialNext({ status: 'connecting', error: null });
    // Read beside the token and the socket, never before them: painted only if it comes first.
    // Only for a browser that had a session here: a visitor the site signed out (or refused) is not shown.
    const reading = (visitorStorage.hadSession(apiKey) ? readCache(apiKey, this.cacheIdentity) : Promise.resolve(undefined)).then((kept) => {
      this.kept = kept ?? null;
      const { status, cached } = this.state.getLatestValue();
      if (status === 'connecting' && !cached) this.showKept();
    });
    this.stopPolicyWatch ??= this.watchPolicy();
    // disconnectUser of the previous visitor is awaited before this one's connectUser.
    this.replacing = true;
    try {
      await this.replacePrevious();
    } finally {
      this.replacing = false;
    }
    try {
      if (tokenEndpoint) {
        const started = this.startedToken;
        this.startedToken = undefined;
        const grant = await fetchToken(tokenEndpoint, started);
        this.state.partialNext({ channel: grant.channel ?? null });
        // The SDK asks its token provider at once and again whenever a token expires (code 40):
        // the first answer is the one we already have, later ones are fetched fresh.
        let fetched: string | null = grant.token;
        // Requests that find the token expired together (and 401s that arrive together) share one.
        const refresh = shared(async () => (await fetchToken(tokenEndpoint)).token);
        await this.connectUser(grant.user, async () => {
          const token = fetched ?? (await refresh());
          fetched = null;
          return token;
        });
      } else {
        // The SDK's setGuestUser, in two steps, so the channel's watch can go out with the socket.
        const id = visitorStorage.guestId(apiKey) ?? newGuestId();
        const { client } = this;
        client.anonymous = true;
        let response: { user: UserResponse & { id: string }; access_token: string };
        try {
          response = await client.post(`${client.baseURL}/guest`, { user: { id, name: userName ?? 'Guest' } });
        } finally {
          client.anonymous = false;
        }
        await this.connectUser(guestDetails(response.user), response.access_token);
        visitorStorage.rememberGuest(apiKey, this.client.userID ?? id);
      }
    } catch (error) {
      // No connection to share: another tab may open one (this one asks again on its next try).
      this.shared?.close();
      this.shared = null;
      // A watch sent with the failed connection goes with it; the next attempt watches afresh.
      if (this.early) {
        this.early.dispose();
        this.channels.delete(this.early.cid);
        this.early = null;
      }
      this.markUnderWay();
      const failure = this.policyFailure() ?? toSessionError('connection-failed', 'error.connect', error);
      if (failure.reason === 'token-unauthorized') visitorStorage.rememberSession(apiKey, false);
      // A failed connect leaves the client half set up; reset it so "try again" starts clean.
      const halfSet = this.userSet;
      this.userSet = false;
      if (halfSet) await this.client.disconnectUser().catch(() => undefined);
      this.state.partialNext({ status: 'error', error: failure });
      // Unreachable, but this browser kept the conversation: that is shown, under the offline banner.
      await reading;
      if (failure.reason === 'connection-failed' || failure.reason === 'token-unreachable') {
        if (halfSet || !this.state.getLatestValue().cached) this.showKept();
      } else if (failure.reason === 'token-unauthorized') {
        await this.dropKept();
      } else if (this.state.getLatestValue().cached) {
        // Reachable but refused: the kept view goes, so that "try again" starts from a clean client.
        await this.clearKeptView();
      }
      // Opened without a network: it connects by itself once the browser is online again.
      if (failure.reason === 'connection-failed' || failure.reason === 'token-unreachable') {
        window.addEventListener('online', () => this.reconnectIfUnreachable(), { once: true });
      }
      throw failure;
    }
    this.early = null;
    if (this.held) visitorStorage.rememberSession(apiKey, true);
    this.listen();
    // The token endpoint names someone else than the browser kept: what was kept is theirs no more.
    if (this.kept && this.kept.user.id !== this.client.userID) void forgetCache(apiKey, this.cacheIdentity);
    this.state.partialNext({
      status: 'connected',
      cached: 0,
      warning: this.policyWarning(),
      userId: this.client.userID ?? null,
      totalUnread: Number((this.client.user as { total_unread_count?: number } | undefined)?.total_unread_count ?? 0),
    });
  }

  /** A connection failed for want of a network: try again now that one may be there. */
  private reconnectIfUnreachable() {
    const { status, error } = this.state.getLatestValue();
    if (status === 'error' && (error?.reason === 'connection-failed' || error?.reason === 'token-unreachable')) this.connect().catch(() => undefined);
  }

  /**
   * Joins the browser's one connection for this visitor: this tab holds it, or uses the tab's
   * that does (shared-connection.ts). Decided before connectUser, which opens the socket.
   */
  private async share(userId: string) {
    const name = connectionLockName(this.identity.apiKey, this.client.baseURL ?? '', userId);
    if (this.shared?.name === name && this.shared.role !== 'closed') return;
    this.shared?.close();
    this.shared = await SharedConnection.open(this.client, name, () => this.reconnectIfUnreachable());
  }

  /** connectUser, and the early watch as soon as the client has its user (set synchronously by it). */
  private async connectUser(user: UserResponse & { id: string }, token: TokenOrProvider): Promise<unknown> {
    // Shared first: showing the kept view must not come between leaving it and connectUser.
    await this.share(user.id);
    await this.leaveKept(user.id);
    const connected = this.client.connectUser(user, token);
    this.userSet = true;
    this.startEarlyWatch();
    this.markUnderWay();
    return connected;
  }

  private listen() {
    const onEvent = (event: Event) => {
      if (event.type === 'connection.changed') {
        this.state.partialNext({ status: event.online ? 'connected' : 'offline' });
      }
      // The backend counts per receiver, so any event that carries the total is ours; a new
      // connection's first health check carries it in `me` (what changed while it was down).
      const total = event.total_unread_count ?? (event.type === 'health.check' ? event.me?.total_unread_count : undefined);
      if (typeof total === 'number') this.state.partialNext({ totalUnread: total });
      // The site closed this visitor's account: say so and stop reconnecting.
      const type = event.type as string;
      if ((type === 'user.deactivated' || type === 'user.deleted') && event.user?.id === this.client.userID) {
        this.state.partialNext({ status: 'error', error: closedAccount(type === 'user.deleted' ? 'deleted' : 'deactivated') });
        void this.client.disconnectUser().catch(() => undefined);
      }
    };
    // The SDK notices a lost network only after its health checks fail; the browser knows at once.
    const onOffline = () => this.state.partialNext({ status: 'offline' });
    window.addEventListener('offline', onOffline);
    const { unsubscribe } = this.client.on(onEvent);
    // Polls seen in messages stay live through the SDK's poll manager (client.polls).
    this.client.polls.registerSubscriptions();
    this.stopListening.push(
      unsubscribe,
      () => window.removeEventListener('offline', onOffline),
      () => this.client.polls.unregisterSubscriptions(),
      startLiveLocations(this.client),
    );
  }

  private async close() {
    this.stopPolicyWatch?.();
    this.stopPolicyWatch = undefined;
    this.stopListening.splice(0).forEach((stop) => stop());
    this.channels.forEach((handle) => handle.dispose());
    this.channels.clear();
    await this.connecting?.catch(() => undefined);
    this.connecting = null;
    this.userSet = false;
    this.early = null;
    closeOutbox(this.client);
    await this.client.disconnectUser().catch(() => undefined);
    // Released only now, so the tab that takes the connection over opens it after this one closed.
    this.shared?.close();
    this.shared = null;
    this.state.partialNext({ status: 'idle', userId: null, cached: 0 });
    this.onClosed();
  }
}
