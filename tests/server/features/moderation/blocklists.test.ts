// Blocklists through the real SDK: the server-side CRUD calls, and a channel type's blocklist at
// work on what users send: `block` answers the sender with an error message and stores nothing,
// `flag` sends and files an automod flag the moderation queries show, `shadow_block` keeps the
// message to its author until a moderator unblocks it. Words match whole and case-insensitive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, StreamChat } from 'stream-chat';
import { collectEvents, createUsers, nextEvent, startHarness, type Harness } from '../../helpers';
import { createAdmin } from '../../scenes';

let harness: Harness;
let alice: StreamChat;
let bob: StreamChat;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob');
  await createAdmin(harness, 'mod');
  alice = await harness.connect('alice');
  bob = await harness.connect('bob');
  await harness.admin.createBlockList({ name: 'no-cakes', words: ['fudge', 'cream', 'monster'] });
});

afterAll(async () => {
  await harness?.close();
});

/** A channel of a new type using the blocklist with `behavior`, watched by alice and bob. */
async function guardedRoom(type: string, behavior: 'block' | 'flag' | 'shadow_block'): Promise<{ ac: Channel; bc: Channel }> {
  await harness.admin.createChannelType({ name: type, blocklist: 'no-cakes', blocklist_behavior: behavior } as never);
  const ac = alice.channel(type, 'room', { members: ['alice', 'bob'] });
  await ac.watch();
  const bc = bob.channel(type, 'room');
  await bc.watch();
  return { ac, bc };
}

describe('managing blocklists (server-side)', () => {
  it('creates, lists, reads, updates and deletes a blocklist', async () => {
    await harness.admin.createBlockList({ name: 'crud-words', words: ['alpha', 'beta'] });
    const { blocklists } = await harness.admin.listBlockLists();
    // The provider's built-in list comes first, then the app's own.
    expect(blocklists.map((list) => list.name)).toEqual(['profanity_en_2020_v1', 'crud-words', 'no-cakes']);
    const { blocklist } = await harness.admin.getBlockList('crud-words');
    expect(blocklist).toMatchObject({ name: 'crud-words', type: 'word', words: ['alpha', 'beta'], created_at: expect.any(String) });

    await harness.admin.updateBlockList('crud-words', { words: ['gamma'] });
    expect((await harness.admin.getBlockList('crud-words')).blocklist.words).toEqual(['gamma']);
    await harness.admin.deleteBlockList('crud-words');
    await expect(harness.admin.getBlockList('crud-words')).rejects.toMatchObject({ code: 16, status: 404 });
  });

  it('is for the site owner\'s server alone (17 for a user)', async () => {
    const refused = { code: 17, status: 403 };
    await expect(alice.createBlockList({ name: 'mine', words: ['x'] })).rejects.toMatchObject(refused);
    await expect(alice.listBlockLists()).rejects.toMatchObject(refused);
    await expect(alice.getBlockList('no-cakes')).rejects.toMatchObject(refused);
    await expect(alice.updateBlockList('no-cakes', { words: [] })).rejects.toMatchObject(refused);
    await expect(alice.deleteBlockList('no-cakes')).rejects.toMatchObject(refused);
  });

  it('answers bad input with the provider\'s error JSON, never a 500', async () => {
    const input = { code: 4, status: 400 };
    await expect(harness.admin.createBlockList({ name: 'no-cakes', words: ['again'] })).rejects.toMatchObject(input);
    await expect(harness.admin.createBlockList({ name: '', words: [] })).rejects.toMatchObject(input);
    await expect(harness.admin.createBlockList({ name: 'bad words', words: [] })).rejects.toMatchObject(input);
    await expect(harness.admin.createBlockList({ name: 'odd', words: 'fudge' as never })).rejects.toMatchObject(input);
    await expect(harness.admin.createBlockList({ name: 'odd', words: [1] as never })).rejects.toMatchObject(input);
    await expect(harness.admin.createBlockList({ name: 'odd', words: ['x'.repeat(41)] })).rejects.toMatchObject(input);
    await expect(harness.admin.createBlockList({ name: 'odd', words: ['x'], type: 'regex' })).rejects.toMatchObject(input);
    await expect(harness.admin.updateBlockList('no-cakes', { words: null as never })).rejects.toMatchObject(input);
    await expect(harness.admin.updateBlockList('no-such-list', { words: [] })).rejects.toMatchObject({ code: 16 });
    await expect(harness.admin.deleteBlockList('no-such-list')).rejects.toMatchObject({ code: 16 });
  });
});

describe('blocklist_behavior: block', () => {
  it('answers the sender with an error message and stores and sends nothing', async () => {
    const { ac, bc } = await guardedRoom('guarded', 'block');
    const bobSees = collectEvents(bob, 'message.new');
    const { message } = await ac.sendMessage({ text: 'Cream is the best' });
    expect(message).toMatchObject({
      type: 'error',
      text: 'Message was blocked by moderation policies',
      moderation_details: { action: 'MESSAGE_RESPONSE_ACTION_REMOVE', original_text: 'Cream is the best' },
    });
    // Matching is by whole words, split on white space and hyphens, whatever the case.
    await expect(ac.sendMessage({ text: 'the COOKIE-monster ate it' })).resolves.toMatchObject({ message: { type: 'error' } });
    await expect(ac.sendMessage({ text: 'cream!' })).resolves.toMatchObject({ message: { type: 'error' } });
    const fine = nextEvent(bob, 'message.new', (e) => e.message?.text === 'Is creamcheese a word? Scream!');
    await ac.sendMessage({ text: 'Is creamcheese a word? Scream!' });
    await fine;
    bobSees.stop();
    expect(bobSees.events.map((e) => e.message?.text)).toEqual(['Is creamcheese a word? Scream!']);
    expect((await bc.query({})).messages.map((m) => m.text)).toEqual(['Is creamcheese a word? Scream!']);
  });

  it('leaves messages sent server-side alone, as the provider does', async () => {
    const { message } = await harness.admin.channel('guarded', 'room').sendMessage({ text: 'fudge for all', user_id: 'alice' });
    expect(message).toMatchObject({ type: 'regular', text: 'fudge for all' });
  });
});

describe('blocklist_behavior: flag', () => {
  it('sends the message and files an automod flag the moderation queries show', async () => {
    const { ac } = await guardedRoom('watched', 'flag');
    const mod = await harness.connect('mod');
    const heard = nextEvent(mod, 'message.flagged' as never);
    const delivered = nextEvent(bob, 'message.new', (e) => e.message?.text === 'ice cream please');
    const { message } = await ac.sendMessage({ text: 'ice cream please' });
    expect(message.type).toBe('regular');
    await delivered;
    expect(await heard).toMatchObject({ message: { id: message.id }, created_by_automod: true });

    const { flag_reports } = await harness.admin._queryFlagReports({ message_id: message.id });
    expect(flag_reports[0]).toMatchObject({
      flags_count: 1,
      user: { id: 'alice' },
      details: { automod: { action: 'flag', result: { blocklist_name: 'no-cakes', message_id: message.id } } },
    });
    const { flags = [] } = await harness.admin.queryMessageFlags({ created_by_automod: true } as never);
    expect(flags.map((flag) => flag.message.id)).toEqual([message.id]);
    expect(flags[0]?.moderation_result).toMatchObject({ action: 'flag', blocklist_name: 'no-cakes' });

    // The author cannot lift automatic moderation's flag.
    await alice.unflagMessage(message.id);
    expect((await harness.admin._queryFlagReports({ message_id: message.id })).flag_reports).toHaveLength(1);
  });
});

describe('blocklist_behavior: shadow_block', () => {
  it('keeps the message to its author until a moderator unblocks it', async () => {
    const { ac, bc } = await guardedRoom('hushed', 'shadow_block');
    const { message } = await ac.sendMessage({ text: 'more fudge' });
    expect(message.shadowed).toBe(true);
    expect((await bc.query({})).messages).toEqual([]);
    expect((await harness.admin._queryFlagReports({ message_id: message.id })).flag_reports).toHaveLength(1);

    const released = nextEvent(bob, 'message.new', (e) => e.message?.id === message.id);
    await harness.admin.unblockMessage(message.id, { user_id: 'mod' });
    expect((await released).message?.shadowed).toBe(false);
    expect((await bc.query({})).messages.map((m) => m.text)).toEqual(['more fudge']);
    await expect(harness.admin.unblockMessage(message.id)).rejects.toMatchObject({ code: 4 });
  });
});

describe('edits', () => {
  it('refuses an edit that brings in a blocked word (4) and lets a flagged word through', async () => {
    const { ac } = await guardedRoom('edited', 'block');
    const { message } = await ac.sendMessage({ text: 'plain biscuits' });
    await expect(alice.updateMessage({ id: message.id, text: 'fudge biscuits' })).rejects.toMatchObject({ code: 4 });
    expect((await harness.admin.getMessage(message.id)).message.text).toBe('plain biscuits');
    await alice.updateMessage({ id: message.id, text: 'oat biscuits' });

    const flagged = await guardedRoom('edited-flag', 'flag');
    const { message: other } = await flagged.ac.sendMessage({ text: 'plain cake' });
    await alice.updateMessage({ id: other.id, text: 'cream cake' });
  });
});
