// Votes and answers: `POST /messages/{id}/polls/{pollId}/vote` with `{vote: {option_id}}` or
// `{vote: {answer_text}}`, `DELETE /messages/{id}/polls/{pollId}/vote/{voteId}`, and the vote
// query `POST /polls/{id}/votes` (answers are the votes with `is_answer`).
//
// The provider's rules: a poll takes votes only once sent in a message and while open; with
// enforce_unique_vote a new vote replaces the previous one (poll.vote_changed, same vote id);
// a user has at most one answer, which a new answer replaces; max_votes_allowed caps the rest.
import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { APIResponse, CastVoteAPIResponse, PollAnswer, PollVote, PollVotesAPIResponse } from 'stream-chat';
import { actorFor, requireUser, type Actor, type UserActor } from '../auth/actor';
import { allowedInApp } from '../auth/policy';
import { appSettings } from '../infra/app-settings';
import { assertNotBanned } from '../features/moderation/bans';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, readPayload, requireAuth, sendJson } from './request';
import { isObject, namedUserId, optionalString } from '../http/input';
import { cursors, pageOf } from '../http/paging';
import { assertCanSee, assertPollCapability, canManage, existingPoll } from '../features/polls/poll-access';
import { pollView } from '../present/poll';
import { Presenter } from '../present/presenter';
import { notifyPoll, type PollEventType } from '../events/poll-events';
import type { PollRow, PollVoteRow } from '../store/polls';

const MAX_ANSWER = 1000;

export function pollVoteRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);
  const { polls } = ctx.store;

  /** The poll, checked to be the one this message carries and open for votes by `actor`. */
  const votablePoll = (c: Context<AppEnv>, actor: Actor): PollRow => {
    const poll = existingPoll(ctx, c.req.param('pollId') ?? '');
    if (poll.message_id !== c.req.param('messageId')) {
      throw ApiError.input(`poll ${poll.id} is not attached to message ${c.req.param('messageId') ?? ''}`);
    }
    if (ctx.store.messages.get(poll.message_id)?.deleted_at) throw ApiError.input('the message with this poll is deleted');
    assertPollCapability(ctx, poll, actor, 'cast-poll-vote');
    const channel = poll.cid ? ctx.store.channels.get(poll.cid) : undefined;
    if (channel && actor.id !== null && !actor.server) assertNotBanned(ctx, channel, actor.id);
    if (poll.is_closed) throw ApiError.input('poll is closed');
    return poll;
  };

  const answer = (c: Context<AppEnv>, vote: PollVoteRow, type: PollEventType | undefined, poll: PollRow, actor: UserActor) => {
    if (type) notifyPoll(ctx, poll, type, actor.id, { vote });
    const response: CastVoteAPIResponse & APIResponse = {
      vote: pollView(new Presenter(ctx), ctx.store, poll).vote(vote, actor.id),
      duration: elapsed(c),
    };
    return sendJson(response);
  };

  routes.post('/messages/:messageId/polls/:pollId/vote', auth, async (c) => {
    const body = await readJson(c);
    const actor = requireUser(actorFor(ctx.store, c.get('subject'), namedUserId(body)), 'vote');
    const poll = votablePoll(c, actor);
    if (!isObject(body.vote)) throw ApiError.input('vote is a required field');
    const answerText = optionalString(body.vote.answer_text, 'vote.answer_text')?.trim();
    const optionId = optionalString(body.vote.option_id, 'vote.option_id');
    const now = new Date().toISOString();
    const mine = polls.votesOf(poll.id, actor.id);

    if (answerText !== undefined) {
      if (!poll.allow_answers) throw ApiError.input('this poll does not allow answers');
      if (!answerText) throw ApiError.input('vote.answer_text is empty');
      if (answerText.length > MAX_ANSWER) throw ApiError.input(`vote.answer_text is longer than ${MAX_ANSWER} characters`);
      const previous = mine.find((v) => v.answer_text !== null);
      if (previous) {
        polls.changeVote({ id: previous.id, poll_id: poll.id, option_id: null, answer_text: answerText, now });
        return answer(c, polls.vote(poll.id, previous.id) as PollVoteRow, 'poll.vote_changed', poll, actor);
      }
      const id = randomUUID();
      polls.addVote({ id, poll_id: poll.id, option_id: null, answer_text: answerText, user_id: actor.id, now });
      return answer(c, polls.vote(poll.id, id) as PollVoteRow, 'poll.vote_casted', poll, actor);
    }

    if (!optionId) throw ApiError.input('vote needs an option_id or an answer_text');
    if (!polls.option(poll.id, optionId)) throw ApiError.input(`option ${optionId} is not part of poll ${poll.id}`);
    const votes = mine.filter((v) => v.option_id !== null);
    const same = votes.find((v) => v.option_id === optionId);
    // Voting again for the same option changes nothing and announces nothing.
    if (same) return answer(c, same, undefined, poll, actor);
    const previous = votes[0];
    if (poll.enforce_unique_vote && previous) {
      polls.changeVote({ id: previous.id, poll_id: poll.id, option_id: optionId, answer_text: null, now });
      return answer(c, polls.vote(poll.id, previous.id) as PollVoteRow, 'poll.vote_changed', poll, actor);
    }
    if (poll.max_votes_allowed !== null && votes.length >= poll.max_votes_allowed) {
      throw ApiError.input(`reached the vote limit of ${poll.max_votes_allowed}: remove a vote first`);
    }
    const id = randomUUID();
    polls.addVote({ id, poll_id: poll.id, option_id: optionId, answer_text: null, user_id: actor.id, now });
    return answer(c, polls.vote(poll.id, id) as PollVoteRow, 'poll.vote_casted', poll, actor);
  });

  routes.delete('/messages/:messageId/polls/:pollId/vote/:voteId', auth, (c) => {
    const actor = requireUser(actorFor(ctx.store, c.get('subject'), namedUserId(readPayload(c)) ?? c.req.query('user_id')), 'vote');
    const poll = votablePoll(c, actor);
    const vote = polls.vote(poll.id, c.req.param('voteId'));
    if (!vote) throw ApiError.notFound(`vote ${c.req.param('voteId')} does not exist in poll ${poll.id}`);
    if (vote.user_id !== actor.id && !allowedInApp(actor, appSettings(ctx), 'update-poll')) {
      throw ApiError.notAllowed('only the voter can remove a vote');
    }
    const response: APIResponse & { vote: PollVote | PollAnswer } = {
      vote: pollView(new Presenter(ctx), ctx.store, poll).vote(vote, actor.id),
      duration: elapsed(c),
    };
    polls.removeVote(poll.id, vote.id);
    notifyPoll(ctx, poll, 'poll.vote_removed', actor.id, { vote });
    return sendJson(response);
  });

  routes.post('/polls/:id/votes', auth, async (c) => {
    const body = await readJson(c);
    const actor = actorFor(ctx.store, c.get('subject'), namedUserId(body) ?? c.req.query('user_id'));
    const poll = existingPoll(ctx, c.req.param('id'));
    assertCanSee(ctx, poll, actor);
    if (!canManage(ctx, actor, poll)) assertPollCapability(ctx, poll, actor, 'query-poll-votes');
    const page = pageOf(body, { fallback: 10, max: 300 });
    const rows = polls.queryVotes(poll.id, body.filter, body.sort, page.limit, page.offset);
    const view = pollView(new Presenter(ctx), ctx.store, poll);
    const response: PollVotesAPIResponse & APIResponse = {
      votes: rows.map((row) => view.vote(row, actor.id)),
      ...cursors(page, rows.length),
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  return routes;
}
