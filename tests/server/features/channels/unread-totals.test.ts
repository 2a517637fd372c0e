// Unread totals kept in memory (store/reads.ts, UnreadTotals): after every kind of write to the
// read state, and after transactions that commit or roll back, `summary` answers exactly what
// the table says.
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../../src/server/store/store';

type Store = ReturnType<typeof openStore>;

/** What the table says (through the read_state view that adds the channel clock), asked directly. */
function truth(store: Store, userId: string) {
  return store.db
    .prepare<[string], { total: number; channels: number }>(
      `SELECT COALESCE(SUM(unread_messages), 0) AS total, COUNT(CASE WHEN unread_messages > 0 THEN 1 END) AS channels
       FROM read_state WHERE user_id = ?`,
    )
    .get(userId);
}

const users = ['ann', 'bo', 'cy', 'di'];

function setUp() {
  const store = openStore(':memory:');
  const now = '2026-01-01T00:00:00.000Z';
  for (const id of users) store.users.upsert({ id, name: id });
  for (const id of ['a', 'b', 'c']) {
    const cid = `messaging:${id}`;
    store.channels.create({ type: 'messaging', id, name: null, custom: {}, createdById: 'ann', now });
    store.channels.addMembers(cid, users, 'channel_member', now);
    store.reads.start(cid, users, now);
  }
  return store;
}

function expectExact(store: Store) {
  for (const id of users) expect(store.reads.summary(id), id).toEqual(truth(store, id));
}

describe('unread totals kept in memory', () => {
  it('follow every write to the read state', () => {
    const store = setUp();
    try {
      expectExact(store); // fills every entry
      store.reads.incrementUnread('messaging:a', 'ann');
      store.reads.incrementUnread('messaging:a', 'ann');
      store.reads.incrementUnread('messaging:b', 'bo');
      expectExact(store);
      expect(store.reads.summary('cy')).toEqual({ total: 3, channels: 2 });
      // A muted channel does not count a new message for the muter.
      store.mutes.muteChannel('cy', 'messaging:c', null, '2026-01-01T00:00:01.000Z');
      store.reads.incrementUnread('messaging:c', 'ann');
      expectExact(store);
      store.reads.markRead('messaging:a', 'cy', '2026-01-01T00:00:02.000Z', null);
      expectExact(store);
      store.reads.markUnread('messaging:b', 'di', '2026-01-01T00:00:00.000Z', null, 7);
      expectExact(store);
      store.channelAdmin.truncate('messaging:b', '2026-01-01T00:00:03.000Z', false, '2026-01-01T00:00:03.000Z');
      expectExact(store);
      store.reads.incrementUnread('messaging:c', 'bo');
      expectExact(store);
      store.memberships.remove('messaging:c', ['ann']);
      expectExact(store);
      store.reads.incrementUnread('messaging:a', 'bo');
      store.channelAdmin.hardDelete('messaging:a');
      expectExact(store);
      store.reads.incrementUnread('messaging:c', 'cy');
      store.users.removeCompletely('di', null);
      expectExact(store);
    } finally {
      store.close();
    }
  });

  it('forget increments whose transaction or savepoint rolled back, and keep committed ones', () => {
    const store = setUp();
    try {
      expectExact(store);
      // Committed inside a transaction.
      store.transaction(() => store.reads.incrementUnread('messaging:a', 'ann'));
      expectExact(store);
      // Rolled back: the entries must not keep the increment.
      expect(() =>
        store.transaction(() => {
          store.reads.incrementUnread('messaging:b', 'ann');
          // Inside, the table answers, with the transaction's own write.
          expect(store.reads.summary('bo')).toEqual({ total: 2, channels: 2 });
          throw new Error('abort');
        }),
      ).toThrow('abort');
      expectExact(store);
      expect(store.reads.summary('bo')).toEqual({ total: 1, channels: 1 });
      // A savepoint rolled back inside a transaction that commits.
      store.transaction(() => {
        store.reads.incrementUnread('messaging:c', 'ann');
        try {
          store.transaction(() => {
            store.reads.incrementUnread('messaging:a', 'ann');
            throw new Error('inner');
          });
        } catch {
          // the outer transaction goes on
        }
      });
      expectExact(store);
      expect(store.reads.summary('bo')).toEqual({ total: 2, channels: 2 });
      // Outside any transaction again, increments keep applying.
      store.reads.incrementUnread('messaging:a', 'bo');
      expectExact(store);
    } finally {
      store.close();
    }
  });

  it('follow new members, expired mutes and marks on rows that do not exist', () => {
    const store = setUp();
    try {
      expectExact(store);
      store.reads.incrementUnread('messaging:a', 'ann'); // the channel's rows are copied
      store.users.upsert({ id: 'ed', name: 'ed' });
      store.channels.addMembers('messaging:a', ['ed'], 'channel_member', '2026-01-01T00:00:00.000Z');
      store.reads.start('messaging:a', ['ed', 'bo'], '2026-01-01T00:00:00.000Z');
      expect(store.reads.summary('ed')).toEqual({ total: 0, channels: 0 });
      store.reads.incrementUnread('messaging:a', 'ann');
      expect(store.reads.summary('ed')).toEqual({ total: 1, channels: 1 });
      // A mute that has expired (not yet deleted) no longer holds the count back.
      store.mutes.muteChannel('bo', 'messaging:a', '2026-01-01T00:00:05.000Z', '2026-01-01T00:00:00.000Z');
      store.reads.incrementUnread('messaging:a', 'ann', '2026-01-01T00:00:04.000Z');
      expectExact(store);
      store.reads.incrementUnread('messaging:a', 'ann', '2026-01-01T00:00:06.000Z');
      expectExact(store);
      expect(store.reads.summary('bo')).toEqual({ total: 3, channels: 1 });
      // Marking a channel the user has no row in changes nothing, and adds no row.
      store.reads.markRead('messaging:a', 'nobody', '2026-01-01T00:00:07.000Z', null);
      store.reads.markUnread('messaging:b', 'nobody', '2026-01-01T00:00:07.000Z', null, 3);
      store.reads.incrementUnread('messaging:a', 'cy');
      store.reads.incrementUnread('messaging:b', 'cy');
      expectExact(store);
      expect(truth(store, 'nobody')).toEqual({ total: 0, channels: 0 });
      expect(store.reads.summary('nobody')).toEqual({ total: 0, channels: 0 });
      // A channel copied inside a transaction that rolls back.
      expect(() =>
        store.transaction(() => {
          store.reads.markUnread('messaging:c', 'bo', '2026-01-01T00:00:00.000Z', null, 4);
          store.reads.incrementUnread('messaging:c', 'ann');
          throw new Error('abort');
        }),
      ).toThrow('abort');
      expectExact(store);
      store.reads.incrementUnread('messaging:c', 'ann');
      expectExact(store);
    } finally {
      store.close();
    }
  });

  it('hand out totals no caller can change for another', () => {
    const store = setUp();
    try {
      store.reads.incrementUnread('messaging:a', 'bo');
      store.reads.summary('ann');
      const kept = store.reads.summary('ann');
      kept.total = 5;
      expect(store.reads.summary('ann')).toEqual(truth(store, 'ann'));
      // Users with the same totals share a key, and others do not, kept or read from the table.
      const key = store.reads.summaryKeys();
      expect(key('cy')).toBe(key('ann'));
      expect(key('bo')).not.toBe(key('ann'));
      store.transaction(() => {
        const inside = store.reads.summaryKeys();
        expect(inside('cy')).toBe(key('ann'));
        expect(inside('bo')).toBe(key('bo'));
      });
    } finally {
      store.close();
    }
  });
});
