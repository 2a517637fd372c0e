// The channel events POST /sync answers from (features/sync). One row per event, in the order
// they happened, kept within two bounds: at most `maxRows` rows and nothing older than `maxAgeMs`.
// Pruning moves `completeFrom` forward, the instant from which the log is whole, so a sync that
// would need a pruned event is refused rather than answered with a gap.
import type { Db } from './db';

export type EventLogRow = { seq: number; cid: string; type: string; at: number; body: string };

export function createEventLogStore(db: Db) {
  const insert = db.prepare('INSERT INTO event_log (cid, type, at, body) VALUES (?, ?, ?, ?)');
  const count = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM event_log');
  const nthSeq = db.prepare<[number], { seq: number; at: number }>('SELECT seq, at FROM event_log ORDER BY seq LIMIT 1 OFFSET ?');
  const maxAtUpTo = db.prepare<[number], { at: number | null }>('SELECT MAX(at) AS at FROM event_log WHERE seq <= ?');
  const deleteUpTo = db.prepare('DELETE FROM event_log WHERE seq <= ?');
  const maxAtBefore = db.prepare<[number], { at: number | null }>('SELECT MAX(at) AS at FROM event_log WHERE at < ?');
  const deleteBefore = db.prepare('DELETE FROM event_log WHERE at < ?');
  const readState = db.prepare<[], { complete_from: number }>('SELECT complete_from FROM event_log_state WHERE id = 1');
  const writeState = db.prepare('UPDATE event_log_state SET complete_from = MAX(complete_from, ?) WHERE id = 1');
  const since = db.prepare<[string, number, number], EventLogRow>(
    'SELECT seq, cid, type, at, body FROM event_log WHERE cid IN (SELECT value FROM json_each(?)) AND at >= ? ORDER BY seq LIMIT ?',
  );
  // Counted once, then kept in step, so the row bound costs nothing per event.
  let rows = count.get()?.n ?? 0;

  /** Deleted rows up to `at` leave the log whole only after it. */
  const advance = (at: number | null | undefined) => {
    if (typeof at === 'number') writeState.run(at + 1);
  };

  return {
    append(cid: string, type: string, at: number, body: string): void {
      insert.run(cid, type, at, body);
      rows += 1;
    },
    /** Rows now held (kept in step with appends and pruning). */
    get size(): number {
      return rows;
    },
    /** Drops the oldest rows past `maxRows`, and every row older than `oldest` (epoch ms). */
    prune(maxRows: number, oldest: number): number {
      let dropped = 0;
      db.transaction(() => {
        if (maxRows > 0 && rows > maxRows) {
          const last = nthSeq.get(rows - maxRows - 1);
          if (last) {
            advance(maxAtUpTo.get(last.seq)?.at);
            dropped += deleteUpTo.run(last.seq).changes;
          }
        }
        advance(maxAtBefore.get(oldest)?.at);
        dropped += deleteBefore.run(oldest).changes;
      })();
      rows -= dropped;
      return dropped;
    },
    /** The instant (epoch ms) from which every event is still in the log. */
    completeFrom: (): number => readState.get()?.complete_from ?? 0,
    /** Up to `limit` events of these channels at or after `from` (epoch ms), oldest first. */
    since: (cids: string[], from: number, limit: number): EventLogRow[] => since.all(JSON.stringify(cids), from, limit),
  };
}
