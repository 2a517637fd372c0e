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

export class ConnectionRegistry {
  private readonly connections = new Map<string, Connection>();
  private readonly byUser = new Map<string, Set<Connection>>();
  private readonly byChannel = new Map<string, Set<Connection>>();

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
    for (const cid of connection.watching) removeFrom(this.byChannel, cid, connection);
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
    if (connection.watching.has(cid)) return false;
    const firstForUser = !this.isUserWatching(connection.userId, cid);
    connection.watching.add(cid);
    addTo(this.byChannel, cid, connection);
    return firstForUser;
  }

  /** Returns true when the user has no other connection still watching the channel. */
  unwatch(connection: Connection, cid: string): boolean {
    if (!connection.watching.delete(cid)) return false;
    removeFrom(this.byChannel, cid, connection);
    return !this.isUserWatching(connection.userId, cid);
  }

  watchers(cid: string): Connection[] {
    return [...(this.byChannel.get(cid) ?? [])];
  }

  /** Distinct signed-in users watching the channel. */
  watcherUserIds(cid: string): string[] {
    const ids = new Set<string>();
    for (const connection of this.byChannel.get(cid) ?? []) {
      if (!connection.anonymous) ids.add(connection.userId);
    }
    return [...ids];
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
