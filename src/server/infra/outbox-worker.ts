// The one delivery mechanism for work that leaves the process: webhooks and pushes. A change only
// adds a row to an outbox table (store/outbox.ts); this worker sends the due rows a small batch
// at a time, off the request path, and retries failures with exponential back-off. A slow or
// dead receiver never slows a chat request, a long outage costs disk rather than memory, and a
// restart resumes where the last run stopped.
import type { ServerContext } from '../http/context';
import type { OutboxRow, OutboxStore } from '../store/outbox';
import type { DeliveryOptions } from './delivery-options';

/** What became of one attempt. */
export type Outcome =
  | { status: 'done' }
  /** Failed for now: try again after the back-off, unless attempts are used up. */
  | { status: 'retry'; error: string }
  /** Failed for good (or nothing left to send to): removed, the reason logged when given. */
  | { status: 'drop'; error?: string }
  /** A job that goes on: its row keeps the new body and is due again at once. */
  | { status: 'continue'; body: string };

const BATCH = 20;

export type OutboxWorker = {
  /** Queues a delivery, bounded by `maxQueued`, and makes sure the worker will send it. */
  enqueue(deliveryId: string, body: string): void;
  /** Stops the worker once the deliveries in flight are settled. */
  stop(): Promise<void>;
};

export function startOutboxWorker(
  ctx: ServerContext,
  name: string,
  store: OutboxStore,
  options: DeliveryOptions,
  deliver: (row: OutboxRow) => Promise<Outcome>,
): OutboxWorker {
  let sending: Promise<void> | undefined;
  let stopped = false;

  const schedule = () => {
    if (stopped) return;
    const at = store.nextDueAt();
    if (at === null) ctx.timers.cancel(name);
    else ctx.timers.at(name, at, () => void drain());
  };

  function drain(): Promise<void> {
    sending ??= sendDue().finally(() => {
      sending = undefined;
      schedule();
    });
    return sending;
  }

  async function sendDue(): Promise<void> {
    while (!stopped) {
      const rows = store.due(Date.now(), BATCH);
      if (!rows.length) break;
      await Promise.all(rows.map(attempt));
    }
  }

  async function attempt(row: OutboxRow): Promise<void> {
    let outcome: Outcome;
    try {
      outcome = await deliver(row);
    } catch (error) {
      outcome = { status: 'retry', error: error instanceof Error ? error.message : String(error) };
    }
    switch (outcome.status) {
      case 'done':
        store.remove(row.seq);
        return;
      case 'continue':
        store.replace(row.seq, outcome.body, Date.now());
        return;
      case 'drop':
        if (outcome.error) ctx.log(`${name}: ${row.delivery_id} dropped: ${outcome.error}`);
        store.remove(row.seq);
        return;
      case 'retry': {
        if (row.attempts + 1 >= options.maxAttempts) {
          ctx.log(`${name}: ${row.delivery_id} given up after ${row.attempts + 1} attempts: ${outcome.error}`);
          store.remove(row.seq);
          return;
        }
        const delay = Math.min(options.baseDelayMs * 2 ** row.attempts, options.maxDelayMs);
        store.retryLater(row.seq, Date.now() + delay, outcome.error);
      }
    }
  }

  schedule();
  return {
    enqueue(deliveryId, body) {
      const dropped = store.add(deliveryId, body, Date.now(), options.maxQueued);
      if (dropped) ctx.log(`${name} outbox full: dropped the ${dropped} oldest deliveries`);
      if (!sending) schedule();
    },
    async stop() {
      stopped = true;
      ctx.timers.cancel(name);
      await sending;
    },
  };
}
