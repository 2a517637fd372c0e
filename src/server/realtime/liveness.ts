// Which connections are still alive. A phone that loses signal leaves a socket that neither
// reads nor writes: nothing on our side ever errors, so without this it would stay online and
// watching forever. Every transport reports what it hears (`heard`: a frame on a socket, a poll
// on long-poll) and, if it can, offers a protocol-level ping; one sweep closes a connection
// that has been silent for `idleTimeoutMs` or left a ping unanswered for `pingIntervalMs`.
// Expiring is the transport's own close, so watching and presence end as for a clean close.

export type LivenessOptions = { idleTimeoutMs: number; pingIntervalMs: number };

export type Probe = {
  /** Sends a protocol-level ping; the transport calls `answered` when the pong arrives. */
  ping?: () => void;
  /** Closes the connection for good (the peer is gone or wedged). */
  expire: (reason: string) => void;
};

type Entry = Probe & { lastHeard: number; lastPing: number; awaitingPong: boolean };

export class Liveness {
  private readonly entries = new Map<string, Entry>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: LivenessOptions) {}

  get enabled(): boolean {
    return this.options.idleTimeoutMs > 0 || this.options.pingIntervalMs > 0;
  }

  track(id: string, probe: Probe, now = Date.now()): void {
    this.entries.set(id, { ...probe, lastHeard: now, lastPing: now, awaitingPong: false });
  }

  /** The peer sent something (a frame, a poll): it is alive and still talking. */
  heard(id: string, now = Date.now()): void {
    const entry = this.entries.get(id);
    if (entry) entry.lastHeard = now;
  }

  /** The peer answered our ping. */
  answered(id: string): void {
    const entry = this.entries.get(id);
    if (entry) entry.awaitingPong = false;
  }

  forget(id: string): void {
    this.entries.delete(id);
  }

  /** Checks every connection; returns how many were expired. */
  sweep(now = Date.now()): number {
    const { idleTimeoutMs, pingIntervalMs } = this.options;
    let expired = 0;
    for (const [id, entry] of [...this.entries]) {
      let reason: string | undefined;
      if (idleTimeoutMs > 0 && now - entry.lastHeard >= idleTimeoutMs) {
        reason = `nothing received for ${Math.round((now - entry.lastHeard) / 1000)} s`;
      } else if (entry.awaitingPong && now - entry.lastPing >= pingIntervalMs) {
        reason = 'ping not answered';
      }
      if (reason) {
        this.entries.delete(id);
        entry.expire(reason);
        expired++;
      } else if (pingIntervalMs > 0 && entry.ping && !entry.awaitingPong && now - entry.lastPing >= pingIntervalMs) {
        entry.awaitingPong = true;
        entry.lastPing = now;
        entry.ping();
      }
    }
    return expired;
  }

  /** Sweeps often enough that a limit is acted on within a fifth of it past its due time. */
  start(): void {
    if (this.timer || !this.enabled) return;
    const shortest = Math.min(...[this.options.idleTimeoutMs, this.options.pingIntervalMs].filter((ms) => ms > 0));
    this.timer = setInterval(() => this.sweep(), Math.max(20, Math.min(5_000, shortest / 5)));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.entries.clear();
  }
}
