// The reads table: per member and channel, when they last read it and how many messages
// arrived since. Unread counts are kept as counters rather than counted from messages, so `me`
// and every event's unread totals are cheap to compute. A new message does not rewrite every
// member's row: it moves the channel's clock (`read_clocks`), and a row's count is its stored
// count plus how far the clock moved since the row last saw it (`seen_seq`); the sender's and
// the muters' rows see the move, so it does not count for them. Readers go through the
// `read_state` view, which adds the two.
import type { Db } from './db';

/** How many users' totals are kept at most; past it the oldest entry goes. */
const MAX_TOTALS = 20_000;
/** How many read rows the channels' copies hold at most; past it they are all dropped. */
const MAX_COPIED_ROWS = 200_000;
/**
 * A user's two totals kept as one number, `total × SPAN + channels`: raising a thousand
 * receivers' totals on each message then allocates nothing. Totals past these bounds are not
 * kept (the query answers for them).
 */
const SPAN = 2 ** 20;
const TOTAL_BOUND = 2 ** 32;

/** The totals as one number, when they fit. */
function pack(total: number, channels: number): number | undefined {
  return total >= 0 && channels >= 0 && total < TOTAL_BOUND && channels < SPAN ? total * SPAN + channels : undefined;
}

/** A user's totals as kept; `kept` turns false when they are dropped (a copied row then looks again). */
type Totals = { packed: number; kept: boolean };
/** A copied read row: its count, and its user's totals when they were last found. */
type CopiedRow = { unread: number; totals: Totals | undefined };

function unpack(packed: number): UnreadSummary {
  return { total: Math.floor(packed / SPAN), channels: packed % SPAN };
}

/**
 * Each user's unread totals (the sum of `reads.unread_messages` and the channels where it is
 * above zero), kept in memory: a message's fan-out needs them for every receiver, and asking
 * SQLite for each was the largest cost of a delivery left after the socket's own. One instance
 * per database (every store of that database shares it), told of every write to `reads`.
 * - A new message raises the count of every member but its sender and those who muted the
 *   channel: to know whose totals that changes (and which rose from 0, one more unread
 *   channel), the channel's read rows are copied (`user_id → unread_messages`, read once) and
 *   the same rule is applied to the copy and to the totals, with the muters the write skipped.
 * - Marking read or unread sets the row in the copy and drops the user's totals; new members'
 *   rows (0 unread) join the copy. Any other write drops what it touches, everything when it
 *   does not say (a truncation, a channel removed with its read state: `readStateChanged`).
 * - Totals are read and filled only outside a transaction (inside one, the query answers).
 *   Any change made inside a transaction leaves a row in a TEMP table written in the same
 *   transaction; before anything kept is used again, a missing row (its transaction or
 *   savepoint rolled back) drops it all.
 */
class UnreadTotals {
  /** Per user, their totals (`Totals`): the same object the channels' copies point to. */
  private readonly entries = new Map<string, Totals>();
  /** Per channel, its read rows' counts: the table's, as long as the channel is kept here. */
  private readonly copies = new Map<string, Map<string, CopiedRow>>();
  private copiedRows = 0;
  /** Marks written inside transactions and not checked yet. */
  private marks = 0;
  private readonly mark: () => void;
  private readonly countMarks: () => number;
  private readonly clearMarks: () => void;
  private readonly rowsOf: (cid: string) => Array<[string, number]>;

  constructor(private readonly db: Db) {
    db.exec('CREATE TEMP TABLE IF NOT EXISTS unread_marks (id INTEGER PRIMARY KEY)');
    const insert = db.prepare('INSERT INTO temp.unread_marks DEFAULT VALUES');
    const count = db.prepare<[], number>('SELECT COUNT(*) FROM temp.unread_marks').pluck();
    const clear = db.prepare('DELETE FROM temp.unread_marks');
    const rows = db.prepare<[string], [string, number]>('SELECT user_id, unread_messages FROM read_state WHERE cid = ?').raw();
    this.mark = () => void insert.run();
    this.countMarks = () => count.get() ?? 0;
    this.clearMarks = () => void clear.run();
    this.rowsOf = (cid) => rows.all(cid);
  }

  /** The user's totals packed, when known and usable here (outside a transaction). */
  get(userId: string): number | undefined {
    return this.usable() ? this.entries.get(userId)?.packed : undefined;
  }

  /**
   * `get` for many users in a row (a fan-out's receivers, while nothing writes): the
   * transaction and the marks are looked at once, not once per user.
   */
  getter(): (userId: string) => number | undefined {
    if (!this.usable()) return () => undefined;
    const entries = this.entries;
    return (userId) => entries.get(userId)?.packed;
  }

  /** Whether what is kept may be read now: outside a transaction, once any marks are settled. */
  private usable(): boolean {
    if (this.db.inTransaction) return false;
    if (this.marks) this.settle();
    return true;
  }

  /** Keeps totals just read from the table (outside a transaction only), when they fit. */
  set(userId: string, summary: UnreadSummary): void {
    const packed = pack(summary.total, summary.channels);
    if (this.db.inTransaction || packed === undefined) return;
    const known = this.entries.get(userId);
    if (known) {
      known.packed = packed;
      return;
    }
    if (this.entries.size >= MAX_TOTALS) this.drop(this.entries.keys().next().value as string);
    this.entries.set(userId, { packed, kept: true });
  }

  /**
   * Runs `update` (the increment of the channel's counts) and applies it to what is kept. A
   * channel is copied only while some totals are kept (a copy serves nothing else). Each copied
   * row points to its user's totals, so raising a thousand members' counts and totals looks
   * nothing up (a pointer to totals dropped since is looked up again).
   */
  increment(cid: string, senderId: string, mutedBy: string[], update: () => void): void {
    let copy = this.copies.get(cid);
    if (!copy && this.entries.size > 0) {
      copy = this.copy(cid);
      // Too many rows to copy: whose totals change is not known, so none are kept.
      if (!copy) this.dropAll();
    }
    update();
    if (!copy) return;
    this.changing();
    const muters = new Set(mutedBy);
    // forEach, not `for (const [userId, row] of copy)`: that makes an entry array per member,
    // some 64 KB of garbage a message in a thousand-member channel.
    copy.forEach((row, userId) => {
      if (userId === senderId || (muters.size > 0 && muters.has(userId))) return;
      const unread = row.unread++;
      let totals = row.totals;
      if (!totals?.kept) totals = row.totals = this.entries.get(userId);
      if (!totals) return;
      // One more message, and one more unread channel if it was read.
      const raised = pack(Math.floor(totals.packed / SPAN) + 1, (totals.packed % SPAN) + (unread === 0 ? 1 : 0));
      if (raised === undefined) this.drop(userId);
      else totals.packed = raised;
    });
  }

  /** The user's row in the channel, which exists, now holds `unread` (read or marked unread). */
  setRow(cid: string, userId: string, unread: number): void {
    this.drop(userId);
    const copy = this.copies.get(cid);
    if (!copy) return;
    this.changing();
    const row = copy.get(userId);
    if (row) row.unread = unread;
    else {
      this.copiedRows++;
      copy.set(userId, { unread, totals: undefined });
    }
  }

  /** A new member's row (0 unread: their totals stay). */
  addRow(cid: string, userId: string): void {
    const copy = this.copies.get(cid);
    if (!copy) return;
    this.changing();
    this.copiedRows++;
    copy.set(userId, { unread: 0, totals: undefined });
  }

  /** The user's read state changed some other way (undefined: anyone's may have). */
  forget(userId?: string): void {
    if (userId === undefined) this.dropAll();
    else this.drop(userId);
    this.dropCopies();
  }

  /** The user's totals are no longer kept: copied rows that point to them look again. */
  private drop(userId: string): void {
    const totals = this.entries.get(userId);
    if (!totals) return;
    totals.kept = false;
    this.entries.delete(userId);
  }

  private dropAll(): void {
    for (const totals of this.entries.values()) totals.kept = false;
    this.entries.clear();
  }

  private copy(cid: string): Map<string, CopiedRow> | undefined {
    const rows = this.rowsOf(cid);
    // A channel of more than half the bound is not copied: two such would evict each other on
    // every message, reading all their rows again each time.
    if (rows.length > MAX_COPIED_ROWS / 2) return undefined;
    // Each copy counts as one row at least, so channels without read rows (a livestream's
    // watchers who are not members) cannot grow the map past the bound either.
    const weight = Math.max(1, rows.length);
    if (this.copiedRows + weight > MAX_COPIED_ROWS) this.dropCopies();
    this.changing();
    const copy = new Map<string, CopiedRow>();
    for (const [userId, unread] of rows) copy.set(userId, { unread, totals: this.entries.get(userId) });
    this.copies.set(cid, copy);
    this.copiedRows += weight;
    return copy;
  }

  private dropCopies(): void {
    this.copies.clear();
    this.copiedRows = 0;
  }

  /** Before a change to what is kept: inside a transaction, leaves the mark that it committed. */
  private changing(): void {
    if (!this.db.inTransaction) return;
    this.mark();
    this.marks++;
  }

  /** Outside a transaction: keeps everything if every change made in one was committed. */
  private settle(): void {
    if (this.countMarks() !== this.marks) {
      this.dropAll();
      this.dropCopies();
    }
    this.clearMarks();
    this.marks = 0;
  }
}

/**
 * The clock of a `reads` row's channel now, for an UPDATE of `reads`: what a count set now
 * (read, unread, truncated) is as of.
 */
export const CLOCK_NOW = 'COALESCE((SELECT seq FROM read_clocks WHERE read_clocks.cid = reads.cid), 0)';

/** Members who muted the channel, as of `now` (a mute past its expiry no longer counts). */
const MUTERS = 'SELECT user_id FROM channel_mutes WHERE cid = ? AND (expires IS NULL OR expires > ?)';

const totalsOf = new WeakMap<Db, UnreadTotals>();

function unreadTotals(db: Db): UnreadTotals {
  let totals = totalsOf.get(db);
  if (!totals) totalsOf.set(db, (totals = new UnreadTotals(db)));
  return totals;
}

/**
 * For the stores that write `reads` outside this file: the user's read state (undefined: any
 * user's) changed, so the unread totals kept in memory for them are dropped.
 */
export function readStateChanged(db: Db, userId?: string): void {
  totalsOf.get(db)?.forget(userId);
}

export type ReadRow = {
  cid: string;
  user_id: string;
  last_read: string;
  last_read_message_id: string | null;
  unread_messages: number;
};

export type UnreadSummary = {
  /** Unread messages across all channels. */
  total: number;
  /** Channels with at least one unread message. */
  channels: number;
};

export function createReadStore(db: Db) {
  const totals = unreadTotals(db);
  const clock = db.prepare<[string], number>('SELECT seq FROM read_clocks WHERE cid = ?').pluck();
  const insert = db.prepare(
    'INSERT OR IGNORE INTO reads (cid, user_id, last_read, unread_messages, seen_seq) VALUES (?, ?, ?, 0, ?)',
  );
  const forChannel = db.prepare<[string], ReadRow>('SELECT * FROM read_state WHERE cid = ? ORDER BY user_id');
  const recentReaders = db.prepare<[string, number], ReadRow>('SELECT * FROM read_state WHERE cid = ? ORDER BY last_read DESC LIMIT ?');
  const forMember = db.prepare<[string, string], ReadRow>('SELECT * FROM read_state WHERE cid = ? AND user_id = ?');
  // Marking read or unread sets the count as of the clock now.
  const setCount = db.prepare<[string, string | null, number, string, string]>(
    `UPDATE reads SET last_read = ?, last_read_message_id = ?, unread_messages = ?, seen_seq = ${CLOCK_NOW}
     WHERE cid = ? AND user_id = ?`,
  );
  const tick = db.prepare<[string]>('INSERT INTO read_clocks (cid, seq) VALUES (?, 1) ON CONFLICT (cid) DO UPDATE SET seq = seq + 1');
  // The sender's own message is not unread for them; messages added to a channel a member
  // muted do not raise their unread count (the provider's rule), and what was unread before
  // the mute stays.
  const muters = db.prepare<[string, string], string>(MUTERS).pluck();
  const skipOne = db.prepare<[string, string]>('UPDATE reads SET seen_seq = seen_seq + 1 WHERE cid = ? AND user_id = ?');
  const skipMany = db.prepare<[string, string]>(
    'UPDATE reads SET seen_seq = seen_seq + 1 WHERE cid = ? AND user_id IN (SELECT DISTINCT value FROM json_each(?))',
  );
  const raiseOne = db.prepare<[string, string]>('UPDATE reads SET unread_messages = unread_messages + 1 WHERE cid = ? AND user_id = ?');
  const unreadCids = db.prepare<[string], { cid: string }>(
    'SELECT cid FROM read_state WHERE user_id = ? AND unread_messages > 0',
  );
  const summary = db.prepare<[string], { total: number; channels: number }>(
    `SELECT COALESCE(SUM(unread_messages), 0) AS total,
            COUNT(CASE WHEN unread_messages > 0 THEN 1 END) AS channels
     FROM read_state WHERE user_id = ?`,
  );

  /** The totals from the table, kept for next time. */
  const readSummary = (userId: string): UnreadSummary => {
    const read = summary.get(userId) ?? { total: 0, channels: 0 };
    totals.set(userId, read);
    return { total: read.total, channels: read.channels };
  };

  return {
    /** Starts read state for new members: everything before `at` counts as read. */
    start: (cid: string, userIds: string[], at: string) => {
      const seq = clock.get(cid) ?? 0;
      for (const userId of userIds) {
        if (insert.run(cid, userId, at, seq).changes > 0) totals.addRow(cid, userId);
      }
    },
    forChannel: (cid: string) => forChannel.all(cid),
    /**
     * What a channel response carries: the `limit` members who read most recently (those a
     * "seen by" can name) and the viewer's own, however many members the channel has.
     */
    recent(cid: string, viewerId: string | null, limit: number): ReadRow[] {
      const rows = recentReaders.all(cid, limit);
      if (viewerId === null || rows.some((row) => row.user_id === viewerId)) return rows;
      const own = forMember.get(cid, viewerId);
      return own ? [own, ...rows] : rows;
    },
    get: (cid: string, userId: string) => forMember.get(cid, userId),
    markRead: (cid: string, userId: string, at: string, lastReadMessageId: string | null) => {
      if (setCount.run(at, lastReadMessageId, 0, cid, userId).changes > 0) totals.setRow(cid, userId, 0);
    },
    /** Mark unread: read up to `at` (and that message), `unreadMessages` after it. */
    markUnread: (cid: string, userId: string, at: string, lastReadMessageId: string | null, unreadMessages: number) => {
      if (setCount.run(at, lastReadMessageId, unreadMessages, cid, userId).changes > 0) totals.setRow(cid, userId, unreadMessages);
    },
    /** Channels where the user has unread messages. */
    unreadChannels: (userId: string) => unreadCids.all(userId).map((row) => row.cid),
    /** A new message: one more unread for every member but its sender and those who muted the channel. */
    incrementUnread: (cid: string, senderId: string, now = new Date().toISOString()) => {
      const mutedBy = muters.all(cid, now);
      totals.increment(cid, senderId, mutedBy, () => {
        tick.run(cid);
        if (mutedBy.length === 0) skipOne.run(cid, senderId);
        else skipMany.run(cid, JSON.stringify([senderId, ...mutedBy]));
      });
    },

    /** A message only some users see: one more unread for those of them with read state who did not mute the channel. */
    incrementUnreadOf: (cid: string, userIds: string[], now = new Date().toISOString()) => {
      const mutedBy = new Set(muters.all(cid, now));
      for (const userId of userIds) {
        if (mutedBy.has(userId) || raiseOne.run(cid, userId).changes === 0) continue;
        totals.setRow(cid, userId, forMember.get(cid, userId)?.unread_messages ?? 0);
      }
    },

    /** The user's unread totals (kept in memory between writes: see UnreadTotals). */
    summary: (userId: string): UnreadSummary => {
      const known = totals.get(userId);
      return known === undefined ? readSummary(userId) : unpack(known);
    },
    /**
     * Each user's unread totals as one value, equal for users whose totals are equal: what a
     * fan-out groups its receivers by, found without making an object per receiver. For users
     * asked one after another with no write between (whether the totals kept can be used is
     * looked at once).
     */
    summaryKeys(): (userId: string) => number | string {
      const kept = totals.getter();
      return (userId) => {
        const known = kept(userId);
        if (known !== undefined) return known;
        const { total, channels } = readSummary(userId);
        return pack(total, channels) ?? `${total}/${channels}`;
      };
    },
  };
}
