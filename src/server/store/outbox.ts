// Deliveries waiting for a receiver: webhooks (`webhook_outbox`) and pushes (`push_outbox`), one
// table each with the same columns, read by the one worker in infra/outbox-worker.ts. Rows are read a
// small batch at a time, so an outage of any length costs disk, not memory.
import type { Db } from './db';

export type OutboxRow = {
  seq: number;
  /** The delivery's id (a webhook's X-Webhook-Id). */
  delivery_id: string;
  body: string;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: string;
};

/** The outbox tables and the name each gives its delivery id. */
const TABLES = { webhook_outbox: 'webhook_id', push_outbox: 'delivery_id' } as const;

export function createOutboxStore(db: Db, table: keyof typeof TABLES) {
  const idColumn = TABLES[table];
  const insert = db.prepare(`INSERT INTO ${table} (${idColumn}, body, next_attempt_at, created_at) VALUES (?, ?, ?, ?)`);
  // The earliest due first (on the index); a batch is sent concurrently and failures come back
  // later, so receivers must not rely on order (the provider promises none either).
  const due = db.prepare<[number, number], OutboxRow>(
    `SELECT seq, ${idColumn} AS delivery_id, body, attempts, next_attempt_at, last_error, created_at
     FROM ${table} WHERE next_attempt_at <= ? ORDER BY next_attempt_at, seq LIMIT ?`,
  );
  const next = db.prepare<[], { at: number | null }>(`SELECT MIN(next_attempt_at) AS at FROM ${table}`);
  const retry = db.prepare(`UPDATE ${table} SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE seq = ?`);
  const replace = db.prepare(`UPDATE ${table} SET body = ?, next_attempt_at = ? WHERE seq = ?`);
  const remove = db.prepare(`DELETE FROM ${table} WHERE seq = ?`);
  const count = db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM ${table}`);
  const dropOldest = db.prepare(`DELETE FROM ${table} WHERE seq IN (SELECT seq FROM ${table} ORDER BY seq LIMIT ?)`);
  // Counted once, then kept in step, so the bound costs nothing per event.
  let queued = count.get()?.n ?? 0;

  return {
    /** Queues a delivery; past `max` waiting, drops the oldest and returns how many. */
    add(deliveryId: string, body: string, now: number, max: number): number {
      insert.run(deliveryId, body, now, new Date(now).toISOString());
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
    /** Keeps a delivery with a new body (a job that goes on where it stopped), due at `at`. */
    replace: (seq: number, body: string, at: number) => void replace.run(body, at, seq),
    remove(seq: number): void {
      queued -= remove.run(seq).changes;
    },
    /** Deliveries waiting. */
    get size(): number {
      return queued;
    },
  };
}

export type OutboxStore = ReturnType<typeof createOutboxStore>;
