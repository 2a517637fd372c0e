// Jumping to a message (id_around / created_at_around, as loadMessageIntoState does it) and the
// bad input around it: ids that do not exist or live in another channel get a clear code 4 and
// the loaded list stays as it was; message text full of markup is stored and returned as text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel } from 'stream-chat';
import { createUsers, startHarness, type Harness } from '../helpers';
import { watchingPair } from '../scenes';

let harness: Harness;
let channel: Channel;
const ids: string[] = [];

beforeAll(async () => {
  // One user sends far more than 60 requests a minute to one endpoint here: rate limits off.
  harness = await startHarness({ limits: { rateLimits: false } });
  await createUsers(harness, 'alice', 'bob');
  const { ac, bc } = await watchingPair(harness, 'jump');
  for (let i = 0; i < 60; i++) ids.push((await ac.sendMessage({ id: `jump-${i}`, text: `message ${i}` })).message.id);
  channel = bc;
});

afterAll(async () => {
  await harness?.close();
});

const texts = (c: Channel) => c.state.messages.map((m) => m.text);

/** Bob's channel on a new connection, with only the latest 25 messages loaded. */
async function freshChannel(): Promise<Channel> {
  const fresh = (await harness.connect('bob')).channel('messaging', 'jump');
  await fresh.watch({ messages: { limit: 25 } });
  return fresh;
}

describe('jumping to a message', () => {
  it('loads the messages around an old message into a new message set, and back to the latest', async () => {
    const fresh = await freshChannel();
    expect(texts(fresh)).toHaveLength(25);
    await fresh.state.loadMessageIntoState('jump-10', undefined, 11);
    expect(texts(fresh)).toEqual(Array.from({ length: 11 }, (_, i) => `message ${i + 5}`));
    expect(fresh.state.messageSets).toHaveLength(2);
    expect(fresh.state.messagePagination).toMatchObject({ hasPrev: true, hasNext: true });
    await fresh.state.loadMessageIntoState('latest');
    expect(texts(fresh).at(-1)).toBe('message 59');
  });

  it('refuses a message id that does not exist with code 4 and keeps the list as it was', async () => {
    await channel.state.loadMessageIntoState('latest');
    const before = texts(channel);
    await expect(channel.state.loadMessageIntoState('no-such-message')).rejects.toMatchObject({ code: 4, status: 400 });
    await expect(channel.query({ messages: { limit: 25, id_around: 'no-such-message' } }, 'new')).rejects.toThrow(
      /no-such-message does not exist in channel messaging:jump/,
    );
    expect(texts(channel)).toEqual(before);
  });

  it('refuses a message id from another channel with code 4', async () => {
    const alice = await harness.connect('alice');
    const other = alice.channel('messaging', 'jump-elsewhere', { members: ['alice', 'bob'] });
    await other.watch();
    const { message } = await other.sendMessage({ text: 'elsewhere' });
    const before = texts(channel);
    await expect(channel.state.loadMessageIntoState(message.id)).rejects.toMatchObject({ code: 4 });
    await expect(channel.query({ messages: { limit: 10, id_lt: message.id } })).rejects.toMatchObject({ code: 4 });
    expect(texts(channel)).toEqual(before);
  });

  it('loads around a time with created_at_around; a date that is not a date is code 4', async () => {
    const { messages } = await channel.query({ messages: { limit: 1, id_around: 'jump-30' } });
    const at = messages[0]?.created_at as string;
    const around = await channel.query({ messages: { limit: 4, created_at_around: at } }, 'new');
    expect(around.messages.map((m) => m.id)).toContain('jump-30');
    await expect(channel.query({ messages: { limit: 4, created_at_around: 'yesterday-ish' } })).rejects.toMatchObject({ code: 4 });
  });

  it('answers malformed pagination with code 4, never a 500', async () => {
    const asBob = { token: harness.token('bob'), userId: 'bob' };
    for (const messages of [{ id_around: 42 }, { id_around: {} }, { limit: -1 }, { limit: 'many' }, { created_at_around: [] }]) {
      const res = await harness.request('/channels/messaging/jump/query', { ...asBob, body: { messages } });
      expect(res.status, JSON.stringify(messages)).toBe(400);
      expect(res.body.code).toBe(4);
    }
  });

  it('jumps to a thread reply: loadMessageIntoState with the parent loads the replies around it', async () => {
    const parentId = 'jump-40';
    const replyIds: string[] = [];
    for (let i = 0; i < 9; i++) replyIds.push((await channel.sendMessage({ text: `reply ${i}`, parent_id: parentId })).message.id);
    const fresh = await freshChannel();
    await fresh.state.loadMessageIntoState(replyIds[4] as string, parentId, 5);
    expect(fresh.state.threads[parentId]?.map((m) => m.text)).toEqual(['reply 2', 'reply 3', 'reply 4', 'reply 5', 'reply 6']);
  });
});

describe('message text with markup', () => {
  const payloads = [
    '<script>alert("xss")</script>',
    '<img src=x onerror="alert(1)">hi',
    '"><svg/onload=alert(2)> & <b>bold</b> &amp; \'quotes\'',
    '<iframe src="javascript:alert(3)"></iframe>\n<style>body{display:none}</style>',
  ];

  it('stores and returns HTML and script payloads exactly as sent, as plain text, in every path', async () => {
    const alice = await harness.connect('alice');
    const sender = alice.channel('messaging', 'jump');
    await sender.watch();
    for (const text of payloads) {
      const { message } = await sender.sendMessage({ text });
      expect(message.text).toBe(text);
      expect(message.html).not.toMatch(/<(script|img|svg|iframe|style|b)\b/);
      expect((await alice.getMessage(message.id)).message.text).toBe(text);
      const { message: edited } = await alice.updateMessage({ id: message.id, text: `${text}!` });
      expect(edited.text).toBe(`${text}!`);
    }
    const { messages } = await channel.query({ messages: { limit: payloads.length } });
    expect(messages.map((m) => m.text)).toEqual(payloads.map((text) => `${text}!`));
  });
});
