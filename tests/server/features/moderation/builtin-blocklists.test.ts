// The provider's built-in blocklist, `profanity_en_2020_v1`: listed and read beside the app's own
// lists, usable as a channel type's blocklist (here a short stand-in for the provider's words),
// and the provider's alone: it can be neither updated, deleted nor created again (400, code 4),
// and does not count towards the app's 15 lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIResponse, BlockListResponse, StreamChat } from 'stream-chat';
import { collectEvents, createUsers, failure, nextEvent, startHarness, type Harness } from '../../helpers';

const BUILTIN = 'profanity_en_2020_v1';

let harness: Harness;
let alice: StreamChat;
let bob: StreamChat;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob');
  alice = await harness.connect('alice');
  bob = await harness.connect('bob');
});

afterAll(async () => {
  await harness?.close();
});

describe('the built-in blocklist', () => {
  it('is listed beside the app\'s own lists and reads like one: a word list, lower case', async () => {
    await harness.admin.createBlockList({ name: 'house-rules', words: ['spoiler'] });
    const listed: APIResponse & { blocklists: BlockListResponse[] } = await harness.admin.listBlockLists();
    expect(listed.blocklists.map((list) => list.name)).toEqual([BUILTIN, 'house-rules']);

    const { blocklist } = await harness.admin.getBlockList(BUILTIN);
    expect(blocklist).toMatchObject({ name: BUILTIN, type: 'word', created_at: expect.any(String), updated_at: expect.any(String) });
    expect(blocklist.words.length).toBeGreaterThan(10);
    expect(blocklist.words.every((word) => word === word.toLowerCase() && word.length <= 40)).toBe(true);
  });

  it('blocks a message with one of its words in a channel type that uses it with block', async () => {
    await harness.admin.createChannelType({ name: 'clean', blocklist: BUILTIN, blocklist_behavior: 'block' } as never);
    const ac = alice.channel('clean', 'room', { members: ['alice', 'bob'] });
    await ac.watch();
    await bob.channel('clean', 'room').watch();
    const bobSees = collectEvents(bob, 'message.new');

    const { message } = await ac.sendMessage({ text: 'What the FUCK is this' });
    expect(message).toMatchObject({ type: 'error', text: 'Message was blocked by moderation policies' });
    const fine = nextEvent(bob, 'message.new', (event) => event.message?.text === 'What a lovely day');
    await ac.sendMessage({ text: 'What a lovely day' });
    await fine;
    bobSees.stop();
    expect(bobSees.events.map((event) => event.message?.text)).toEqual(['What a lovely day']);
  });

  it('cannot be updated, deleted or created again (4), and leaves the app its 15 lists', async () => {
    const refused = { status: 400, code: 4 };
    expect(await failure(harness.admin.updateBlockList(BUILTIN, { words: ['nothing'] }))).toMatchObject(refused);
    expect(await failure(harness.admin.deleteBlockList(BUILTIN))).toMatchObject(refused);
    expect(await failure(harness.admin.createBlockList({ name: BUILTIN, words: ['x'] }))).toMatchObject(refused);
    expect((await harness.admin.getBlockList(BUILTIN)).blocklist.words).toContain('fuck');

    // house-rules is the first of the app's own; fourteen more fit, the sixteenth does not.
    for (let i = 2; i <= 15; i++) await harness.admin.createBlockList({ name: `list-${i}`, words: ['w'] });
    expect(await failure(harness.admin.createBlockList({ name: 'list-16', words: ['w'] }))).toMatchObject(refused);
  });
});
