// Search through the real SDK as several users: GET /search over the full-text index
// (words, prefixes, case and accents, filters, sorts, paging with `next`), who may find what,
// the index following edits and deletes, the SDK's three search sources, and bad input, which
// is always the provider's error JSON or an empty result, never a 500.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelSearchSource, MessageSearchSource, UserSearchSource, type Channel, type ChannelData, type StreamChat, type UserFilters } from 'stream-chat';
import { messageCondition } from '../../../../src/server/features/search/message-filter';
import { NARROW_MAX_CHANNEL_MESSAGES, NARROW_MIN_MATCHES } from '../../../../src/server/store/search';
import { seedSearchData } from '../../../bench/search-data';
import { createUsers, startHarness, type Harness } from '../../helpers';

let harness: Harness;
let alice: StreamChat;
let bob: StreamChat;
let carol: StreamChat;
let trail: Channel;

const texts = (results: { message: { text?: string } }[]) => results.map((r) => r.message.text);
const mine = (user: string) => ({ members: { $in: [user] } });
// Channel names are custom data to the SDK's types.
const named = (data: Record<string, unknown>) => data as ChannelData;

beforeAll(async () => {
  // One user sends far more than 60 requests a minute to one endpoint here: rate limits off.
  harness = await startHarness({ limits: { rateLimits: false } });
  await createUsers(harness, 'alice', 'bob', 'carol', 'dave');
  await harness.admin.upsertUsers([{ id: 'zoe', name: 'Zoë Lantern' }]);
  alice = await harness.connect('alice');
  bob = await harness.connect('bob');
  carol = await harness.connect('carol');
  trail = alice.channel('messaging', 'search-trail', named({ name: 'Trail talk', members: ['alice', 'bob'] }));
  await trail.watch();
  for (const text of [
    'Coffee at the Café by the trailhead?',
    'Meet at the CAFE at nine',
    'My résumé is attached',
    'Nothing to see here',
    'Meet NEAR the OR gate -- "quoted" and it\'s fine*',
  ]) {
    await trail.sendMessage({ text });
  }
  const secret = carol.channel('messaging', 'search-secret', named({ name: 'Secret plans', members: ['carol', 'dave'] }));
  await secret.watch();
  await secret.sendMessage({ text: 'Café secret: the surprise party' });
  const open = carol.channel('livestream', 'search-open', named({ name: 'Open stage' }));
  await open.watch();
  await open.sendMessage({ text: 'Café concert tonight on the open stage' });
});

afterAll(async () => {
  await harness?.close();
});

describe('finding messages', () => {
  it('finds words whatever their case and accents, by prefix, newest first, with their channel', async () => {
    const { results } = await alice.search(mine('alice'), 'cafe');
    expect(texts(results)).toEqual(['Meet at the CAFE at nine', 'Coffee at the Café by the trailhead?']);
    expect(results[0]?.message).toMatchObject({ cid: 'messaging:search-trail', user: { id: 'alice' }, channel: { name: 'Trail talk' } });
    expect(texts((await alice.search(mine('alice'), 'CAF')).results)).toHaveLength(2);
    expect(texts((await alice.search(mine('alice'), 'resume')).results)).toEqual(['My résumé is attached']);
    expect(texts((await alice.search(mine('alice'), 'trail')).results)).toEqual(['Coffee at the Café by the trailhead?']);
  });

  it('needs every word to match', async () => {
    expect(texts((await alice.search(mine('alice'), 'meet nine')).results)).toEqual(['Meet at the CAFE at nine']);
    expect((await alice.search(mine('alice'), 'meet coffee')).results).toEqual([]);
  });

  it('finds only messages of channels the user may read', async () => {
    // Carol's members-only channel: not for Alice, whatever the filter says.
    expect(texts((await alice.search({}, 'secret')).results)).toEqual([]);
    expect((await alice.search({ cid: 'messaging:search-secret' }, 'cafe')).results).toEqual([]);
    expect(texts((await carol.search(mine('carol'), 'secret')).results)).toEqual(['Café secret: the surprise party']);
    // A livestream channel is open to everyone signed in, members or not.
    expect(texts((await alice.search({ type: 'livestream' }, 'cafe')).results)).toEqual(['Café concert tonight on the open stage']);
    expect(texts((await alice.search(mine('alice'), 'concert')).results)).toEqual([]);
    // Server-side calls see every channel.
    expect((await harness.admin.search({}, 'cafe')).results).toHaveLength(4);
  });

  it('pages with next until the last page, which has none', async () => {
    const paging = bob.channel('messaging', 'search-paging', { members: ['bob'] });
    await paging.watch();
    for (let i = 0; i < 25; i++) await paging.sendMessage({ text: `lantern number ${i}` });
    const first = await bob.search(mine('bob'), 'lantern', { limit: 10 });
    expect(texts(first.results)).toEqual(Array.from({ length: 10 }, (_, i) => `lantern number ${24 - i}`));
    expect(first.previous).toBeUndefined();
    const second = await bob.search(mine('bob'), 'lantern', { limit: 10, next: first.next });
    expect(texts(second.results)).toEqual(Array.from({ length: 10 }, (_, i) => `lantern number ${14 - i}`));
    expect(second.previous).toBeDefined();
    const third = await bob.search(mine('bob'), 'lantern', { limit: 10, next: second.next });
    expect(texts(third.results)).toEqual(Array.from({ length: 5 }, (_, i) => `lantern number ${4 - i}`));
    expect(third.next).toBeUndefined();
    // `previous` goes back a page; offsets page too.
    expect(texts((await bob.search(mine('bob'), 'lantern', { limit: 10, next: third.previous })).results)).toEqual(texts(second.results));
    expect(texts((await bob.search(mine('bob'), 'lantern', { limit: 10, offset: 20 })).results)).toEqual(texts(third.results));
    // Oldest first.
    const oldest = await bob.search(mine('bob'), 'lantern', { limit: 3, sort: [{ created_at: 1 }] });
    expect(texts(oldest.results)).toEqual(['lantern number 0', 'lantern number 1', 'lantern number 2']);
    expect(texts((await bob.search(mine('bob'), 'lantern', { limit: 3, sort: [{ created_at: 1 }], next: oldest.next })).results)).toEqual([
      'lantern number 3', 'lantern number 4', 'lantern number 5',
    ]);
  });
});

describe('message filters and sorts', () => {
  let filters: Channel;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    filters = alice.channel('messaging', 'search-filters', { members: ['alice', 'bob'] });
    await filters.watch();
    const send = async (key: string, message: Record<string, unknown>) => {
      ids[key] = (await filters.sendMessage({ text: '', ...message })).message.id;
    };
    await send('plain', { text: 'kayak trip on saturday' });
    await send('attached', { text: 'kayak photos', attachments: [{ type: 'image', image_url: 'https://example.com/kayak.jpg' }] });
    await send('reply', { text: 'kayak reply in the thread', parent_id: ids.plain });
    await send('pinned', { text: 'kayak rules, please read' });
    await alice.pinMessage(ids.pinned as string);
    const bc = bob.channel('messaging', 'search-filters');
    await bc.watch();
    ids.bob = (await bc.sendMessage({ text: 'kayak kayak kayak from bob' })).message.id;
  });

  const search = (conditions: Record<string, unknown>, options = {}) =>
    alice.search({ cid: 'messaging:search-filters' }, conditions, options).then((r) => r.results.map((x) => x.message.id));

  it('filters by text with type regular, leaving thread replies out', async () => {
    expect(await search({ text: { $autocomplete: 'kaya' }, type: 'regular' })).toEqual([ids.bob, ids.pinned, ids.attached, ids.plain]);
    expect(await search({ text: 'kayak' })).toContain(ids.reply);
    expect(await search({ text: { $q: 'thread' } })).toEqual([ids.reply]);
  });

  it('filters by author, time, attachments and pins', async () => {
    expect(await search({ text: 'kayak', 'user.id': 'bob' })).toEqual([ids.bob]);
    expect(await search({ text: 'kayak', 'user.id': { $ne: 'bob' }, type: 'regular' })).toEqual([ids.pinned, ids.attached, ids.plain]);
    expect(await search({ text: 'kayak', attachments: { $exists: true } })).toEqual([ids.attached]);
    expect(await search({ text: 'kayak', 'attachments.type': { $in: ['image'] } })).toEqual([ids.attached]);
    expect(await search({ text: 'kayak', pinned: true })).toEqual([ids.pinned]);
    const { message } = await alice.getMessage(ids.attached as string);
    const at = message.created_at as string;
    expect(await search({ text: 'kayak', type: 'regular', created_at: { $lte: at } })).toEqual([ids.attached, ids.plain]);
    expect(await search({ text: 'kayak', type: 'regular', created_at: { $gt: at } })).toEqual([ids.bob, ids.pinned]);
    // Without text: the other conditions alone.
    expect(await search({ pinned: true })).toEqual([ids.pinned]);
    expect(await search({ $or: [{ text: 'photos' }, { text: 'rules' }] })).toEqual([ids.pinned, ids.attached]);
  });

  it('sorts by relevance when asked', async () => {
    const ranked = await search({ text: 'kayak', type: 'regular' }, { sort: [{ relevance: -1 }, { created_at: -1 }] });
    expect(ranked[0]).toBe(ids.bob);
    expect(ranked).toHaveLength(4);
  });
});

describe('the relevance order', () => {
  it('ranks by bm25 on a small fixed corpus: more hits, then shorter text, then the newest', async () => {
    const ranking = alice.channel('messaging', 'search-ranking', { members: ['alice'] });
    await ranking.watch();
    const ids: Record<string, string> = {};
    // bm25 ranks these the same whatever the rest of the index holds: two hits in two words beat
    // one in one word, and with one hit the shorter text wins; equal texts go newest first.
    for (const [key, text] of [
      ['one', 'quokka'],
      ['long', 'one quokka with nine other words in this long message'],
      ['two', 'quokka quokka'],
      ['six', 'a quokka at the zoo today'],
      ['again', 'quokka'],
    ]) {
      ids[key as string] = (await ranking.sendMessage({ text })).message.id;
    }
    const ranked = async (sort: object[]) =>
      (await alice.search({ cid: 'messaging:search-ranking' }, 'quokka', { sort })).results.map((r) => r.message.id);
    expect(await ranked([{ relevance: -1 }])).toEqual([ids.two, ids.again, ids.one, ids.six, ids.long]);
    expect(await ranked([{ relevance: -1 }, { created_at: 1 }])).toEqual([ids.two, ids.one, ids.again, ids.six, ids.long]);
    // Pages of the ranking follow each other.
    const first = await alice.search({ cid: 'messaging:search-ranking' }, 'quokka', { sort: [{ relevance: -1 }], limit: 2 });
    const second = await alice.search({ cid: 'messaging:search-ranking' }, 'quokka', { sort: [{ relevance: -1 }], limit: 2, offset: 2 });
    expect([...first.results, ...second.results].map((r) => r.message.id)).toEqual([ids.two, ids.again, ids.one, ids.six]);
  });
});

// A query that matches many messages is ranked on the index within the searched channels before
// any message is read (store/search.ts). Over the bench's generated data (20,000 messages in
// 2,000 channels), every page it gives must be the one the exhaustive ranking gives: one SQL
// query over every match, ordered by FTS5's rank as the search always was.
describe('relevance narrowed to the channels equals the exhaustive ranking', () => {
  let dir: string;
  let big: Harness;
  let reader: Database.Database;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chat-widget-rank-'));
    const dbPath = join(dir, 'chat.db');
    seedSearchData(dbPath, 20_000);
    big = await startHarness({ dbPath, limits: { rateLimits: false } });
    reader = new Database(dbPath, { readonly: true });
  }, 60_000);

  afterAll(async () => {
    reader?.close();
    await big?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The exhaustive ranking: every match in `cids`, ordered as the search orders by relevance. */
  const exhaustive = (text: string, cids: string[], page: { limit: number; offset: number }, extra: { userId?: string; oldestFirst?: boolean } = {}) => {
    const match = messageCondition(text, undefined).match as string;
    return reader
      .prepare(
        `SELECT m.id FROM message_search s JOIN messages m ON m.seq = s.rowid
          WHERE s.message_search MATCH ? AND m.cid IN (SELECT value FROM json_each(?))
            AND m.deleted_at IS NULL AND m.type = 'regular' ${extra.userId ? 'AND m.user_id = ?' : ''}
          ORDER BY s.rank, s.rowid ${extra.oldestFirst ? 'ASC' : 'DESC'} LIMIT ? OFFSET ?`,
      )
      .pluck()
      .all(match, JSON.stringify(cids), ...(extra.userId ? [extra.userId] : []), page.limit, page.offset) as string[];
  };

  it('is narrowed at all: the queries match enough messages', () => {
    const count = (text: string) =>
      reader.prepare('SELECT count(*) FROM message_search WHERE message_search MATCH ?').pluck().get(messageCondition(text, undefined).match) as number;
    expect(count('k')).toBeGreaterThanOrEqual(NARROW_MIN_MATCHES);
    expect(count('m')).toBeGreaterThanOrEqual(NARROW_MIN_MATCHES);
    expect(20_000).toBeLessThan(NARROW_MAX_CHANNEL_MESSAGES);
  });

  it("gives a user's pages exactly, newest first or oldest first among equals", async () => {
    const alice = await big.connect('alice');
    const cids = reader.prepare("SELECT cid FROM members WHERE user_id = 'alice'").pluck().all() as string[];
    for (const text of ['k', 'm', 'k m']) {
      for (const [sort, oldestFirst] of [[[{ relevance: -1 }], false], [[{ relevance: -1 }, { created_at: 1 }], true]] as const) {
        for (const page of [{ limit: 10, offset: 0 }, { limit: 10, offset: 10 }, { limit: 100, offset: 20 }]) {
          const { results } = await alice.search({ members: { $in: ['alice'] } }, { text, type: 'regular' }, { sort: [...sort], ...page });
          expect(results.map((r) => r.message.id), `${text} ${JSON.stringify(sort)} ${page.offset}`).toEqual(exhaustive(text, cids, page, { oldestFirst }));
        }
      }
    }
  });

  it('ranks again for the next page when a message arrived in between', async () => {
    const alice = await big.connect('alice');
    const cids = reader.prepare("SELECT cid FROM members WHERE user_id = 'alice'").pluck().all() as string[];
    const search = (offset: number) =>
      alice.search({ members: { $in: ['alice'] } }, { text: 'k', type: 'regular' }, { sort: [{ relevance: -1 }], limit: 10, offset });
    const before = await search(0);
    expect(before.results.map((r) => r.message.id)).toEqual(exhaustive('k', cids, { limit: 10, offset: 0 }));
    // Three words that all match: among the best, so everything after it moves down a place.
    const sent = await alice.channel('messaging', (cids[0] as string).split(':')[1]).sendMessage({ text: 'kabuki kite kettle' });
    expect(exhaustive('k', cids, { limit: 10, offset: 0 })).toContain(sent.message.id);
    const after = await search(10);
    const expected = exhaustive('k', cids, { limit: 10, offset: 10 });
    expect(after.results.map((r) => r.message.id)).toEqual(expected);
    expect(expected[0]).toBe(before.results[9]?.message.id);
  });

  it('widens the ranked set when the other conditions leave out most of it', async () => {
    // 600 channels, and only one author's messages: most of the best ranked are left out.
    const cids = Array.from({ length: 600 }, (_, i) => `messaging:c${i}`);
    const author = reader
      .prepare('SELECT user_id FROM messages WHERE cid IN (SELECT value FROM json_each(?)) GROUP BY user_id ORDER BY count(*) DESC LIMIT 1')
      .pluck()
      .get(JSON.stringify(cids)) as string;
    for (const page of [{ limit: 10, offset: 0 }, { limit: 30, offset: 10 }]) {
      const { results } = await big.admin.search({ cid: { $in: cids } }, { text: 'k', type: 'regular', 'user.id': author }, { sort: [{ relevance: -1 }], ...page });
      const expected = exhaustive('k', cids, page, { userId: author });
      expect(expected.length).toBeGreaterThan(0);
      expect(results.map((r) => r.message.id)).toEqual(expected);
    }
  });
});

describe('the index follows the messages', () => {
  it('finds edited text, and forgets deleted messages', async () => {
    const { message } = await trail.sendMessage({ text: 'a canoe for rent' });
    expect(texts((await alice.search(mine('alice'), 'canoe')).results)).toEqual(['a canoe for rent']);
    await alice.updateMessage({ id: message.id, text: 'a paddleboard for rent' });
    expect((await alice.search(mine('alice'), 'canoe')).results).toEqual([]);
    expect(texts((await alice.search(mine('alice'), 'paddle')).results)).toEqual(['a paddleboard for rent']);
    await alice.deleteMessage(message.id);
    expect((await alice.search(mine('alice'), 'paddle')).results).toEqual([]);
    await harness.admin.undeleteMessage(message.id, 'alice');
    expect(texts((await alice.search(mine('alice'), 'paddle')).results)).toEqual(['a paddleboard for rent']);
    await harness.admin.deleteMessage(message.id, true);
    expect((await alice.search(mine('alice'), 'paddle')).results).toEqual([]);
  });
});

describe("the SDK's search sources", () => {
  it('MessageSearchSource pages with next and knows when it has all', async () => {
    const source = new MessageSearchSource(bob, { pageSize: 10 });
    source.activate();
    await source.executeQuery('lantern');
    expect(source.items).toHaveLength(10);
    expect(source.hasNext).toBe(true);
    await source.executeQuery();
    await source.executeQuery();
    expect(source.items?.map((m) => m.text)).toEqual(Array.from({ length: 25 }, (_, i) => `lantern number ${24 - i}`));
    expect(source.hasNext).toBe(false);
    expect(source.lastQueryError).toBeUndefined();
  });

  it('UserSearchSource finds people by id or name prefix, without oneself', async () => {
    const source = new UserSearchSource(alice, { pageSize: 10, filters: { $nor: [{ id: 'alice' }] } satisfies UserFilters });
    source.activate();
    await source.executeQuery('zo');
    expect(source.items?.map((u) => u.id)).toEqual(['zoe']);
    await source.executeQuery('a');
    expect(source.items?.map((u) => u.id)).not.toContain('alice');
    expect(source.lastQueryError).toBeUndefined();
  });

  it('ChannelSearchSource finds the channels one is a member of by name', async () => {
    const source = new ChannelSearchSource(alice, { pageSize: 10 });
    source.activate();
    await source.executeQuery('trail');
    expect(source.items?.map((c) => c.cid)).toEqual(['messaging:search-trail']);
    await source.executeQuery('secret');
    expect(source.items).toEqual([]);
  });
});

describe('bad input: the error JSON or an empty result, never a 500', () => {
  const asAlice = () => ({ token: harness.token('alice'), userId: 'alice' });
  const raw = (payload: unknown) =>
    harness.request('/search', { ...asAlice(), query: { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) } });
  const refused = async (payload: unknown, message: RegExp) => {
    const res = await raw(payload);
    expect(res.status, JSON.stringify(payload).slice(0, 80)).toBe(400);
    expect(res.body).toMatchObject({ code: 4, StatusCode: 400 });
    expect(res.body.message).toMatch(message);
  };
  const filter = mine('alice');

  it('refuses an empty query', async () => {
    await refused({ filter_conditions: filter, query: '' }, /query must not be empty/);
    await refused({ filter_conditions: filter, query: '   ' }, /query must not be empty/);
    await refused({ filter_conditions: filter, message_filter_conditions: { text: '' } }, /text must not be empty/);
    await refused({ filter_conditions: filter }, /either query or message_filter_conditions is required/);
  });

  it('refuses a 10,000-character query', async () => {
    await refused({ filter_conditions: filter, query: 'word '.repeat(2000) }, /query is longer than 1000 characters/);
    await expect(alice.search(filter, 'x'.repeat(10_000))).rejects.toMatchObject({ code: 4, status: 400 });
    // The other two sources send it too, twice over in one URL: still JSON, simply no match.
    const long = 'é'.repeat(10_000);
    expect((await alice.queryUsers({ $or: [{ id: { $autocomplete: long } }, { name: { $autocomplete: long } }] })).users).toEqual([]);
    expect(await alice.queryChannels({ members: { $in: ['alice'] }, name: { $autocomplete: long } })).toEqual([]);
  });

  it('searches FTS and SQL special characters as text, never as syntax', async () => {
    for (const query of ['"', '*', "'", '--', '"*\'--', "'; DROP TABLE messages; --", '"unterminated', 'a*b', '(', ')', '^', ':']) {
      const res = await raw({ filter_conditions: filter, query });
      expect(res.status, query).toBe(200);
      expect(res.body.results, query).toEqual([]);
    }
    const special = 'Meet NEAR the OR gate -- "quoted" and it\'s fine*';
    for (const query of ['NEAR', 'OR', 'near the or gate', '"quoted"', "it's", 'fine*', 'NEAR(', 'NEAR(the OR gate)', 'gate OR']) {
      const res = await raw({ filter_conditions: filter, query });
      expect(res.status, query).toBe(200);
      expect(texts(res.body.results), query).toEqual([special]);
    }
    expect((await raw({ filter_conditions: filter, query: 'quoted AND nothing' })).body.results).toEqual([]);
  });

  it('refuses offset with next (the SDK already refuses it itself)', async () => {
    const first = await alice.search(filter, 'meet', { limit: 1 });
    expect(first.next).toBeDefined();
    await refused({ filter_conditions: filter, query: 'meet', limit: 1, offset: 1, next: first.next }, /Cannot specify offset with next/);
    await expect(alice.search(filter, 'meet', { offset: 1, next: first.next })).rejects.toThrow(/Cannot specify offset with next/);
    await refused({ filter_conditions: filter, query: 'meet', next: 'not-a-cursor' }, /next is not a cursor/);
  });

  it('refuses unknown fields and operators, and finds nothing by an unknown custom field', async () => {
    await refused({ filter_conditions: filter, message_filter_conditions: { 'no such field!': 1 } }, /invalid field name/);
    await refused({ filter_conditions: filter, message_filter_conditions: { type: { $regex: 'reg.*' } } }, /unsupported operator \$regex/);
    await refused({ filter_conditions: filter, message_filter_conditions: { text: { $regex: 'x' } } }, /unsupported operator \$regex on field text/);
    await refused({ filter_conditions: { cid: { $like: 'messaging:%' } }, query: 'cafe' }, /unsupported operator \$like/);
    await refused({ filter_conditions: { 'bad name': 1 }, query: 'cafe' }, /invalid field name/);
    await refused({ filter_conditions: filter, query: 'cafe', sort: [{ field: 'user.name', direction: 1 }] }, /cannot sort by user.name/);
    const custom = await raw({ filter_conditions: filter, message_filter_conditions: { text: 'cafe', mood: 'sunny' } });
    expect(custom.status).toBe(200);
    expect(custom.body.results).toEqual([]);
  });

  it('finds nothing in a channel the user may not read, without saying whether it exists', async () => {
    for (const cid of ['messaging:search-secret', 'messaging:no-such-channel']) {
      const res = await raw({ filter_conditions: { cid }, query: 'cafe' });
      expect(res.status).toBe(200);
      expect(res.body.results).toEqual([]);
    }
  });

  it('refuses malformed payloads and limits', async () => {
    await refused('{not json', /payload must be JSON/);
    await refused({ query: 'cafe' }, /filter_conditions is required/);
    await refused({ filter_conditions: 'everything', query: 'cafe' }, /filter_conditions is required/);
    await refused({ filter_conditions: filter, query: 42 }, /query must be a string/);
    await refused({ filter_conditions: filter, query: 'cafe', limit: 1000 }, /limit must be an integer/);
    await refused({ filter_conditions: filter, query: 'cafe', offset: -1 }, /offset must be an integer/);
    await refused({ filter_conditions: filter, message_filter_conditions: { text: { $q: 42 } } }, /needs a string/);
    await refused({ filter_conditions: filter, message_filter_conditions: { attachments: true } }, /attachments only supports/);
  });
});
