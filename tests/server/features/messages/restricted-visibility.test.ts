// Messages with `restricted_visibility`: stored and returned with the list, delivered to the users
// it names and the sender only, and left out of everyone else's channel, search, threads, counts
// and sync. The site owner's server sends them with the secret; a user needs the permission.
import type { MessageResponse } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectEvents, createUsers, failure, nextEvent, startHarness, type Harness } from '../../helpers';
import { sleep } from '../../scenes';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob', 'carol');
});

afterAll(async () => {
  await harness?.close();
});

const restricted = (fields: Record<string, unknown>) => fields as never;

async function roomOfThree(id: string) {
  await harness.admin.channel('messaging', id, { members: ['alice', 'bob', 'carol'], created_by_id: 'alice' } as never).create();
  const [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map((userId) => harness.connect(userId)));
  const watching = await Promise.all([alice, bob, carol].map(async (client) => {
    const channel = client!.channel('messaging', id);
    await channel.watch();
    return channel;
  }));
  return { clients: { alice: alice!, bob: bob!, carol: carol! }, channels: { alice: watching[0]!, bob: watching[1]!, carol: watching[2]! } };
}

describe('a message with restricted visibility', () => {
  it('reaches only the listed users and the sender, and is stored and returned with the list', async () => {
    const { clients, channels } = await roomOfThree('restricted-live');
    const since = new Date(Date.now() - 1000).toISOString();
    const carolHears = collectEvents(channels.carol, 'message.new');
    const bobHears = nextEvent(channels.bob, 'message.new');
    const server = harness.admin.channel('messaging', 'restricted-live');
    const { message } = await server.sendMessage(restricted({ text: 'Your driver is one minute away', user_id: 'alice', restricted_visibility: ['bob'] }));
    expect(message.restricted_visibility).toEqual(['bob']);
    expect((await bobHears).message).toMatchObject({ id: message.id, restricted_visibility: ['bob'] });
    const carolHearsNext = nextEvent(channels.carol, 'message.new', (e) => e.message?.text === 'For everyone');
    await server.sendMessage({ text: 'For everyone', user_id: 'alice' });
    await carolHearsNext;
    expect(carolHears.events.map((e) => e.message?.text)).toEqual(['For everyone']);

    const texts = async (client: 'alice' | 'bob' | 'carol') => (await clients[client].channel('messaging', 'restricted-live').query({ messages: { limit: 10 } })).messages.map((m) => m.text);
    expect(await texts('alice')).toEqual(['Your driver is one minute away', 'For everyone']);
    expect(await texts('bob')).toEqual(['Your driver is one minute away', 'For everyone']);
    expect(await texts('carol')).toEqual(['For everyone']);
    expect((await clients.bob.getMessage(message.id)).message.restricted_visibility).toEqual(['bob']);
    expect((await failure(clients.carol.getMessage(message.id))).status).toBe(404);
    // A reconnect's sync replays it only to those who may see it.
    const synced = async (client: 'bob' | 'carol') =>
      (await clients[client].sync(['messaging:restricted-live'], since)).events.filter((e) => e.type === 'message.new').map((e) => e.message?.text);
    expect(await synced('bob')).toEqual(['Your driver is one minute away', 'For everyone']);
    expect(await synced('carol')).toEqual(['For everyone']);
    // The site owner's server sees it, as sent.
    expect((await harness.admin.getMessage(message.id)).message.restricted_visibility).toEqual(['bob']);
  });

  it('counts as unread only for the listed users, and search finds it only for them', async () => {
    const { clients } = await roomOfThree('restricted-counts');
    const before = await Promise.all([clients.bob.getUnreadCount(), clients.carol.getUnreadCount()]);
    const server = harness.admin.channel('messaging', 'restricted-counts');
    await server.sendMessage(restricted({ text: 'A quiet word about the invoice', user_id: 'alice', restricted_visibility: ['bob'] }));
    await sleep(50);
    const [bob, carol] = await Promise.all([clients.bob.getUnreadCount(), clients.carol.getUnreadCount()]);
    expect(bob.total_unread_count).toBe(before[0].total_unread_count + 1);
    expect(carol.total_unread_count).toBe(before[1].total_unread_count);
    const { channels: [forCarol] } = await clients.carol.queryChannels({ cid: 'messaging:restricted-counts' }).then((channels) => ({ channels }));
    expect(forCarol?.state.last_message_at).toBeNull();

    const search = async (client: 'bob' | 'carol') =>
      (await clients[client].search({ cid: 'messaging:restricted-counts' }, 'invoice')).results.map((r) => r.message.text);
    expect(await search('bob')).toEqual(['A quiet word about the invoice']);
    expect(await search('carol')).toEqual([]);
  });

  it('in a thread, is a reply only the listed users see, which changes the parent for nobody else', async () => {
    const { clients, channels } = await roomOfThree('restricted-thread');
    const { message: parent } = await channels.alice.sendMessage({ text: 'Which table?' });
    const server = harness.admin.channel('messaging', 'restricted-thread');
    await server.sendMessage(restricted({ text: 'Table 4, by the window', user_id: 'alice', parent_id: parent.id, restricted_visibility: ['bob'] }));
    const replies = async (client: 'bob' | 'carol') =>
      (await clients[client].channel('messaging', 'restricted-thread').getReplies(parent.id, { limit: 10 })).messages.map((m: MessageResponse) => m.text);
    expect(await replies('bob')).toEqual(['Table 4, by the window']);
    expect(await replies('carol')).toEqual([]);
    expect((await clients.carol.getMessage(parent.id)).message.reply_count).toBe(0);
  });

  it('needs the permission from a user token, and its list cannot change once sent', async () => {
    const { channels } = await roomOfThree('restricted-refused');
    await expect(channels.carol.sendMessage(restricted({ text: 'psst', restricted_visibility: ['bob'] }))).rejects.toMatchObject({ code: 17 });
    const server = harness.admin.channel('messaging', 'restricted-refused');
    const { message } = await server.sendMessage(restricted({ text: 'Only Bob', user_id: 'alice', restricted_visibility: ['bob'] }));
    await expect(harness.admin.partialUpdateMessage(message.id, { set: restricted({ restricted_visibility: ['carol'] }) }, 'alice')).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.updateMessage(restricted({ id: message.id, text: 'Only Bob, edited', restricted_visibility: ['carol'] }), 'alice')).rejects.toMatchObject({ code: 4 });
    const edited = await harness.admin.updateMessage(restricted({ id: message.id, text: 'Only Bob, edited', restricted_visibility: ['bob'] }), 'alice');
    expect(edited.message).toMatchObject({ text: 'Only Bob, edited', restricted_visibility: ['bob'] });
    expect((await channels.carol.query({ messages: { limit: 10 } })).messages).toEqual([]);
  });

  it('cannot be quoted or replied to by those who do not see it, and what builds on it is seen only by its audience', async () => {
    const { clients, channels } = await roomOfThree('restricted-built-on');
    const server = harness.admin.channel('messaging', 'restricted-built-on');
    const { message: secret } = await server.sendMessage(restricted({ text: 'The code is 4721', user_id: 'alice', restricted_visibility: ['bob'] }));
    await expect(channels.carol.sendMessage({ text: 'what code?', quoted_message_id: secret.id })).rejects.toMatchObject({ code: 4 });
    await expect(channels.carol.sendMessage({ text: 'what code?', parent_id: secret.id })).rejects.toMatchObject({ code: 4 });

    // Bob quotes it and replies to it: both are for alice and bob alone.
    const { message: quote } = await channels.bob.sendMessage({ text: 'Noted', quoted_message_id: secret.id });
    expect(quote.restricted_visibility).toEqual(['alice']);
    const { message: reply } = await channels.bob.sendMessage({ text: 'Got it', parent_id: secret.id });
    expect(reply.restricted_visibility).toEqual(['alice']);
    const carolSees = JSON.stringify(await channels.carol.query({ messages: { limit: 20 } }));
    expect(carolSees).not.toContain('4721');
    expect(carolSees).not.toContain(secret.id);

    // Bob reading the thread tells only those who see its parent.
    const carolHears = collectEvents(clients.carol, 'message.read');
    const aliceHears = nextEvent(clients.alice, 'message.read', (e) => Boolean(e.thread));
    await channels.bob.markRead({ thread_id: secret.id } as never);
    await aliceHears;
    await sleep(50);
    expect(JSON.stringify(carolHears.events)).not.toContain(secret.id);
  });

  it('is left out of what carol\'s mark-unread counts, and of the read marker others hear', async () => {
    const { clients, channels } = await roomOfThree('restricted-mark-unread');
    const server = harness.admin.channel('messaging', 'restricted-mark-unread');
    const { message: first } = await server.sendMessage({ text: 'one', user_id: 'alice' });
    const { message: hidden } = await server.sendMessage(restricted({ text: 'between us', user_id: 'alice', restricted_visibility: ['bob'] }));
    await server.sendMessage({ text: 'two', user_id: 'alice' });
    const carolHears = collectEvents(channels.carol, 'message.read');
    await channels.bob.markRead();
    await channels.carol.markRead();
    await sleep(50);
    expect(JSON.stringify(carolHears.events)).not.toContain(hidden.id);
    await channels.carol.markUnread({ message_id: first.id });
    const [own] = await clients.carol.queryChannels({ cid: 'messaging:restricted-mark-unread' });
    expect(own?.state.read.carol?.unread_messages).toBe(2);
  });

  it('stays out of the channel\'s last message time after a truncation to an earlier time', async () => {
    const { clients } = await roomOfThree('restricted-truncated');
    const server = harness.admin.channel('messaging', 'restricted-truncated');
    const { message: first } = await server.sendMessage({ text: 'old', user_id: 'alice' });
    await sleep(20);
    const { message: kept } = await server.sendMessage({ text: 'kept', user_id: 'alice' });
    await sleep(20);
    await server.sendMessage(restricted({ text: 'for bob', user_id: 'alice', restricted_visibility: ['bob'] }));
    await server.truncate({ truncated_at: first.created_at } as never);
    const [forCarol] = await clients.carol.queryChannels({ cid: 'messaging:restricted-truncated' });
    expect(forCarol?.data?.last_message_at).toBe(kept.created_at);
  });
});
