// Event delivery: serialise an event and write it to the right sockets. An event may be one
// object for everyone or a function of the receiving connection (unread counts differ per user).
import type { Event } from 'stream-chat';
import { PresenceSubscriptions } from './presence-subscriptions';
import { ConnectionRegistry, type Connection } from './registry';

type EventFor = Event | ((connection: Connection) => Event);

export class RealtimeHub {
  readonly registry = new ConnectionRegistry();
  readonly presence = new PresenceSubscriptions();
  /** Set while shutting down: closing sockets must not announce anything. */
  closing = false;

  send(connection: Connection, event: Event): void {
    connection.send(JSON.stringify(event));
  }

  /** Sends to every connection, or only to those `accept` lets through. */
  publish(connections: Iterable<Connection>, event: EventFor, accept?: (connection: Connection) => boolean): void {
    if (this.closing) return;
    // One serialisation for a shared event; per-connection ones are built lazily.
    const shared = typeof event === 'function' ? undefined : JSON.stringify(event);
    for (const connection of connections) {
      if (accept && !accept(connection)) continue;
      connection.send(shared ?? JSON.stringify((event as (c: Connection) => Event)(connection)));
    }
  }

  toChannel(cid: string, event: EventFor, accept?: (connection: Connection) => boolean): void {
    this.publish(this.registry.watchers(cid), event, accept);
  }

  toUser(userId: string, event: EventFor): void {
    this.publish(this.registry.ofUser(userId), event);
  }

  closeAll(code: number, reason: string): void {
    this.closing = true;
    for (const connection of this.registry.all()) connection.close(code, reason);
  }
}
