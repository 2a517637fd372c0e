// How the outbox worker delivers (webhooks and pushes each have their own values).
export type DeliveryOptions = {
  /** A receiver that has not answered after this long counts as failed. */
  timeoutMs: number;
  /** Attempts before a delivery is given up. */
  maxAttempts: number;
  /** First retry delay, doubled each time up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Deliveries kept waiting at most; past it the oldest are dropped (logged). */
  maxQueued: number;
};
