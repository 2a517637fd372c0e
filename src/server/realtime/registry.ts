// Who is connected and which channels each connection watches. Pure bookkeeping: no sockets,
// no storage, so it is the single source for "online", "watchers" and "where does this event go".
export type Connection = {
  id: string;
  userId: string;
  /** Anonymous visitors can watch open channels but are not listed as watchers. */
  anonymous: boolean;
  /** How events reach it: a WebSocket (absent, the default) or long-poll (long-poll-connection.ts). */
  transport?: 'websocket' | 'longpoll';
  /** Channels this connection watches (cids). */
  watching: Set<string>;
  /**
   * Writes one event frame. `bytes`, when given, is the same frame already encoded and shared by
   * every receiver of a fan-out: a socket queues that one buffer instead of a copy of its own,
   * so stalled readers of the same channel hold one copy of what they have not read.
   */
  send: (frame: string, bytes?: Buffer) => void;
  close: (code: number, reason: string) => void;
};

const NO_CONNECTIONS: ReadonlySet<Connection> = new Set();

export class ConnectionRegistry {
  private readonly connections = new Map<string, Connection>();
  private readonly byUser = new Map<string, Set<Connection>>();
  private readonly byChannel = new Map<string, Set<Connection>>();
  /** Per channel, each signed-in user watching it and by how many connections: counts without a scan. */
  private readonly usersByChannel = new Map<string, Map<string, number>>();

  add(connection: Connection): void {
    this.connections.set(connection.id, connection);
    addTo(this.byUser, connection.userId, connection);
  }

  /** Forgets the connection; returns it so callers can announce what it stopped watching. */
  remove(id: string): Connection | undefined {
    const connection = this.connections.get(id);
    if (!connection) return undefined;
    this.connections.delete(id);
    removeFrom(this.byUser, connection.userId, connection);
    for (const cid of connection.watching) {
      removeFrom(this.byChannel, cid, connection);
      this.countUser(cid, connection, -1);
    }
    return connection;
  }

  get(id: string): Connection | undefined {
    return this.connections.get(id);
  }

  all(): Connection[] {
    return [...this.connections.values()];
  }

  ofUser(userId: string): Connection[] {
    return [...(this.byUser.get(userId) ?? [])];
  }

  /** How many connections the user holds now. */
  countOf(userId: string): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  isOnline(userId: string): boolean {
    return this.byUser.has(userId);
  }

  onlineUserIds(): string[] {
    return [...this.byUser.keys()];
  }

  /** Returns true when this is the user's first connection watching the channel. */
  watch(connection: Connection, cid: string): boolean {
    // A connection already forgotten (its socket closed while a watch was on its way) watches nothing.
    if (connection.watching.has(cid) || this.connections.get(connection.id) !== connection) return false;
    const firstForUser = !this.isUserWatching(connection.userId, cid);
    connection.watching.add(cid);
    addTo(this.byChannel, cid, connection);
    this.countUser(cid, connection, 1);
    return firstForUser;
  }

  /** Returns true when the user has no other connection still watching the channel. */
  unwatch(connection: Connection, cid: string): boolean {
    if (!connection.watching.delete(cid)) return false;
    if (this.connections.get(connection.id) !== connection) return false; // remove() let go of it already
    removeFrom(this.byChannel, cid, connection);
    this.countUser(cid, connection, -1);
    return !this.isUserWatching(connection.userId, cid);
  }

  watchers(cid: string): Connection[] {
    return [...this.watching(cid)];
  }

  /**
   * The channel's watchers as the registry holds them, not a copy (a thousand-watcher copy per
   * message was a measurable part of a fan-out): for a loop that sends and changes no watching.
   */
  watching(cid: string): ReadonlySet<Connection> {
    return this.byChannel.get(cid) ?? NO_CONNECTIONS;
  }

  /** How many connections watch the channel, and how many there are in all (no lists made). */
  watchingConnections(cid: string): number {
    return this.byChannel.get(cid)?.size ?? 0;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** Distinct signed-in users watching the channel. */
  watcherUserIds(cid: string): string[] {
    return [...(this.usersByChannel.get(cid)?.keys() ?? [])];
  }

  /** Whether the signed-in user has a connection watching the channel (O(1)). */
  isWatcher(cid: string, userId: string): boolean {
    return this.usersByChannel.get(cid)?.has(userId) ?? false;
  }

  /** Up to `limit` of the channel's watching users after skipping `offset`, without listing them all. */
  watcherPage(cid: string, offset: number, limit: number): string[] {
    const page: string[] = [];
    if (limit <= 0) return page;
    let skipped = 0;
    for (const userId of this.usersByChannel.get(cid)?.keys() ?? []) {
      if (skipped++ < offset) continue;
      page.push(userId);
      if (page.length >= limit) break;
    }
    return page;
  }

  /** Whether some connection of the user does not watch the channel (it gets notification.* events instead). */
  hasConnectionAway(userId: string, cid: string): boolean {
    const connections = this.byUser.get(userId);
    if (!connections) return false;
    const watching = this.usersByChannel.get(cid)?.get(userId);
    // Anonymous connections are not counted per channel: look at each of them.
    if (watching === undefined || connections.values().next().value?.anonymous) return [...connections].some((c) => !c.watching.has(cid));
    return connections.size > watching;
  }

  /** How many distinct signed-in users watch the channel (an event's `watcher_count`). */
  watcherCount(cid: string): number {
    return this.usersByChannel.get(cid)?.size ?? 0;
  }

  private countUser(cid: string, connection: Connection, by: 1 | -1) {
    if (connection.anonymous) return;
    let users = this.usersByChannel.get(cid);
    if (!users) this.usersByChannel.set(cid, (users = new Map()));
    const count = (users.get(connection.userId) ?? 0) + by;
    if (count > 0) users.set(connection.userId, count);
    else users.delete(connection.userId);
    if (users.size === 0) this.usersByChannel.delete(cid);
  }

  isUserWatching(userId: string, cid: string): boolean {
    for (const connection of this.byUser.get(userId) ?? []) {
      if (connection.watching.has(cid)) return true;
    }
    return false;
  }
}

function addTo<K>(index: Map<K, Set<Connection>>, key: K, connection: Connection) {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(connection);
}

function removeFrom<K>(index: Map<K, Set<Connection>>, key: K, connection: Connection) {
  const set = index.get(key);
  if (!set) return;
  set.delete(connection);
  if (set.size === 0) index.delete(key);
}
