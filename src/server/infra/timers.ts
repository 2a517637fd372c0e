// Named one-shot timers for things that happen at a stored time (a reminder comes due, a pin or
// a mute expires). Each feature keeps at most one timer, armed for its next due row, so the cost
// is one setTimeout per feature however many rows wait; re-arming replaces the previous timer and
// stopAll() (called by close()) leaves nothing behind to keep the process alive.

/** setTimeout's largest delay (about 24.8 days); longer waits re-arm when it fires. */
const MAX_DELAY_MS = 2_147_483_647;

export class Timers {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  /** Runs `fire` at `at` (epoch ms; now if past), replacing any timer under `name`. */
  at(name: string, at: number, fire: () => void): void {
    this.cancel(name);
    if (this.stopped) return;
    const delay = Math.max(0, at - Date.now());
    const timer = setTimeout(() => {
      this.timers.delete(name);
      if (delay > MAX_DELAY_MS) this.at(name, at, fire);
      else fire();
    }, Math.min(delay, MAX_DELAY_MS));
    // A pending reminder must not keep a finished test run or a stopping server alive.
    timer.unref();
    this.timers.set(name, timer);
  }

  cancel(name: string): void {
    const timer = this.timers.get(name);
    if (timer) clearTimeout(timer);
    this.timers.delete(name);
  }

  /** Whether stopAll() ran: the server is closing, and long work should stop at its next step. */
  isStopped(): boolean {
    return this.stopped;
  }

  stopAll(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
