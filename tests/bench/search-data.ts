// The search benchmark's data: 200 users (the four demo users among them), 2,000 channels of
// five members each, and any number of messages spread evenly over the channels, one second
// apart. Text is drawn from a generated vocabulary with a Zipf-like spread, plus words planted
// at known rates so the queries range from common to rare. Written straight into a database
// file through the store, in one transaction; the search index fills through its triggers.
import { openStore } from '../../src/server/store/store';
import { DEMO_USERS } from '../../src/server/store/seed';

export const CHANNELS = 2000;
export const USERS = 200;
const MEMBERS_PER_CHANNEL = 5;

/** Words planted at a known share of messages. */
export const PLANTED = { harbour: 0.05, café: 0.01, lantern: 0.005, tideline: 0.0005, zéphyr: 0.00005 } as const;

/** mulberry32: a small seeded generator, so every run searches the same data. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'shi', 'po', 've', 'da', 'gri', 'fen', 'mar', 'sol', 'tor', 'lin', 'bas', 'cor', 'del', 'quo', 'zen', 'pra', 'hil', 'wen'];

export const userIds = (): string[] => [
  ...DEMO_USERS.map((user) => user.id),
  ...Array.from({ length: USERS - DEMO_USERS.length }, (_, i) => `user-${i + DEMO_USERS.length}`),
];

/** Seeds `messages` messages into the database file at `path`; returns the seconds it took. */
export function seedSearchData(path: string, messages: number): number {
  const rand = random(5);
  const vocabulary = Array.from({ length: 8000 }, () => {
    let word = '';
    const syllables = 2 + Math.floor(rand() * 3);
    for (let i = 0; i < syllables; i++) word += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    return word;
  });
  const word = () => vocabulary[Math.floor(rand() ** 2.2 * vocabulary.length)] as string;
  const users = userIds();
  const started = performance.now();
  const store = openStore(path);
  const since = Date.now() - messages * 1000;
  const at = (n: number) => new Date(since + n * 1000).toISOString();
  // The statement store.messages.add runs, without reading every row back.
  const insert = store.db.prepare(
    `INSERT INTO messages (id, cid, user_id, type, text, created_at, updated_at) VALUES (?, ?, ?, 'regular', ?, ?, ?)`,
  );
  store.transaction(() => {
    for (const id of users) store.users.upsert({ id, name: DEMO_USERS.find((user) => user.id === id)?.name ?? `User ${id.slice(5)}` });
    const members: string[][] = [];
    for (let c = 0; c < CHANNELS; c++) {
      const cid = `messaging:c${c}`;
      const chosen = new Set([users[c % USERS] as string]);
      while (chosen.size < MEMBERS_PER_CHANNEL) chosen.add(users[Math.floor(rand() * USERS)] as string);
      members.push([...chosen]);
      store.channels.create({ type: 'messaging', id: `c${c}`, name: `${word()} ${word()}`, custom: {}, createdById: [...chosen][0] ?? null, now: at(0) });
      store.channels.addMembers(cid, [...chosen], 'member', at(0));
    }
    for (let n = 0; n < messages; n++) {
      const c = Math.floor(rand() * CHANNELS);
      const text = Array.from({ length: 4 + Math.floor(rand() * 12) }, word);
      for (const [planted, share] of Object.entries(PLANTED)) {
        if (rand() < share) text.splice(Math.floor(rand() * text.length), 0, planted);
      }
      const author = members[c]?.[Math.floor(rand() * MEMBERS_PER_CHANNEL)] as string;
      insert.run(`bench-${n}`, `messaging:c${c}`, author, text.join(' '), at(n), at(n));
    }
    for (let c = 0; c < CHANNELS; c++) store.channels.setLastMessageAt(`messaging:c${c}`, at(messages));
  });
  store.close();
  return (performance.now() - started) / 1000;
}

/** Queries from common to rare: planted words, a prefix, two words, a single letter, nothing. */
export const QUERIES = ['harbour', 'cafe', 'lantern', 'tideline', 'zephyr', 'harb', 'lan', 'harbour lantern', 'k', 'nosuchword', `"*'--`];
