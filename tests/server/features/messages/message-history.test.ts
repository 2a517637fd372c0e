// Message edit history through the real SDK, the provider's own example: Alice sends a message,
// edits it to add her number, an admin edits the number out; `queryMessageHistory` (server-side)
// then has both earlier versions, latest first, each with who changed it and when. Also: custom
// data and attachments, soft delete and undelete, what is not an edit (a pin, a translation-free
// re-save), a hard delete taking the history with it, sort, filters, paging with next/prev,
// `message_id` required, user tokens refused, malformed input as the provider's error JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageHistoryEntry, StreamChat } from 'stream-chat';
import { createUsers, signToken, startHarness, type Harness, failure } from '../../helpers';
import { createAdmin } from '../../scenes';

type Entry = MessageHistoryEntry & { custom: Record<string, unknown>; is_deleted: boolean };

let harness: Harness;
let admin: StreamChat;
let alice: StreamChat;
let boss: StreamChat;

beforeAll(async () => {
  harness = await startHarness();
  admin = harness.admin;
  await createUsers(harness, 'alice', 'bob');
  await createAdmin(harness, 'boss');
  await admin.channel('messaging', 'desk', { members: ['alice', 'bob', 'boss'], created_by_id: 'alice' } as never).create();
  alice = await harness.connect('alice');
  boss = await harness.connect('boss');
  await alice.channel('messaging', 'desk').watch();
});

afterAll(async () => {
  await harness?.close();
});

async function history(filter: Record<string, unknown>, sort: Record<string, 1 | -1>[] = [], options: { limit?: number; next?: string; prev?: string } = {}) {
  const response = await admin.queryMessageHistory(filter as never, sort as never, options);
  return { ...response, message_history: response.message_history as Entry[] };
}

describe('message history', () => {
  it('keeps every earlier version with who changed it and when, latest first (the provider\'s example)', async () => {
    const channel = alice.channel('messaging', 'desk');
    await channel.sendMessage({ id: 'message-1', text: 'Hello bob! give me a call.' });
    expect((await history({ message_id: 'message-1' })).message_history).toEqual([]);

    const { message: first } = await alice.updateMessage({ id: 'message-1', text: 'Hello bob! give me a call. Here is my number: +31 6 12345678' });
    const { message: second } = await boss.updateMessage({ id: 'message-1', text: 'Hello bob! give me a call. Here is my number: [removed]' });

    const { message_history: entries } = await history({ message_id: 'message-1' });
    expect(entries).toEqual([
      {
        message_id: 'message-1',
        text: 'Hello bob! give me a call. Here is my number: +31 6 12345678',
        attachments: [],
        custom: {},
        is_deleted: false,
        message_updated_by_id: 'boss',
        message_updated_at: second.updated_at,
      },
      {
        message_id: 'message-1',
        text: 'Hello bob! give me a call.',
        attachments: [],
        custom: {},
        is_deleted: false,
        message_updated_by_id: 'alice',
        message_updated_at: first.updated_at,
      },
    ]);
    // The message itself is the present version.
    expect((await alice.getMessage('message-1')).message.text).toBe('Hello bob! give me a call. Here is my number: [removed]');
  });

  it('keeps attachments and custom data, records soft delete and undelete, and ignores what is not an edit', async () => {
    const channel = alice.channel('messaging', 'desk');
    const image = { type: 'image', image_url: 'https://example.com/cat.png' };
    await channel.sendMessage({ id: 'message-2', text: 'look', attachments: [image], mood: 'happy' } as never);
    await alice.partialUpdateMessage('message-2', { set: { mood: 'sad' } as never });
    await alice.updateMessage({ id: 'message-2', text: 'look again', attachments: [], mood: 'sad' } as never);
    // A pin changes none of what the history keeps, nor does an update that repeats the message.
    await alice.pinMessage('message-2');
    await alice.updateMessage({ id: 'message-2', text: 'look again', attachments: [], mood: 'sad' } as never);
    await boss.deleteMessage('message-2');
    await admin.undeleteMessage('message-2', 'boss');

    const { message_history: entries } = await history({ message_id: 'message-2' }, [{ message_updated_at: 1 }]);
    expect(entries.map(({ text, attachments, custom, is_deleted, message_updated_by_id }) => ({ text, attachments, custom, is_deleted, by: message_updated_by_id }))).toEqual([
      { text: 'look', attachments: [expect.objectContaining(image)], custom: { mood: 'happy' }, is_deleted: false, by: 'alice' },
      { text: 'look', attachments: [expect.objectContaining(image)], custom: { mood: 'sad' }, is_deleted: false, by: 'alice' },
      { text: 'look again', attachments: [], custom: { mood: 'sad' }, is_deleted: false, by: 'boss' },
      { text: 'look again', attachments: [], custom: { mood: 'sad' }, is_deleted: true, by: 'boss' },
    ]);
    const times = entries.map((e) => e.message_updated_at);
    expect([...times].sort()).toEqual(times);
  });

  it('filters by message ids ($in), by who edited (message_updated_by_id or the SDK\'s user_id) and by time; sorts; pages with next and prev', async () => {
    const channel = alice.channel('messaging', 'desk');
    await channel.sendMessage({ id: 'message-3', text: 'v0' });
    for (let i = 1; i <= 5; i++) await alice.updateMessage({ id: 'message-3', text: `v${i}` });
    await boss.updateMessage({ id: 'message-3', text: 'v6' });

    const both = await history({ message_id: { $in: ['message-1', 'message-3'] } });
    expect(both.message_history).toHaveLength(8);
    expect(both.message_history.map((e) => e.message_updated_at)).toEqual([...both.message_history.map((e) => e.message_updated_at)].sort().reverse());

    const byBoss = await history({ message_id: { $in: ['message-1', 'message-3'] }, message_updated_by_id: 'boss' });
    expect(byBoss.message_history.map((e) => e.text)).toEqual(['v5', 'Hello bob! give me a call. Here is my number: +31 6 12345678']);
    const byAlice = await history({ message_id: 'message-3', user_id: { $in: ['alice'] } });
    expect(byAlice.message_history.map((e) => e.text)).toEqual(['v4', 'v3', 'v2', 'v1', 'v0']);
    const since = byAlice.message_history[2]?.message_updated_at as string;
    const later = await history({ message_id: 'message-3', message_updated_at: { $gte: since } });
    expect(later.message_history.map((e) => e.text)).toEqual(['v5', 'v4', 'v3', 'v2']);
    const sdkNames = await history({ message_id: 'message-3', created_at: { $lt: since } });
    expect(sdkNames.message_history.map((e) => e.text)).toEqual(['v1', 'v0']);

    const page1 = await history({ message_id: 'message-3' }, [{ message_updated_at: 1 }], { limit: 4 });
    expect(page1.message_history.map((e) => e.text)).toEqual(['v0', 'v1', 'v2', 'v3']);
    expect(page1.prev).toBeUndefined();
    const page2 = await history({ message_id: 'message-3' }, [{ message_updated_at: 1 }], { limit: 4, next: page1.next as string });
    expect(page2.message_history.map((e) => e.text)).toEqual(['v4', 'v5']);
    expect(page2.next).toBeUndefined();
    const back = await history({ message_id: 'message-3' }, [{ message_updated_at: 1 }], { limit: 4, prev: page2.prev as string });
    expect(back.message_history.map((e) => e.text)).toEqual(['v0', 'v1', 'v2', 'v3']);
    const byEditor = await history({ message_id: 'message-3' }, [{ message_updated_by_id: -1 }, { message_updated_at: 1 }], { limit: 2 });
    expect(byEditor.message_history.map((e) => [e.message_updated_by_id, e.text])).toEqual([['boss', 'v5'], ['alice', 'v0']]);
  });

  it('takes the same custom data echoed back in another order for no edit', async () => {
    const channel = alice.channel('messaging', 'desk');
    await channel.sendMessage({ id: 'message-6', text: 'order', size: 'M', colour: 'red' } as never);
    await alice.updateMessage({ id: 'message-6', text: 'order', colour: 'red', size: 'M' } as never);
    expect((await history({ message_id: 'message-6' })).message_history).toEqual([]);
    await alice.updateMessage({ id: 'message-6', text: 'order', colour: 'blue', size: 'M' } as never);
    expect((await history({ message_id: 'message-6' })).message_history.map((e) => e.custom)).toEqual([{ size: 'M', colour: 'red' }]);
  });

  it('loses the history of a hard-deleted message with it', async () => {
    const channel = alice.channel('messaging', 'desk');
    await channel.sendMessage({ id: 'message-4', text: 'first' });
    await alice.updateMessage({ id: 'message-4', text: 'second' });
    expect((await history({ message_id: 'message-4' })).message_history).toHaveLength(1);
    await boss.deleteMessage('message-4', true);
    expect((await history({ message_id: 'message-4' })).message_history).toEqual([]);
  });

  it('keeps no version of a refused edit: the edit and its history are one', async () => {
    const channel = alice.channel('messaging', 'desk');
    await channel.sendMessage({ id: 'message-5', text: 'mine' });
    const bob = await harness.connect('bob');
    expect((await failure(bob.updateMessage({ id: 'message-5', text: 'not yours' }))).code).toBe(17);
    expect((await failure(alice.updateMessage({ id: 'message-5', text: 'x'.repeat(5001) }))).code).toBe(4);
    expect((await history({ message_id: 'message-5' })).message_history).toEqual([]);
  });

  it('is server-side: a user token is refused (403 code 17)', async () => {
    expect(await failure(alice.queryMessageHistory({ message_id: 'message-1' }))).toMatchObject({ status: 403, code: 17 });
  });

  it('requires message_id, and answers malformed input with the provider\'s error JSON, never a 500', async () => {
    expect(await failure(admin.queryMessageHistory({}))).toMatchObject({ status: 400, code: 4, message: expect.stringContaining('message_id') });
    expect(await failure(admin.queryMessageHistory({ user_id: 'alice' }))).toMatchObject({ status: 400, code: 4 });
    const token = await signToken({ server: true });
    const bodies: unknown[] = [
      {},
      { filter: 'message-1' },
      { filter: { message_id: 'message-1', text: 'x' } },
      { filter: { message_id: { $regex: 'x' } } },
      { filter: { message_id: 'message-1', $or: 'x' } },
      { filter: { message_id: 'message-1', message_updated_at: { $gt: 'not a date' } } },
      { filter: { message_id: 'message-1' }, sort: [{ field: 'text; DROP TABLE', direction: 1 }] },
      { filter: { message_id: 'message-1' }, sort: [{ field: 'message_updated_at', direction: 2 }] },
      { filter: { message_id: 'message-1' }, limit: 'many' },
      { filter: { message_id: 'message-1' }, limit: 1000 },
      { filter: { message_id: 'message-1' }, next: 'not-a-cursor' },
      '[1,2]',
      'null',
    ];
    for (const body of bodies) {
      const response = await harness.request('/messages/history', { token, body: body as object });
      expect({ body, status: response.status, code: response.body.code }).toEqual({ body, status: 400, code: 4 });
    }
  });
});
