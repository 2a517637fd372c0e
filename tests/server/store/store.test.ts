// Storage: migrations, persistence across restarts, and pagination that stays on the index.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StreamChat, type UserResponse } from 'stream-chat';
import { startServer } from '../../../src/server/index';
import { seedDemoData } from '../../../src/server/store/seed';
import { migrations } from '../../../src/server/store/migrations';
import { openStore } from '../../../src/server/store/store';
import { API_KEY, API_SECRET } from '../helpers';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-widget-db-'));
  dirs.push(dir);
  return dir;
};

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('store', () => {
  it('migrates a new database to the latest user_version in WAL mode', () => {
    const path = join(tempDir(), 'nested', 'chat.db');
    const store = openStore(path);
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(migrations.length);
      expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      store.close();
    }
    // Re-opening must not re-run the migrations (they would fail on existing tables).
    const reopened = openStore(path);
    expect(reopened.db.pragma('user_version', { simple: true })).toBe(migrations.length);
    reopened.close();
  });

  it('keeps user rows in memory without ever answering a stale or rolled-back one', () => {
    const store = openStore(':memory:');
    try {
      const { users } = store;
      users.upsert({ id: 'ann', name: 'Ann' });
      users.upsert({ id: 'bo', name: 'Bo' });
      expect(users.get('ann')?.name).toBe('Ann');
      // Every write replaces what was kept: an upsert, a whole replace, a lifecycle change.
      users.upsert({ id: 'ann', name: 'Ann B.' });
      expect(users.get('ann')?.name).toBe('Ann B.');
      users.replace('ann', { role: 'admin', name: 'Ann C.', image: null, custom: { tier: 2 } });
      expect(users.getMany(['ann', 'bo', 'nobody'])).toEqual(
        new Map([
          ['ann', expect.objectContaining({ name: 'Ann C.', role: 'admin', custom: '{"tier":2}' })],
          ['bo', expect.objectContaining({ name: 'Bo' })],
        ]),
      );
      users.setLifecycle('bo', { deactivated_at: '2026-01-01T00:00:00.000Z' });
      expect(users.get('bo')?.deactivated_at).toBe('2026-01-01T00:00:00.000Z');
      // A write that is rolled back leaves the stored row, and nothing read inside it is kept.
      expect(() =>
        store.transaction(() => {
          users.upsert({ id: 'bo', name: 'Rolled back' });
          expect(users.get('bo')?.name).toBe('Rolled back');
          throw new Error('abort');
        }),
      ).toThrow('abort');
      expect(users.get('bo')?.name).toBe('Bo');
      expect(users.getMany(['bo']).get('bo')?.name).toBe('Bo');
      // A kept row cannot be changed by a caller behind the store's back.
      expect(() => ((users.get('bo') as { name: string | null }).name = 'x')).toThrow(TypeError);
      users.removeCompletely('bo', null);
      expect(users.get('bo')).toBeUndefined();
    } finally {
      store.close();
    }
  });

  it("answers the ban that applies to a send in one lookup: a full ban before a shadow one, the app's before the channel's", () => {
    const store = openStore(':memory:');
    try {
      store.db.pragma('foreign_keys = OFF'); // the bans alone, without their users and channels
      const at = '2026-01-01T00:00:00.000Z';
      const ban = (cid: string | null, shadow: number, expires: string | null = null) =>
        store.bans.ban({ cid, user_id: 'u', created_by_id: null, reason: cid ? 'channel' : 'app', expires, shadow, created_at: at });
      const applying = () => store.bans.applying('messaging:a', 'u', '2026-06-01T00:00:00.000Z');
      expect(applying()).toBeUndefined();
      ban('messaging:b', 0); // another channel's
      expect(applying()).toBeUndefined();
      ban(null, 1);
      expect(applying()).toMatchObject({ cid: null, shadow: 1 });
      ban('messaging:a', 0);
      expect(applying()).toMatchObject({ cid: 'messaging:a', shadow: 0, reason: 'channel' });
      ban(null, 0);
      expect(applying()).toMatchObject({ cid: null, shadow: 0, reason: 'app' });
      ban(null, 0, '2026-02-01T00:00:00.000Z'); // ended before "now"
      expect(applying()).toMatchObject({ cid: 'messaging:a', shadow: 0 });
    } finally {
      store.close();
    }
  });

  it('finds the bans a database already held when it is opened again, and finds no ban for users who never had one', () => {
    const path = join(tempDir(), 'bans.db');
    const at = '2026-01-01T00:00:00.000Z';
    const now = '2026-06-01T00:00:00.000Z';
    const first = openStore(path);
    try {
      first.db.pragma('foreign_keys = OFF'); // the bans alone, without their users and channels
      first.bans.ban({ cid: null, user_id: 'app-banned', created_by_id: null, reason: 'app', expires: null, shadow: 0, created_at: at });
      first.bans.ban({ cid: 'messaging:a', user_id: 'channel-banned', created_by_id: null, reason: 'channel', expires: null, shadow: 1, created_at: at });
    } finally {
      first.close();
    }
    const reopened = openStore(path);
    try {
      expect(reopened.bans.applying('messaging:a', 'app-banned', now)).toMatchObject({ cid: null, reason: 'app' });
      expect(reopened.bans.applying('messaging:a', 'channel-banned', now)).toMatchObject({ cid: 'messaging:a', shadow: 1 });
      expect(reopened.bans.applying('messaging:a', 'never-banned', now)).toBeUndefined();
      expect(reopened.bans.global('app-banned', now)?.reason).toBe('app');
      expect(reopened.bans.inChannel('messaging:a', 'channel-banned', now)?.reason).toBe('channel');
      const users = ['never-banned', 'app-banned', 'channel-banned'];
      expect([...reopened.bans.globalOf(users, now).keys()]).toEqual(['app-banned']);
      expect([...reopened.bans.inChannelOf('messaging:a', users, now).keys()]).toEqual(['channel-banned']);
      // A ban added once the store has looked: found at once.
      reopened.db.pragma('foreign_keys = OFF');
      reopened.bans.ban({ cid: 'messaging:a', user_id: 'never-banned', created_by_id: null, reason: 'late', expires: null, shadow: 0, created_at: at });
      expect(reopened.bans.applying('messaging:a', 'never-banned', now)?.reason).toBe('late');
      expect([...reopened.bans.inChannelOf('messaging:a', users, now).keys()].sort()).toEqual(['channel-banned', 'never-banned']);
    } finally {
      reopened.close();
    }
  });

  it('seeds an empty database once', () => {
    const store = openStore(':memory:');
    try {
      expect(seedDemoData(store)).toBe(true);
      expect(seedDemoData(store)).toBe(false);
      expect(store.users.get('alice')?.name).toBe('Alice Johnson');
      const general = store.channels.get('messaging:general');
      expect(general).toMatchObject({ name: 'General', member_count: 4 });
      const page = store.messages.page('messaging:general', { limit: 25 });
      expect(page.length).toBeGreaterThanOrEqual(3);
      const times = page.map((m) => Date.parse(m.created_at));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(Date.now() - (times[0] ?? 0)).toBeLessThanOrEqual(60 * 60_000);
    } finally {
      store.close();
    }
  });

  it('reads every kind of message page through the (cid, created_at) index, without sorting', () => {
    const store = openStore(':memory:');
    // Record the SQL the message store prepares for each page, then ask SQLite how it runs it.
    const prepared: string[] = [];
    const prepare = store.db.prepare.bind(store.db);
    store.db.prepare = ((source: string) => {
      prepared.push(source);
      return prepare(source);
    }) as typeof store.db.prepare;
    try {
      seedDemoData(store);
      const cid = 'messaging:general';
      const pages = [
        { limit: 5 },
        { limit: 5, id_lt: 'seed-general-4' },
        { limit: 5, id_gt: 'seed-general-2' },
        { limit: 5, id_around: 'seed-general-3' },
        { limit: 5, created_at_around: new Date().toISOString() },
      ];
      for (const options of pages) expect(store.messages.page(cid, options).length).toBeGreaterThan(0);

      const scans = prepared.filter((source) => /FROM messages WHERE cid = \?/.test(source) && /LIMIT/.test(source));
      expect(scans.length).toBeGreaterThanOrEqual(pages.length);
      for (const source of scans) {
        const params = Array.from({ length: source.split('?').length - 1 }, () => 'x');
        const plan = (prepare(`EXPLAIN QUERY PLAN ${source}`).all(...params) as { detail: string }[])
          .map((row) => row.detail)
          .join(' | ');
        expect(plan, source).toMatch(/USING INDEX messages_cid_created_at \(cid=\?/);
        expect(plan, source).not.toMatch(/TEMP B-TREE/);
      }
    } finally {
      store.close();
    }
  });

  it('keeps users, channels and messages across a restart on a database file', async () => {
    const dbPath = join(tempDir(), 'chat.db');
    const signer = new StreamChat(API_KEY, API_SECRET);
    const first = await startServer({ port: 0, dbPath, apiKey: API_KEY, apiSecret: API_SECRET, quiet: true, seed: true });
    const writer = new StreamChat(API_KEY, { baseURL: first.url, allowServerSideConnect: true });
    try {
      await writer.connectUser({ id: 'alice', favourite: 'tea' } as UserResponse, signer.createToken('alice'));
      await writer.channel('messaging', 'general').watch();
      await writer.channel('messaging', 'general').sendMessage({ id: 'persisted-1', text: 'still here?' });
    } finally {
      await writer.disconnectUser();
      await first.close();
    }

    const second = await startServer({ port: 0, dbPath, apiKey: API_KEY, apiSecret: API_SECRET, quiet: true, seed: true });
    const reader = new StreamChat(API_KEY, { baseURL: second.url, allowServerSideConnect: true });
    try {
      expect(second.seeded).toBe(false);
      const connected = await reader.connectUser({ id: 'bob' }, signer.createToken('bob'));
      expect(connected?.me?.unread_count).toBe(1);
      const state = await reader.channel('messaging', 'general').watch();
      expect(state.messages.at(-1)).toMatchObject({ id: 'persisted-1', text: 'still here?' });
      expect(state.messages.at(-1)?.user).toMatchObject({ id: 'alice', favourite: 'tea' });
    } finally {
      await reader.disconnectUser();
      await second.close();
    }
  });
});
