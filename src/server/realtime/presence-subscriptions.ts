// Which connections asked to hear about which users' presence: a query with `presence: true`
// (queryChannels, channel.watch/query, queryUsers) subscribes the querying connection to the
// users it returned. Pure bookkeeping, like the registry; forget() runs when a socket closes.
import type { Connection } from './registry';

export class PresenceSubscriptions {
  private readonly byUser = new Map<string, Set<Connection>>();
  private readonly byConnection = new Map<Connection, Set<string>>();

  subscribe(connection: Connection, userIds: Iterable<string>): void {
    let users = this.byConnection.get(connection);
    if (!users) this.byConnection.set(connection, (users = new Set()));
    for (const userId of userIds) {
      users.add(userId);
      let connections = this.byUser.get(userId);
      if (!connections) this.byUser.set(userId, (connections = new Set()));
      connections.add(connection);
    }
  }

  subscribers(userId: string): Connection[] {
    return [...(this.byUser.get(userId) ?? [])];
  }

  forget(connection: Connection): void {
    for (const userId of this.byConnection.get(connection) ?? []) {
      const connections = this.byUser.get(userId);
      connections?.delete(connection);
      if (connections?.size === 0) this.byUser.delete(userId);
    }
    this.byConnection.delete(connection);
  }
}
