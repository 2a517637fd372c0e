// Channel administration: `POST /channels/{type}/{id}` (update, members, invites, roles),
// `PATCH` (partial update), `DELETE` (soft or hard), `POST …/truncate`, `POST …/hide` and
// `…/show`, `POST /channels/delete` (many channels, as a task) and `PUT /channels/batch` (one
// operation over the channels a filter selects, as a task). Who may do what is the
// policy's answer (features/channels/*, auth/channel-access.ts).
import { Hono } from 'hono';
import type {
  APIResponse,
  DeleteChannelAPIResponse,
  DeleteChannelsResponse,
  PartialUpdateChannelAPIResponse,
  TruncateChannelAPIResponse,
  UpdateChannelAPIResponse,
  UpdateChannelsBatchResponse,
} from 'stream-chat';
import { actorFor } from '../auth/actor';
import { accessTo, assertCanRead, assertCapability } from '../auth/channel-access';
import { channelDataChange } from '../features/channels/channel-data';
import { overridesCheck } from '../features/channels/config-overrides';
import { assertMayDelete, deleteChannel, hideChannel, showChannel, startChannelDeletion, truncateChannel } from '../features/channels/channel-lifecycle';
import { updateChannel } from '../features/channels/update-channel';
import { batchWork, planBatch } from '../features/channels/batch-update';
import { startTask } from '../infra/run-task';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { idList, namedUserId, objectField, optionalBoolean, queryFlag } from '../http/input';
import { elapsed, readJson, requireAuth, requireServerSide, sendJson } from './request';
import { presentChannel } from '../present/channel';
import { Presenter } from '../present/presenter';
import { notifyChannelUpdated } from '../events/channel-events';
import type { ChannelRow } from '../store/channels';
import { existingChannel } from './channels';

/** Channels one `POST /channels/delete` may name. */
const MAX_DELETE = 100;

export function channelAdminRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);
  const presented = (row: ChannelRow, actor: ReturnType<typeof actorFor>) =>
    presentChannel(new Presenter(ctx), row, accessTo(ctx, row, actor));

  routes.post('/channels/delete', auth, async (c) => {
    const body = await readJson(c);
    const actor = actorFor(ctx.store, c.get('subject'), namedUserId(body));
    const cids = [...new Set(idList(body.cids, 'cids'))];
    if (!cids.length) throw ApiError.input('cids is a required field');
    if (cids.length > MAX_DELETE) throw ApiError.input(`at most ${MAX_DELETE} channels can be deleted at once`);
    const hard = optionalBoolean(body.hard_delete, 'hard_delete') ?? false;
    // Everything is checked before the task starts: a refusal fails the whole request.
    const rows = cids.map((cid) => {
      const row = ctx.store.channels.get(cid);
      if (!row || row.deleted_at) throw ApiError.notFound(`channel ${cid} does not exist`);
      assertMayDelete(ctx, row, actor);
      return row;
    });
    const taskId = startChannelDeletion(ctx, rows, hard, actor.id);
    const result = Object.fromEntries(cids.map((cid) => [cid, 'pending']));
    return sendJson({ task_id: taskId, result, duration: elapsed(c) } satisfies APIResponse & DeleteChannelsResponse);
  });

  // Many channels at once, server-side (ChannelBatchUpdater): checked whole, then run as a task.
  routes.put('/channels/batch', requireServerSide(ctx), async (c) => {
    const body = await readJson(c);
    const plan = planBatch(ctx, actorFor(ctx.store, c.get('subject')), body);
    const taskId = startTask(ctx, 'update-channels-batch', batchWork(ctx, plan));
    const result = Object.fromEntries(plan.rows.map((row) => [row.cid, 'pending']));
    return sendJson({ task_id: taskId, result, duration: elapsed(c) } satisfies APIResponse & UpdateChannelsBatchResponse);
  });

  routes.post('/channels/:type/:id', auth, async (c) => {
    const body = await readJson(c);
    const actor = actorFor(ctx.store, c.get('subject'), namedUserId(body) ?? namedUserId(objectField(body.message, 'message')));
    const row = existingChannel(ctx, c.req.param('type'), c.req.param('id'));
    const result = updateChannel(ctx, row, actor, body);
    const response: UpdateChannelAPIResponse = {
      channel: presented(result.channel, actor),
      members: result.members,
      ...(result.message ? { message: result.message } : {}),
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  routes.patch('/channels/:type/:id', auth, async (c) => {
    const body = await readJson(c);
    const actor = actorFor(ctx.store, c.get('subject'), namedUserId(body));
    const row = existingChannel(ctx, c.req.param('type'), c.req.param('id'));
    const access = accessTo(ctx, row, actor);
    assertCanRead(row, actor, access);
    const change = channelDataChange(row, { set: objectField(body.set, 'set'), unset: body.unset }, overridesCheck(ctx, actor));
    assertCapability(row, actor, access, 'update-channel');
    if (change.frozenChanged) assertCapability(row, actor, access, 'freeze-channel');
    if (change.cooldownChanged) assertCapability(row, actor, access, 'set-channel-cooldown');
    const updated = ctx.store.channelAdmin.setData(row.cid, change.data, new Date().toISOString()) ?? row;
    notifyChannelUpdated(ctx, updated, actor.id);
    const presenter = new Presenter(ctx);
    const response: PartialUpdateChannelAPIResponse = {
      channel: presentChannel(presenter, updated, accessTo(ctx, updated, actor)),
      members: ctx.store.channels.members(row.cid, 100, 0).map((m) => presenter.member(m)),
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  routes.delete('/channels/:type/:id', auth, (c) => {
    const actor = actorFor(ctx.store, c.get('subject'), c.req.query('user_id'));
    const row = existingChannel(ctx, c.req.param('type'), c.req.param('id'));
    assertMayDelete(ctx, row, actor);
    const hard = queryFlag(c.req.query('hard_delete'), 'hard_delete');
    const deleted = deleteChannel(ctx, row, hard, actor.id);
    const response: DeleteChannelAPIResponse = { channel: presented(deleted, actor), duration: elapsed(c) };
    return sendJson(response);
  });

  routes.post('/channels/:type/:id/truncate', auth, async (c) => {
    const body = await readJson(c);
    const actor = actorFor(ctx.store, c.get('subject'), namedUserId(body) ?? namedUserId(objectField(body.message, 'message')));
    const row = existingChannel(ctx, c.req.param('type'), c.req.param('id'));
    const { channel, message } = truncateChannel(ctx, row, actor, body);
    const response: TruncateChannelAPIResponse = {
      channel: presented(channel, actor),
      ...(message ? { message } : {}),
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  routes.post('/channels/:type/:id/hide', auth, async (c) => {
    const body = await readJson(c);
    const actor = actorFor(ctx.store, c.get('subject'), namedUserId(body));
    const row = existingChannel(ctx, c.req.param('type'), c.req.param('id'));
    hideChannel(ctx, row, actor, optionalBoolean(body.clear_history, 'clear_history') ?? false);
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  routes.post('/channels/:type/:id/show', auth, async (c) => {
    const body = await readJson(c);
    const actor = actorFor(ctx.store, c.get('subject'), namedUserId(body));
    const row = existingChannel(ctx, c.req.param('type'), c.req.param('id'));
    showChannel(ctx, row, actor);
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  return routes;
}

