// What the server holds for readers that do not keep up. Each socket's unsent data is bounded
// (`maxUnsentBytes`), and so is the sum over all sockets (`maxUnsentBytesTotal`): without the
// second, a crowd of stalled clients could each stay under the first and still exhaust the
// machine. Sends never wait; after each one the socket reports how much it still holds, and
// over a bound a socket is cut off (its transport closes it with a code the SDK reconnects on).
// Over the total, the sockets holding the most are cut off first: a reader that keeps up holds
// next to nothing, so it is never the one chosen while a stalled one holds more.

export type UnsentLimits = { maxUnsentBytes: number; maxUnsentBytesTotal: number };

type Tracked = { unsent: () => number; cutOff: () => void; last: number };

export class UnsentData {
  private readonly sockets = new Map<string, Tracked>();
  /** The sum of the last amounts reported: an overestimate, as sockets drain between sends. */
  private total = 0;

  constructor(private readonly limits: UnsentLimits) {}

  /** Starts counting a transport; `reported()` is what the count holds for it now (a shed re-reads it). */
  track(id: string, socket: { unsent: () => number; cutOff: () => void }): { reported: () => number } {
    const tracked: Tracked = { ...socket, last: 0 };
    this.sockets.set(id, tracked);
    return { reported: () => tracked.last };
  }

  /** The transport closed (or was cut off): what it held is released. */
  forget(id: string): void {
    const socket = this.sockets.get(id);
    if (!socket) return;
    this.total -= socket.last;
    this.sockets.delete(id);
  }

  /** Called after every send with what the socket still holds. */
  sent(id: string, unsent: number): void {
    const socket = this.sockets.get(id);
    if (!socket) return;
    this.total += unsent - socket.last;
    socket.last = unsent;
    const { maxUnsentBytes, maxUnsentBytesTotal } = this.limits;
    if (maxUnsentBytes > 0 && unsent > maxUnsentBytes) {
      this.cut(id, socket);
    } else if (maxUnsentBytesTotal > 0 && this.total > maxUnsentBytesTotal) {
      this.shed(maxUnsentBytesTotal);
    }
  }

  /** Re-reads every socket (the sum may be stale) and cuts the largest until under `limit`. */
  private shed(limit: number): void {
    this.total = 0;
    for (const socket of this.sockets.values()) {
      socket.last = socket.unsent();
      this.total += socket.last;
    }
    if (this.total <= limit) return;
    const largest = [...this.sockets].sort(([, a], [, b]) => b.last - a.last);
    for (const [id, socket] of largest) {
      if (this.total <= limit || socket.last === 0) break;
      this.cut(id, socket);
    }
  }

  /** The transport lets go of the data at once (socket-connection.ts), so it stops counting. */
  private cut(id: string, socket: Tracked): void {
    this.forget(id);
    socket.cutOff();
  }
}
