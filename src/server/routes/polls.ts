// Polls: create (`POST /polls`, keeping the PollComposer's client-generated id), get, full update
// (`PUT /polls`), partial update (`PATCH /polls/{id}`, where `is_closed` closes the poll),
// delete and query (`POST /polls/query`). Changes to a sent poll are announced with poll.updated
// / poll.closed / poll.deleted (events/poll-events.ts).
import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { APIResponse, CreatePollAPIResponse, QueryPollsResponse } from 'stream-chat';
import { actorFor, requireUser, type Actor } from '../auth/actor';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, readPayload, requireAuth, sendJson } from './request';
import { isObject, namedUserId, requiredString, type JsonObject } from '../http/input';
import { cursors, pageOf } from '../http/paging';
import { assertCanManage, assertCanSee, existingPoll, visiblePolls } from '../features/polls/poll-access';
import { currentFields, DEFAULT_FIELDS, optionList, pollFields, pollId, type OptionInput } from '../features/polls/poll-input';
import { pollView } from '../present/poll';
import { Presenter } from '../present/presenter';
import { notifyPoll } from '../events/poll-events';
import type { PollFields, PollRow } from '../store/polls';

export function pollRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);
  const { store } = ctx;

  const actorOf = (c: Context<AppEnv>, body: JsonObject = {}): Actor =>
    actorFor(store, c.get('subject'), namedUserId(body) ?? c.req.query('user_id'));
  const respond = (c: Context<AppEnv>, row: PollRow, actor: Actor) => {
    const response: CreatePollAPIResponse & APIResponse = {
      poll: pollView(new Presenter(ctx), store, row).forViewer(actor.id),
      duration: elapsed(c),
    };
    return sendJson(response);
  };

  routes.post('/polls', auth, async (c) => {
    const body = await readJson(c);
    const actor = requireUser(actorOf(c, body), 'create polls');
    const id = pollId(body.id) ?? randomUUID();
    if (store.polls.get(id)) throw ApiError.input(`poll ${id} already exists`);
    const fields = pollFields(DEFAULT_FIELDS, body);
    const options = optionList(body.options);
    const now = new Date().toISOString();
    store.transaction(() => {
      store.polls.create({ ...fields, id, created_by_id: actor.id, now });
      replaceOptions(ctx, id, options, now);
    });
    return respond(c, existingPoll(ctx, id), actor);
  });

  routes.get('/polls/:id', auth, (c) => {
    const actor = actorOf(c, readPayload(c));
    const row = existingPoll(ctx, c.req.param('id'));
    assertCanSee(ctx, row, actor);
    return respond(c, row, actor);
  });

  // A full update: fields left out go back to their defaults. Options are replaced only when
  // the body lists them (kept by id, so their votes stay).
  routes.put('/polls', auth, async (c) => {
    const body = await readJson(c);
    const actor = actorOf(c, body);
    const row = existingPoll(ctx, requiredString(body.id, 'id'));
    assertCanManage(ctx, actor, row, 'update');
    const fields = pollFields({ ...DEFAULT_FIELDS, custom: '{}' }, body);
    const options = body.options === undefined ? undefined : optionList(body.options);
    return update(c, actor, row, fields, options);
  });

  routes.patch('/polls/:id', auth, async (c) => {
    const body = await readJson(c);
    const actor = actorOf(c, body);
    const row = existingPoll(ctx, c.req.param('id'));
    assertCanManage(ctx, actor, row, 'update');
    const set = body.set === undefined ? {} : body.set;
    if (!isObject(set)) throw ApiError.input('set must be an object');
    if (set.options !== undefined) throw ApiError.input('options are changed through /polls/{id}/options');
    const unset = body.unset === undefined ? [] : body.unset;
    if (!Array.isArray(unset) || !unset.every((key) => typeof key === 'string')) {
      throw ApiError.input('unset must be a list of field names');
    }
    if (unset.includes('name')) throw ApiError.input('name cannot be unset: a poll needs a question');
    return update(c, actor, row, pollFields(currentFields(row), set, unset), undefined);
  });

  const update = (c: Context<AppEnv>, actor: Actor, row: PollRow, fields: PollFields, options?: OptionInput[]) => {
    const now = new Date().toISOString();
    store.transaction(() => {
      store.polls.update(row.id, fields, now);
      if (options) replaceOptions(ctx, row.id, options, now);
    });
    const updated = existingPoll(ctx, row.id);
    const view = pollView(new Presenter(ctx), store, updated);
    notifyPoll(ctx, updated, 'poll.updated', actor.id, { view });
    if (updated.is_closed && !row.is_closed) notifyPoll(ctx, updated, 'poll.closed', actor.id, { view });
    return respond(c, updated, actor);
  };

  routes.delete('/polls/:id', auth, (c) => {
    const actor = actorOf(c, readPayload(c));
    const row = existingPoll(ctx, c.req.param('id'));
    assertCanManage(ctx, actor, row, 'delete');
    // Presented before the rows go: the event carries the poll as it was.
    const view = pollView(new Presenter(ctx), store, row);
    store.polls.remove(row.id);
    notifyPoll(ctx, row, 'poll.deleted', actor.id, { view });
    const response: APIResponse = { duration: elapsed(c) };
    return sendJson(response);
  });

  routes.post('/polls/query', auth, async (c) => {
    const body = await readJson(c);
    const actor = actorOf(c, body);
    if (actor.anonymous) throw ApiError.notAllowed('anonymous users cannot query polls');
    const page = pageOf(body, { fallback: 10, max: 100 });
    const rows = store.polls.queryPolls(body.filter, body.sort, page.limit, page.offset, visiblePolls(ctx, actor));
    const presenter = new Presenter(ctx);
    const response: QueryPollsResponse & APIResponse = {
      polls: rows.map((row) => pollView(presenter, store, row).forViewer(actor.id)),
      ...cursors(page, rows.length),
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  return routes;
}

/** Makes the poll's options exactly `options`: known ids are updated, the rest replaced. */
function replaceOptions(ctx: ServerContext, pollId: string, options: OptionInput[], now: string): void {
  const { polls } = ctx.store;
  const existing = new Map(polls.options(pollId).map((option) => [option.id, option]));
  const kept = new Set<string>();
  for (const option of options) {
    const custom = JSON.stringify(option.custom);
    const current = option.id ? existing.get(option.id) : undefined;
    if (current) {
      polls.updateOption({ id: current.id, poll_id: pollId, text: option.text, custom, now });
      kept.add(current.id);
    } else {
      if (option.id && polls.optionExists(option.id)) throw ApiError.input(`option id ${option.id} is already used`);
      const id = option.id ?? randomUUID();
      polls.addOption({ id, poll_id: pollId, text: option.text, custom, now });
      kept.add(id);
    }
  }
  for (const id of existing.keys()) if (!kept.has(id)) polls.removeOption(pollId, id);
}
