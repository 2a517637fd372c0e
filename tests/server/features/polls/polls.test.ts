// Polls with two real SDK users: created (keeping the client's id) and sent in a message, voted
// on and answered, changed, closed and deleted, each followed by both users' PollManager state,
// which the SDK updates only from poll.* events.
import type { PollResponse, StreamChat } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUsers, nextEvent, startHarness, type Harness } from '../../helpers';
import { watchingPair, type Pair } from '../../scenes';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob', 'carol');
});

afterAll(async () => {
  await harness?.close();
});

type PollScene = Pair & { poll: PollResponse; messageId: string; option: (text: string) => string };

/** alice creates a poll with options A, B, C (plus `extra`), sends it, and both users watch. */
async function sentPoll(id: string, extra: Record<string, unknown> = {}): Promise<PollScene> {
  const pair = await watchingPair(harness, id);
  for (const client of [pair.a, pair.b]) client.polls.registerSubscriptions();
  const { poll } = await pair.a.createPoll({ id: `poll-${id}`, name: 'Where to?', options: [{ text: 'A' }, { text: 'B' }, { text: 'C' }], ...extra });
  const bobSees = nextEvent(pair.bc, 'message.new');
  const { message } = await pair.ac.sendMessage({ text: 'Vote!', poll_id: poll.id });
  await bobSees;
  const option = (text: string) => poll.options.find((o) => o.text === text)?.id ?? '';
  return { ...pair, poll, messageId: message.id, option };
}

const state = (client: StreamChat, pollId: string) => client.polls.fromState(pollId)?.data;

describe('polls', () => {
  it('creates a poll under the client-generated id and sends it: both users get message.poll in full', async () => {
    const { a, b, poll, messageId, ac } = await sentPoll('create', { description: 'Team outing', allow_answers: true });
    expect(poll).toMatchObject({
      id: 'poll-create',
      name: 'Where to?',
      description: 'Team outing',
      voting_visibility: 'public',
      enforce_unique_vote: false,
      max_votes_allowed: null,
      allow_answers: true,
      is_closed: false,
      vote_count: 0,
      answers_count: 0,
      vote_counts_by_option: { [poll.options[0]!.id]: 0 },
      latest_answers: [],
      latest_votes_by_option: {},
      own_votes: [],
      created_by_id: 'alice',
      created_by: { id: 'alice' },
    });
    expect(poll.options.map((o) => o.text)).toEqual(['A', 'B', 'C']);
    const sent = ac.state.messages.find((m) => m.id === messageId);
    expect(sent?.poll?.id).toBe('poll-create');
    expect(state(b, 'poll-create')?.name).toBe('Where to?');
    expect(state(a, 'poll-create')?.options).toHaveLength(3);
  });

  it('casts a vote: poll.vote_casted reaches both users (the voter too), with own votes for the voter only', async () => {
    const { a, b, bc, ac, messageId, option } = await sentPoll('vote');
    const aliceSees = nextEvent(a, 'poll.vote_casted');
    const bobSees = nextEvent(b, 'poll.vote_casted');
    const { vote } = await b.castPollVote(messageId, 'poll-vote', { option_id: option('B') });
    expect(vote).toMatchObject({ option_id: option('B'), user_id: 'bob', poll_id: 'poll-vote' });
    expect((await aliceSees).poll?.own_votes).toEqual([]);
    expect((await bobSees).poll?.own_votes?.map((v) => v.id)).toEqual([vote.id]);
    expect(state(b, 'poll-vote')?.ownVotesByOptionId[option('B')]?.id).toBe(vote.id);
    expect(state(a, 'poll-vote')?.ownVotesByOptionId).toEqual({});
    for (const client of [a, b]) {
      expect(state(client, 'poll-vote')).toMatchObject({ vote_count: 1, vote_counts_by_option: { [option('B')]: 1 }, maxVotedOptionIds: [option('B')] });
    }
    expect(state(a, 'poll-vote')?.latest_votes_by_option[option('B')]?.[0]?.user?.id).toBe('bob');
    // A channel query shows each user their own votes.
    const asBob = (await bc.query({})).messages.find((m) => m.id === messageId);
    expect(asBob?.poll?.own_votes?.map((v) => v.option_id)).toEqual([option('B')]);
    const asAlice = (await ac.query({})).messages.find((m) => m.id === messageId);
    expect(asAlice?.poll?.own_votes).toEqual([]);
  });

  it('replaces the previous vote when unique votes are enforced: poll.vote_changed, same vote id', async () => {
    const { a, b, messageId, option } = await sentPoll('unique', { enforce_unique_vote: true });
    const first = (await b.castPollVote(messageId, 'poll-unique', { option_id: option('A') })).vote;
    const aliceSees = nextEvent(a, 'poll.vote_changed');
    const bobSees = nextEvent(b, 'poll.vote_changed');
    const second = (await b.castPollVote(messageId, 'poll-unique', { option_id: option('C') })).vote;
    expect(second.id).toBe(first.id);
    expect((await aliceSees).poll_vote).toMatchObject({ id: first.id, option_id: option('C') });
    await bobSees;
    expect(state(b, 'poll-unique')?.ownVotesByOptionId).toEqual({ [option('C')]: expect.objectContaining({ id: first.id }) });
    expect(state(a, 'poll-unique')).toMatchObject({ vote_count: 1, vote_counts_by_option: { [option('A')]: 0, [option('C')]: 1 } });
  });

  it('caps votes at max_votes_allowed and removes a vote with poll.vote_removed', async () => {
    const { a, b, messageId, option } = await sentPoll('max', { max_votes_allowed: 2 });
    await b.castPollVote(messageId, 'poll-max', { option_id: option('A') });
    const { vote } = await b.castPollVote(messageId, 'poll-max', { option_id: option('B') });
    await expect(b.castPollVote(messageId, 'poll-max', { option_id: option('C') })).rejects.toThrow(/code 4: reached the vote limit of 2/);
    const aliceSees = nextEvent(a, 'poll.vote_removed');
    const bobSees = nextEvent(b, 'poll.vote_removed');
    await b.removePollVote(messageId, 'poll-max', vote.id);
    expect((await aliceSees).poll?.vote_count).toBe(1);
    await bobSees;
    expect(Object.keys(state(b, 'poll-max')?.ownVotesByOptionId ?? {})).toEqual([option('A')]);
    await expect(a.removePollVote(messageId, 'poll-max', vote.id)).rejects.toMatchObject({ code: 16 });
  });

  it('takes one answer per user when answers are allowed; a new answer replaces it (poll.vote_changed)', async () => {
    const { a, b, messageId } = await sentPoll('answers', { allow_answers: true });
    const casted = nextEvent(a, 'poll.vote_casted');
    const first = (await b.addPollAnswer(messageId, 'poll-answers', 'Somewhere warm')).vote;
    expect((await casted).poll_vote).toMatchObject({ answer_text: 'Somewhere warm', is_answer: true });
    const changed = nextEvent(a, 'poll.vote_changed');
    await b.addPollAnswer(messageId, 'poll-answers', 'The beach');
    const event = await changed;
    expect(event.poll?.answers_count).toBe(1);
    expect(event.poll?.latest_answers.map((ans) => ans.answer_text)).toEqual(['The beach']);
    // The voter's SDK swaps the answer in place (it matches its own by id).
    expect(state(b, 'poll-answers')?.latest_answers.map((ans) => ans.answer_text)).toEqual(['The beach']);
    expect(state(b, 'poll-answers')?.ownAnswer).toMatchObject({ id: first.id, answer_text: 'The beach' });
    const { votes } = await a.queryPollAnswers('poll-answers');
    expect(votes.map((v) => v.answer_text)).toEqual(['The beach']);
  });

  it('hides voters of an anonymous poll from everyone but themselves', async () => {
    const { a, b, messageId, option } = await sentPoll('anonymous', { voting_visibility: 'anonymous' });
    const aliceSees = nextEvent(a, 'poll.vote_casted');
    const bobSees = nextEvent(b, 'poll.vote_casted');
    await b.castPollVote(messageId, 'poll-anonymous', { option_id: option('A') });
    const seenByAlice = await aliceSees;
    expect(seenByAlice.poll_vote?.user_id).toBeUndefined();
    expect(seenByAlice.poll_vote?.user).toBeUndefined();
    expect(seenByAlice.poll?.latest_votes_by_option).toEqual({});
    expect((await bobSees).poll_vote?.user_id).toBe('bob');
    expect(state(b, 'poll-anonymous')?.ownVotesByOptionId[option('A')]).toBeDefined();
    const { votes } = await a.queryPollVotes('poll-anonymous', {});
    expect(votes).toHaveLength(1);
    expect(votes[0]?.user_id).toBeUndefined();
  });

  it('closes a poll by is_closed: poll.closed to both, then votes are refused with "poll is closed"', async () => {
    const { a, b, messageId, option } = await sentPoll('close');
    await expect(b.closePoll('poll-close')).rejects.toMatchObject({ code: 17 });
    const bobSees = nextEvent(b, 'poll.closed');
    const aliceSees = nextEvent(a, 'poll.closed');
    const { poll } = await a.closePoll('poll-close');
    expect(poll.is_closed).toBe(true);
    await Promise.all([bobSees, aliceSees]);
    expect(state(b, 'poll-close')?.is_closed).toBe(true);
    await expect(b.castPollVote(messageId, 'poll-close', { option_id: option('A') })).rejects.toThrow(/code 4: poll is closed/);
  });

  it('updates a poll partly and fully (poll.updated) and deletes it (poll.deleted)', async () => {
    const { a, b, option } = await sentPoll('update');
    const renamed = nextEvent(b, 'poll.updated');
    await a.partialUpdatePoll('poll-update', { set: { name: 'Where now?', mood: 'sunny' } as never, unset: ['description'] });
    expect((await renamed).poll).toMatchObject({ name: 'Where now?', mood: 'sunny' });
    await vi.waitFor(() => expect(state(b, 'poll-update')?.name).toBe('Where now?'));

    const replaced = nextEvent(b, 'poll.updated');
    await a.updatePoll({ id: 'poll-update', name: 'Final?', options: [{ id: option('A'), text: 'A+' }, { text: 'D' }] });
    const poll = (await replaced).poll;
    expect(poll?.options.map((o) => o.text)).toEqual(['A+', 'D']);
    expect(poll?.options[0]?.id).toBe(option('A'));
    expect(poll).toMatchObject({ enforce_unique_vote: false, max_votes_allowed: null });

    await expect(b.deletePoll('poll-update')).rejects.toMatchObject({ code: 17 });
    const deleted = nextEvent(b, 'poll.deleted' as never);
    await a.deletePoll('poll-update');
    expect((await deleted).poll?.id).toBe('poll-update');
    await expect(a.getPoll('poll-update')).rejects.toMatchObject({ code: 16 });
  });

  it('adds options (users may suggest them only when allowed) and reads, changes and deletes them', async () => {
    const { a, b } = await sentPoll('options');
    await expect(b.createPollOption('poll-options', { text: 'Mine' })).rejects.toMatchObject({ code: 17 });
    const updated = nextEvent(b, 'poll.updated');
    const { poll_option } = await a.createPollOption('poll-options', { text: 'D' });
    expect(poll_option).toMatchObject({ text: 'D', poll_id: 'poll-options', vote_count: 0 });
    expect((await updated).poll?.options.map((o) => o.text)).toEqual(['A', 'B', 'C', 'D']);
    await expect(a.createPollOption('poll-options', { text: 'D' })).rejects.toThrow(/option "D" already exists/);
    expect((await b.getPollOption('poll-options', poll_option.id)).poll_option.text).toBe('D');
    expect((await a.updatePollOption('poll-options', { id: poll_option.id, text: 'E' })).poll_option.text).toBe('E');
    await a.deletePollOption('poll-options', poll_option.id);
    await expect(b.getPollOption('poll-options', poll_option.id)).rejects.toMatchObject({ code: 16 });

    const suggest = await sentPoll('suggest', { allow_user_suggested_options: true });
    const suggested = await suggest.b.createPollOption('poll-suggest', { text: 'Bob idea' });
    await suggest.b.castPollVote(suggest.messageId, 'poll-suggest', { option_id: suggested.poll_option.id });
    expect((await suggest.a.getPoll('poll-suggest')).poll.vote_counts_by_option[suggested.poll_option.id]).toBe(1);
  });

  it('queries polls and votes with filters', async () => {
    const { a, b, messageId, option } = await sentPoll('query');
    await b.castPollVote(messageId, 'poll-query', { option_id: option('A') });
    await a.castPollVote(messageId, 'poll-query', { option_id: option('B') });
    const { votes } = await a.queryPollVotes('poll-query', { option_id: { $in: [option('B')] } });
    expect(votes.map((v) => v.user_id)).toEqual(['alice']);
    const page = await a.queryPollVotes('poll-query', {}, [], { limit: 1 });
    expect(page.votes).toHaveLength(1);
    expect((await a.queryPollVotes('poll-query', {}, [], { limit: 1, next: page.next })).votes).toHaveLength(1);
    await a.closePoll('poll-query');
    const { polls } = await b.queryPolls({ id: 'poll-query', is_closed: true });
    expect(polls.map((p) => p.id)).toEqual(['poll-query']);
    const carol = await harness.connect('carol');
    expect((await carol.queryPolls({ id: 'poll-query' })).polls).toEqual([]);
  });

  it('creates and sends a poll through the SDK\'s PollComposer', async () => {
    const { ac, b, bc } = await watchingPair(harness, 'poll-composer');
    b.polls.registerSubscriptions();
    const composer = ac.messageComposer;
    await composer.pollComposer.updateFields({ name: 'Lunch?' });
    await composer.pollComposer.updateFields({ options: [{ id: 'o1', text: 'Pizza' }, { id: 'o2', text: 'Soup' }] });
    const clientId = composer.pollComposer.state.getLatestValue().data.id;
    await composer.createPoll();
    expect(composer.pollId).toBe(clientId);
    const composition = await composer.compose();
    const received = nextEvent(bc, 'message.new');
    await ac.sendMessage(composition!.message);
    expect((await received).message?.poll).toMatchObject({ id: clientId, name: 'Lunch?', enforce_unique_vote: true });
    expect(b.polls.fromState(clientId)?.data.options.map((o) => o.text)).toEqual(['Pizza', 'Soup']);
  });
});

describe('polls refused', () => {
  it('refuses 101 options, max votes 11 or 1, max votes with unique votes, and a poll without a question', async () => {
    const alice = await harness.connect('alice');
    const options = Array.from({ length: 101 }, (_, i) => ({ text: `option ${i}` }));
    await expect(alice.createPoll({ name: 'Too many', options })).rejects.toThrow(/code 4: a poll can have at most 100 options, not 101/);
    await expect(alice.createPoll({ name: 'Max', max_votes_allowed: 11 })).rejects.toThrow(/code 4: max_votes_allowed must be a whole number from 2 to 10/);
    await expect(alice.createPoll({ name: 'Max', max_votes_allowed: 1 })).rejects.toMatchObject({ code: 4 });
    await expect(alice.createPoll({ name: 'Both', enforce_unique_vote: true, max_votes_allowed: 3 })).rejects.toThrow(/enforce_unique_vote/);
    await expect(alice.createPoll({ name: '  ' })).rejects.toThrow(/a poll needs a question/);
    await expect(alice.createPoll({ name: 'Dup', options: [{ text: 'x' }, { text: 'x' }] })).rejects.toThrow(/option "x" already exists/);
    await expect(alice.createPoll({ name: 'Blank', options: [{ text: '' }] })).rejects.toThrow(/options\[0\]\.text is empty/);
    expect((await alice.createPoll({ name: 'Hundred', options: options.slice(0, 100), max_votes_allowed: 10 })).poll.options).toHaveLength(100);
  });

  it('sends a poll only once and only by its creator, and takes votes only on its own message', async () => {
    const { ac, bc, b } = await watchingPair(harness, 'poll-misuse');
    const { poll } = await ac.getClient().createPoll({ id: 'poll-misuse', name: 'Mine', options: [{ text: 'A' }] });
    await expect(bc.sendMessage({ text: 'stolen', poll_id: poll.id })).rejects.toThrow(/can only be sent by the user who created it/);
    const { message } = await ac.sendMessage({ text: 'poll', poll_id: poll.id });
    await expect(ac.sendMessage({ text: 'again', poll_id: poll.id })).rejects.toThrow(/already sent in message/);
    const { message: other } = await ac.sendMessage({ text: 'other' });
    await expect(b.castPollVote(other.id, poll.id, { option_id: poll.options[0]!.id })).rejects.toThrow(/is not attached to message/);
    await expect(b.castPollVote(message.id, poll.id, { answer_text: 'no' })).rejects.toThrow(/does not allow answers/);
    await expect(b.castPollVote(message.id, poll.id, { option_id: 'nope' })).rejects.toThrow(/option nope is not part of poll/);
  });
});
