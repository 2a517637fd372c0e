// Reminders: create, change and remove the caller's reminder on a message
// (`POST/PATCH/DELETE /messages/{id}/reminders`, `remind_at` an ISO date or null for "save for
// later") and list them (`POST /reminders/query` with filter, sort, limit, next). Each change is
// sent to the owner's connections as reminder.created/updated/deleted; the due timer
// (events/expiry.ts) sends notification.reminder_due. Error texts are the ones ReminderManager
// matches ("already has reminder created for this message_id", "reminder does not exist").
import { Hono, type Context } from 'hono';
import type { APIResponse, QueryRemindersResponse, ReminderAPIResponse } from 'stream-chat';
import { actorFor, requireUser, type UserActor } from '../auth/actor';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, requireAuth, sendJson } from './request';
import { namedUserId, type JsonObject } from '../http/input';
import { messageInReach } from '../auth/message-access';
import { cursors, pageOf } from '../http/paging';
import { Presenter } from '../present/presenter';
import { scheduleReminders } from '../events/expiry';
import { notifyReminder } from '../events/user-notifications';
import { presentReminder } from '../present/reminder';

export function reminderRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);
  const owner = (c: Context<AppEnv>, body: JsonObject): UserActor =>
    requireUser(actorFor(ctx.store, c.get('subject'), namedUserId(body) ?? c.req.query('user_id')), 'use reminders');

  routes.post('/messages/:id/reminders', auth, async (c) => {
    const body = await readJson(c);
    const actor = owner(c, body);
    const { message, access } = messageInReach(ctx, c.req.param('id'), actor);
    // The channel's setting (its type's, or its own config_overrides) turns reminders off.
    if (access.type.config.user_message_reminders === false) {
      throw ApiError.input(`message reminders are disabled in channel ${message.cid} (user_message_reminders)`);
    }
    if (ctx.store.reminders.get(actor.id, message.id)) {
      throw ApiError.input(`user ${actor.id} already has reminder created for this message_id ${message.id}`);
    }
    const row = ctx.store.reminders.create({
      userId: actor.id,
      messageId: message.id,
      cid: message.cid,
      remindAt: remindAt(body.remind_at),
      now: new Date().toISOString(),
    });
    scheduleReminders(ctx);
    const { reminder } = notifyReminder(ctx, 'reminder.created', row);
    return sendJson({ reminder: reminder ?? presentReminder(ctx, row), duration: elapsed(c) } satisfies ReminderAPIResponse);
  });

  routes.patch('/messages/:id/reminders', auth, async (c) => {
    const body = await readJson(c);
    const actor = owner(c, body);
    const { message } = messageInReach(ctx, c.req.param('id'), actor);
    if (!ctx.store.reminders.get(actor.id, message.id)) throw reminderMissing(message.id);
    const row = ctx.store.reminders.update(actor.id, message.id, remindAt(body.remind_at), new Date().toISOString());
    if (!row) throw reminderMissing(message.id);
    scheduleReminders(ctx);
    const { reminder } = notifyReminder(ctx, 'reminder.updated', row);
    return sendJson({ reminder: reminder ?? presentReminder(ctx, row), duration: elapsed(c) } satisfies ReminderAPIResponse);
  });

  routes.delete('/messages/:id/reminders', auth, (c) => {
    const actor = owner(c, {});
    const messageId = c.req.param('id');
    const row = ctx.store.reminders.get(actor.id, messageId);
    if (!row) throw reminderMissing(messageId);
    ctx.store.reminders.remove(actor.id, messageId);
    scheduleReminders(ctx);
    notifyReminder(ctx, 'reminder.deleted', row);
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  routes.post('/reminders/query', auth, async (c) => {
    const body = await readJson(c);
    const actor = owner(c, body);
    const page = pageOf(body, { fallback: 25, max: 100 });
    const rows = ctx.store.reminders.query({ userId: actor.id, filter: body.filter, sort: body.sort, ...page });
    const presenter = new Presenter(ctx);
    const response: QueryRemindersResponse & APIResponse = {
      reminders: rows.map((row) => presentReminder(ctx, row, presenter)),
      ...cursors(page, rows.length),
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  return routes;
}

function reminderMissing(messageId: string): ApiError {
  return ApiError.notFound(`reminder does not exist for message_id ${messageId}`);
}

/** An ISO date, or null (and absent) for a reminder without a time. */
function remindAt(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const date = typeof value === 'string' ? new Date(value) : new Date(NaN);
  if (Number.isNaN(date.getTime())) throw ApiError.input('remind_at must be an ISO date or null');
  return date.toISOString();
}
