// Reactions through the SDK as two users: counts, groups and latest reactions for everyone,
// own_reactions for each user alone, and the reaction types the backend refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsers, nextEvent, startHarness, type Harness } from '../../helpers';
import { watchingPair } from '../../scenes';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob');
});

afterAll(async () => {
  await harness?.close();
});

describe('reactions', () => {
  it('sends reaction.new with the full message to both watchers: groups, counts, scores, latest and own reactions', async () => {
    const { ac, bc } = await watchingPair(harness, 'react');
    const { message } = await ac.sendMessage({ text: 'react to me' });
    const bobSees = nextEvent(bc, 'reaction.new');
    const aliceSees = nextEvent(ac, 'reaction.new');
    const response = await ac.sendReaction(message.id, { type: 'love' });
    expect(response.reaction).toMatchObject({ type: 'love', user_id: 'alice', message_id: message.id, score: 1 });
    expect(response.message).toMatchObject({
      reaction_counts: { love: 1 },
      reaction_scores: { love: 1 },
      reaction_groups: { love: { count: 1, sum_scores: 1, first_reaction_at: expect.any(String), last_reaction_at: expect.any(String) } },
    });
    expect(response.message.own_reactions?.map((r) => r.type)).toEqual(['love']);
    expect((await bobSees).reaction?.user_id).toBe('alice');
    await aliceSees;

    const bobCopy = bc.state.messages.find((m) => m.id === message.id);
    expect(bobCopy?.reaction_groups?.love?.count).toBe(1);
    expect(bobCopy?.latest_reactions?.map((r) => r.user_id)).toEqual(['alice']);
    expect(bobCopy?.own_reactions).toEqual([]);
    expect(ac.state.messages.find((m) => m.id === message.id)?.own_reactions?.map((r) => r.type)).toEqual(['love']);
  });

  it('adds up several users and scores; a query as each user returns their own own_reactions', async () => {
    const { ac, bc } = await watchingPair(harness, 'react-sum');
    const { message } = await ac.sendMessage({ text: 'score me' });
    await ac.sendReaction(message.id, { type: 'clap', score: 3 });
    await bc.sendReaction(message.id, { type: 'clap', score: 2 });
    await bc.sendReaction(message.id, { type: 'like' });
    const asBob = (await bc.query({})).messages.find((m) => m.id === message.id);
    expect(asBob?.reaction_groups?.clap).toMatchObject({ count: 2, sum_scores: 5 });
    expect(asBob?.reaction_counts).toEqual({ clap: 2, like: 1 });
    expect(asBob?.own_reactions?.map((r) => r.type).sort()).toEqual(['clap', 'like']);
    const asAlice = (await ac.query({})).messages.find((m) => m.id === message.id);
    expect(asAlice?.own_reactions?.map((r) => r.type)).toEqual(['clap']);
  });

  it('carries each receiver\'s own own_reactions in events on a thread reply (outside the channel state)', async () => {
    const { ac, bc } = await watchingPair(harness, 'react-thread');
    const { message: parent } = await ac.sendMessage({ text: 'parent' });
    const { message: reply } = await bc.sendMessage({ text: 'reply', parent_id: parent.id });
    await bc.sendReaction(reply.id, { type: 'like' });
    // Fresh connections hold no thread state, so the SDK passes event.message on as sent.
    const a = await harness.connect('alice');
    const b = await harness.connect('bob');
    await a.channel('messaging', 'react-thread').watch();
    await b.channel('messaging', 'react-thread').watch();
    const bobEvent = nextEvent(b, 'reaction.new', (e) => e.reaction?.type === 'wow');
    const aliceEvent = nextEvent(a, 'reaction.new', (e) => e.reaction?.type === 'wow');
    await ac.sendReaction(reply.id, { type: 'wow' });
    expect((await bobEvent).message?.own_reactions?.map((r) => r.type)).toEqual(['like']);
    expect((await aliceEvent).message?.own_reactions?.map((r) => r.type)).toEqual(['wow']);
  });

  it('gives each watcher their own reactions and reminder whether the message has fewer reactions than the room has watchers or more', async () => {
    await createUsers(harness, 'carol', 'dave', 'erin');
    const server = harness.admin.channel('messaging', 'react-many', { created_by_id: 'alice', members: ['alice', 'bob', 'carol', 'dave', 'erin'] } as never);
    await server.create();
    // A thread reply: fresh connections hold no thread state, so the SDK passes event.message on as sent.
    const { message: parent } = await server.sendMessage({ text: 'parent', user_id: 'alice' } as never);
    const { message } = await server.sendMessage({ text: 'many hands', parent_id: parent.id, user_id: 'alice' } as never);
    await server.sendReaction(message.id, { type: 'like', user_id: 'bob' } as never);
    const [a, b] = [await harness.connect('alice'), await harness.connect('bob')];
    await b.reminders.upsertReminder({ messageId: message.id });
    await a.channel('messaging', 'react-many').watch();
    await b.channel('messaging', 'react-many').watch();
    const sees = async (client: typeof a, type: string) => {
      const event = await nextEvent(client, 'reaction.new', (e) => e.reaction?.type === type);
      return { own: event.message?.own_reactions?.map((r) => `${r.user_id}:${r.type}`).sort(), reminder: Boolean(event.message?.reminder) };
    };
    // Two watchers and two reactions: the message's own are read, and kept for the watchers.
    let bobSees = sees(b, 'wow');
    let aliceSees = sees(a, 'wow');
    await server.sendReaction(message.id, { type: 'wow', user_id: 'alice' } as never);
    expect(await bobSees).toEqual({ own: ['bob:like'], reminder: true });
    expect(await aliceSees).toEqual({ own: ['alice:wow'], reminder: false });
    // More reactions than watchers (from members who do not watch): the watchers' own are read instead.
    for (const user of ['carol', 'dave', 'erin']) await server.sendReaction(message.id, { type: 'clap', user_id: user } as never);
    bobSees = sees(b, 'fire');
    aliceSees = sees(a, 'fire');
    await server.sendReaction(message.id, { type: 'fire', user_id: 'alice' } as never);
    expect(await bobSees).toEqual({ own: ['bob:like'], reminder: true });
    expect(await aliceSees).toEqual({ own: ['alice:fire', 'alice:wow'], reminder: false });
  });

  it('replaces the user\'s reaction with enforce_unique: reaction.updated, and the old type is gone', async () => {
    const { ac, bc } = await watchingPair(harness, 'react-unique');
    const { message } = await ac.sendMessage({ text: 'pick one' });
    await bc.sendReaction(message.id, { type: 'like' });
    const updated = nextEvent(ac, 'reaction.updated');
    const { message: after } = await bc.sendReaction(message.id, { type: 'love' }, { enforce_unique: true });
    expect((await updated).reaction?.type).toBe('love');
    expect(after.reaction_counts).toEqual({ love: 1 });
    expect(after.own_reactions?.map((r) => r.type)).toEqual(['love']);
    expect(ac.state.messages.find((m) => m.id === message.id)?.reaction_groups).toEqual({
      love: expect.objectContaining({ count: 1 }),
    });
  });

  it('deletes a reaction: reaction.deleted, counts drop for the other user, and a missing one is code 16', async () => {
    const { ac, bc } = await watchingPair(harness, 'react-delete');
    const { message } = await ac.sendMessage({ text: 'changed my mind' });
    await bc.sendReaction(message.id, { type: 'like' });
    const deleted = nextEvent(ac, 'reaction.deleted');
    const response = await bc.deleteReaction(message.id, 'like');
    expect((await deleted).reaction).toMatchObject({ type: 'like', user_id: 'bob' });
    expect(response.message.reaction_counts).toEqual({});
    expect(ac.state.messages.find((m) => m.id === message.id)?.latest_reactions).toEqual([]);
    await expect(bc.deleteReaction(message.id, 'like')).rejects.toMatchObject({ code: 16 });
  });

  it('lists reactions newest first and queries them by type with next pages', async () => {
    const { a, ac, bc } = await watchingPair(harness, 'react-query');
    const { message } = await ac.sendMessage({ text: 'popular' });
    for (const type of ['a', 'b', 'c']) await ac.sendReaction(message.id, { type });
    await bc.sendReaction(message.id, { type: 'a' });
    const { reactions } = await ac.getReactions(message.id, { limit: 10 });
    expect(reactions.map((r) => `${r.user_id}:${r.type}`)).toEqual(['bob:a', 'alice:c', 'alice:b', 'alice:a']);
    const first = await a.queryReactions(message.id, { type: 'a' }, [], { limit: 1 });
    expect(first.reactions).toHaveLength(1);
    expect(first.next).toEqual(expect.any(String));
    const second = await a.queryReactions(message.id, { type: 'a' }, [], { limit: 1, next: first.next });
    expect([first.reactions[0]?.user_id, second.reactions[0]?.user_id].sort()).toEqual(['alice', 'bob']);
    // A full page may have more after it; the page after the last one is empty and ends the list.
    const third = await a.queryReactions(message.id, { type: 'a' }, [], { limit: 1, next: second.next });
    expect(third.reactions).toEqual([]);
    expect(third.next).toBeUndefined();
  });
});

describe('reactions: bad input', () => {
  it('refuses an empty reaction type, or one of 300 characters, with code 4 and leaves the message as it was', async () => {
    const { ac } = await watchingPair(harness, 'react-bad');
    const { message } = await ac.sendMessage({ text: 'careful' });
    await expect(ac.sendReaction(message.id, { type: '' })).rejects.toMatchObject({ code: 4, status: 400 });
    await expect(ac.sendReaction(message.id, { type: '   ' })).rejects.toMatchObject({ code: 4 });
    await expect(ac.sendReaction(message.id, { type: 'x'.repeat(300) })).rejects.toMatchObject({ code: 4 });
    await expect(ac.sendReaction(message.id, { type: 'x'.repeat(31) })).rejects.toMatchObject({ code: 4 });
    const ok = await ac.sendReaction(message.id, { type: 'x'.repeat(30) });
    expect(ok.message.reaction_counts).toEqual({ ['x'.repeat(30)]: 1 });
  });

  it('refuses reacting to a deleted message (4) and to a message that does not exist (16)', async () => {
    const { a, ac } = await watchingPair(harness, 'react-gone');
    const { message } = await ac.sendMessage({ text: 'gone soon' });
    await a.deleteMessage(message.id);
    await expect(ac.sendReaction(message.id, { type: 'like' })).rejects.toMatchObject({ code: 4 });
    await expect(ac.sendReaction('no-such-message', { type: 'like' })).rejects.toMatchObject({ code: 16 });
  });
});
