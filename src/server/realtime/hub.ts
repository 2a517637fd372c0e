// Event delivery: serialise an event and write it to the right sockets. An event may be one
// object for everyone or a function of the receiving connection (unread counts differ per user).
// Delivery never waits for a receiver: a socket that does not keep up is cut off once it holds
// too much (unsent-data.ts, socket-connection.ts), so one stalled socket costs the others nothing.
import type { Event } from 'stream-chat';
import { DEFAULT_LIMITS, type Limits } from '../limits';
import { Liveness } from './liveness';
import { UnsentData } from './unsent-data';
import { PresenceSubscriptions } from './presence-subscriptions';
import { ConnectionRegistry, type Connection } from './registry';

/**
 * An event whose receivers differ in a few fields (their unread counts, their own reactions):
 * `group` names the variant a connection gets and `frame` serialises it. Receivers of one group
 * share one serialisation and one encoded buffer, so a fan-out costs one frame per variant, not
 * one per socket.
 */
export class Grouped<G extends string | number = string | number> {
  // Held with method signatures, whose parameters are compared both ways: a Grouped of any group
  // type is then a Grouped to the hub (each is checked where it is made).
  private readonly parts: { group(connection: Connection): G; frame(group: G, connection: Connection): string };

  constructor(group: (connection: Connection) => G, frame: (group: G, connection: Connection) => string) {
    this.parts = { group, frame };
  }

  group(connection: Connection): G {
    return this.parts.group(connection);
  }

  frame(group: G, connection: Connection): string {
    return this.parts.frame(group, connection);
  }
}

type EventFor = Event | ((connection: Connection) => Event) | Grouped;

/** A serialised event with more top-level fields: what each receiver's own counts add to a shared frame. */
export function withFields(json: string, fields: object): string {
  const more = JSON.stringify(fields);
  return more === '{}' ? json : `${json.slice(0, -1)},${more.slice(1)}`;
}

/** The limits the realtime side holds: liveness, unsent data, connections per user, and the connect payload's nesting. */
export type RealtimeLimits = Pick<
  Limits,
  'idleTimeoutMs' | 'pingIntervalMs' | 'maxUnsentBytes' | 'maxUnsentBytesTotal' | 'maxConnectionsPerUser' | 'maxJsonDepth'
>;

export type RealtimeOptions = {
  /** How long a long-poll request waits for an event before it is answered empty. Default 20 s. */
  longPollHoldMs?: number;
};

/** The provider's hold: the SDK's comment says "API responds in 20s if there is no event". */
export const LONG_POLL_HOLD_MS = 20_000;

export class RealtimeHub {
  readonly registry = new ConnectionRegistry();
  readonly presence = new PresenceSubscriptions();
  /** Every connection, whatever its transport, is tracked here until it closes. */
  readonly liveness: Liveness;
  /** What sockets hold for readers that do not keep up, bounded per socket and in all. */
  readonly unsent: UnsentData;
  /** Set while shutting down: closing sockets must not announce anything. */
  closing = false;

  /** A long-poll request waits this long at most (long-poll-connection.ts). */
  readonly longPollHoldMs: number;

  constructor(
    readonly limits: RealtimeLimits = DEFAULT_LIMITS,
    options: RealtimeOptions = {},
  ) {
    this.liveness = new Liveness(limits);
    this.unsent = new UnsentData(limits);
    // Never as long as half the idle time-out: a client that keeps polling is never expired.
    const hold = options.longPollHoldMs ?? LONG_POLL_HOLD_MS;
    this.longPollHoldMs = limits.idleTimeoutMs > 0 ? Math.min(hold, limits.idleTimeoutMs / 2) : hold;
  }

  send(connection: Connection, event: Event): void {
    connection.send(JSON.stringify(event));
  }

  /** Sends to every connection, or only to those `accept` lets through. */
  publish(connections: Iterable<Connection>, event: EventFor, accept?: (connection: Connection) => boolean): void {
    if (this.closing) return;
    if (event instanceof Grouped) return this.publishGrouped(connections, event, accept);
    // One serialisation (and one encoded buffer) for a shared event; per-connection ones are
    // built lazily.
    const shared = typeof event === 'function' ? undefined : JSON.stringify(event);
    let bytes: Buffer | undefined;
    for (const connection of connections) {
      if (accept && !accept(connection)) continue;
      if (shared === undefined) {
        connection.send(JSON.stringify((event as (c: Connection) => Event)(connection)));
      } else {
        bytes ??= Buffer.from(shared);
        connection.send(shared, bytes);
      }
    }
  }

  private publishGrouped<G extends string | number>(connections: Iterable<Connection>, event: Grouped<G>, accept?: (connection: Connection) => boolean): void {
    const frames = new Map<G, { group: G; frame: string; bytes: Buffer }>();
    // Most receivers share the group of the one before (the same unread counts): no lookup then.
    let last: { group: G; frame: string; bytes: Buffer } | undefined;
    for (const connection of connections) {
      if (accept && !accept(connection)) continue;
      const group = event.group(connection);
      if (last?.group !== group) {
        last = frames.get(group);
        if (!last) {
          const frame = event.frame(group, connection);
          frames.set(group, (last = { group, frame, bytes: Buffer.from(frame) }));
        }
      }
      connection.send(last.frame, last.bytes);
    }
  }

  toChannel(cid: string, event: EventFor, accept?: (connection: Connection) => boolean): void {
    // Sending changes no watching (a socket cut off leaves the set on its later 'close').
    this.publish(this.registry.watching(cid), event, accept);
  }

  toUser(userId: string, event: EventFor): void {
    this.publish(this.registry.ofUser(userId), event);
  }

  closeAll(code: number, reason: string): void {
    this.closing = true;
    this.liveness.stop();
    for (const connection of this.registry.all()) connection.close(code, reason);
  }
}
