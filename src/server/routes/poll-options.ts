// Poll options: `POST /polls/{id}/options` (add; also users' suggestions when the poll allows
// them), `PUT /polls/{id}/options` (change the text), `GET` and `DELETE
// /polls/{id}/options/{optionId}`. Every change is a poll.updated for the poll's audience.
import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { APIResponse, CreatePollOptionAPIResponse, PollOptionResponse } from 'stream-chat';
import { actorFor, requireUser, type Actor } from '../auth/actor';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, readPayload, requireAuth, sendJson } from './request';
import { namedUserId, requiredString, type JsonObject } from '../http/input';
import { assertCanManage, assertCanSee, canManage, existingPoll, hasPollCapability } from '../features/polls/poll-access';
import { assertUniqueTexts, MAX_OPTIONS, optionInput } from '../features/polls/poll-input';
import { notifyPoll } from '../events/poll-events';
import type { PollOptionRow, PollRow } from '../store/polls';

export function pollOptionRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);
  const { polls } = ctx.store;

  const actorOf = (c: Context<AppEnv>, body: JsonObject = {}): Actor =>
    actorFor(ctx.store, c.get('subject'), namedUserId(body) ?? c.req.query('user_id'));
  const respond = (c: Context<AppEnv>, row: PollOptionRow) => {
    const response: CreatePollOptionAPIResponse & APIResponse = { poll_option: presentOption(ctx, row), duration: elapsed(c) };
    return sendJson(response);
  };
  const changed = (poll: PollRow, actor: Actor, now: string) => {
    polls.touch(poll.id, now);
    notifyPoll(ctx, existingPoll(ctx, poll.id), 'poll.updated', actor.id);
  };

  routes.post('/polls/:id/options', auth, async (c) => {
    const body = await readJson(c);
    const actor = requireUser(actorOf(c, body), 'add poll options');
    const poll = existingPoll(ctx, c.req.param('id'));
    assertCanSee(ctx, poll, actor);
    // The provider's rule: a suggestion needs only the right to vote, if the poll allows them.
    const suggesting = poll.allow_user_suggested_options === 1 && hasPollCapability(ctx, poll, actor, 'cast-poll-vote');
    if (!canManage(ctx, actor, poll) && !suggesting) {
      throw ApiError.notAllowed(`poll ${poll.id} does not allow suggested options; only its creator can add options`);
    }
    if (poll.is_closed) throw ApiError.input('poll is closed');
    const option = optionInput(body);
    const existing = polls.options(poll.id);
    if (existing.length >= MAX_OPTIONS) throw ApiError.input(`a poll can have at most ${MAX_OPTIONS} options`);
    assertUniqueTexts([...existing.map((o) => o.text), option.text]);
    if (option.id && polls.optionExists(option.id)) throw ApiError.input(`option id ${option.id} is already used`);
    const id = option.id ?? randomUUID();
    const now = new Date().toISOString();
    polls.addOption({ id, poll_id: poll.id, text: option.text, custom: JSON.stringify(option.custom), now });
    changed(poll, actor, now);
    return respond(c, polls.option(poll.id, id) as PollOptionRow);
  });

  routes.put('/polls/:id/options', auth, async (c) => {
    const body = await readJson(c);
    const actor = actorOf(c, body);
    const poll = existingPoll(ctx, c.req.param('id'));
    assertCanManage(ctx, actor, poll, 'change the options of');
    const option = optionInput(body);
    const current = polls.option(poll.id, requiredString(body.id, 'id'));
    if (!current) throw ApiError.notFound(`option ${String(body.id)} is not part of poll ${poll.id}`);
    assertUniqueTexts([...polls.options(poll.id).filter((o) => o.id !== current.id).map((o) => o.text), option.text]);
    const now = new Date().toISOString();
    polls.updateOption({ id: current.id, poll_id: poll.id, text: option.text, custom: JSON.stringify(option.custom), now });
    changed(poll, actor, now);
    return respond(c, polls.option(poll.id, current.id) as PollOptionRow);
  });

  routes.get('/polls/:id/options/:optionId', auth, (c) => {
    const actor = actorOf(c, readPayload(c));
    const poll = existingPoll(ctx, c.req.param('id'));
    assertCanSee(ctx, poll, actor);
    const option = polls.option(poll.id, c.req.param('optionId'));
    if (!option) throw ApiError.notFound(`option ${c.req.param('optionId')} is not part of poll ${poll.id}`);
    return respond(c, option);
  });

  routes.delete('/polls/:id/options/:optionId', auth, (c) => {
    const actor = actorOf(c, readPayload(c));
    const poll = existingPoll(ctx, c.req.param('id'));
    assertCanManage(ctx, actor, poll, 'change the options of');
    if (!polls.removeOption(poll.id, c.req.param('optionId'))) {
      throw ApiError.notFound(`option ${c.req.param('optionId')} is not part of poll ${poll.id}`);
    }
    changed(poll, actor, new Date().toISOString());
    const response: APIResponse = { duration: elapsed(c) };
    return sendJson(response);
  });

  return routes;
}

function presentOption(ctx: ServerContext, row: PollOptionRow): PollOptionResponse {
  const stats = ctx.store.polls.stats(row.poll_id);
  return {
    ...(JSON.parse(row.custom) as Record<string, unknown>),
    id: row.id,
    poll_id: row.poll_id,
    text: row.text,
    position: row.position,
    vote_count: stats.countsByOption.get(row.id) ?? 0,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
