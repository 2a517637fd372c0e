// Webhook deliveries waiting for the receiver (features/webhooks). Rows are read a small batch
// at a time, so an outage of any length costs disk, not memory.
import type { Db } from './db';

export type OutboxRow = {
  seq: number;
  webhook_id: string;
  body: string;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: string;
};

export function createWebhookOutboxStore(db: Db) {
  const insert = db.prepare(
    'INSERT INTO webhook_outbox (webhook_id, body, next_attempt_at, created_at) VALUES (?, ?, ?, ?)',
  );
  // The earliest due first (on the index); a batch is sent concurrently and failures come back
  // later, so receivers must not rely on order (the provider promises none either).
  const due = db.prepare<[number, number], OutboxRow>(
    'SELECT * FROM webhook_outbox WHERE next_attempt_at <= ? ORDER BY next_attempt_at, seq LIMIT ?',
  );
  const next = db.prepare<[], { at: number | null }>('SELECT MIN(next_attempt_at) AS at FROM webhook_outbox');
  const retry = db.prepare('UPDATE webhook_outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE seq = ?');
  const remove = db.prepare('DELETE FROM webhook_outbox WHERE seq = ?');
  const count = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM webhook_outbox');
  const dropOldest = db.prepare('DELETE FROM webhook_outbox WHERE seq IN (SELECT seq FROM webhook_outbox ORDER BY seq LIMIT ?)');
  // Counted once, then kept in step, so the bound costs nothing per event.
  let queued = count.get()?.n ?? 0;

  return {
    /** Queues a delivery; past `max` waiting, drops the oldest and returns how many. */
    add(webhookId: string, body: string, now: number, max: number): number {
      insert.run(webhookId, body, now, new Date(now).toISOString());
      queued += 1;
      if (queued <= max) return 0;
      const dropped = dropOldest.run(queued - max).changes;
      queued -= dropped;
      return dropped;
    },
    due: (now: number, limit: number) => due.all(now, limit),
    /** When the earliest waiting delivery is due, or null when none waits. */
    nextDueAt: () => next.get()?.at ?? null,
    retryLater: (seq: number, at: number, error: string) => void retry.run(at, error, seq),
    remove(seq: number): void {
      queued -= remove.run(seq).changes;
    },
  };
}
