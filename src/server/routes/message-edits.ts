// Changing messages: update (`POST /messages/{id}`), partial update and pinning (`PUT`), soft and
// hard delete (`DELETE`, `?hard=true`) and undelete (`POST /messages/{id}/undelete`). Every
// change is broadcast to the channel's watchers, the actor's connections included.
import { Hono } from 'hono';
import type { MessageResponse, UpdateMessageAPIResponse } from 'stream-chat';
import { actorFor, type Actor } from '../auth/actor';
import { assertCapability } from '../auth/channel-access';
import { assertNotBanned } from '../features/moderation/bans';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, requireAuth, sendJson } from './request';
import { isObject, namedUserId, objectField, optionalString } from '../http/input';
import { assertMayChange, assertNotDeleted, messageInReach, type MessageTarget } from '../auth/message-access';
import { fullUpdate, partialUpdate, type PlannedChange } from '../features/messages/message-changes';
import { publishMessageEvent } from '../events/message-events';
import { deletePendingMessage } from '../features/messages/pending-messages';
import { Presenter } from '../present/presenter';
import type { MessageFields } from '../store/message-edits';
import { schedulePinExpiry } from '../events/expiry';

export function messageEditRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);

  routes.post('/messages/:id', auth, async (c) => {
    const body = await readJson(c);
    if (!isObject(body.message)) throw ApiError.input('message is a required field');
    const input = body.message;
    const id = c.req.param('id');
    if (input.id !== undefined && input.id !== id) throw ApiError.input('message.id does not match the URL');
    const actor = actorFor(ctx.store, c.get('subject'), namedUserId(input) ?? namedUserId(body));
    const target = messageInReach(ctx, id, actor);
    assertNotDeleted(target.message, 'edited');
    const change = fullUpdate(ctx, target.channel, target.message, input, actor.id);
    const message = applyChange(ctx, target, actor, change);
    return sendJson({ message, duration: elapsed(c) } satisfies UpdateMessageAPIResponse);
  });

  routes.put('/messages/:id', auth, async (c) => {
    const body = await readJson(c);
    const set = objectField(body.set, 'set');
    const unset = body.unset ?? [];
    if (!Array.isArray(unset) || !unset.every((key): key is string => typeof key === 'string')) {
      throw ApiError.input('unset must be a list of field names');
    }
    if (!Object.keys(set).length && !unset.length) throw ApiError.input('set or unset is required');
    const actor = actorFor(ctx.store, c.get('subject'), namedUserId(body));
    const target = messageInReach(ctx, c.req.param('id'), actor);
    assertNotDeleted(target.message, 'edited');
    const change = partialUpdate(ctx, target.channel, target.message, set, unset, actor.id);
    const message = applyChange(ctx, target, actor, change);
    return sendJson({ message, duration: elapsed(c) } satisfies UpdateMessageAPIResponse);
  });

  routes.delete('/messages/:id', auth, (c) => {
    const hard = c.req.query('hard') === 'true' || c.req.query('hard') === '1';
    if (c.req.query('delete_for_me') === 'true') {
      throw ApiError.input('delete_for_me is not supported by this backend');
    }
    const actor = actorFor(ctx.store, c.get('subject'), c.req.query('deleted_by') ?? c.req.query('user_id'));
    const target = messageInReach(ctx, c.req.param('id'), actor, { pending: true });
    if (target.message.pending) {
      // Its author alone ever saw it (features/messages/pending-messages.ts): no event.
      const message = deletePendingMessage(ctx, target, actor, hard, (row) => presentTo(ctx, actor, row));
      return sendJson({ message, duration: elapsed(c) } satisfies UpdateMessageAPIResponse);
    }
    assertMayChange(target, actor, hard ? 'hard-delete' : 'delete');
    if (target.message.hard_deleted) throw ApiError.input(`message ${target.message.id} was already hard deleted`);
    const now = new Date().toISOString();
    const { store } = ctx;
    const row = store.transaction(() => {
      if (!hard) {
        if (target.message.deleted_at) return target.message;
        store.messageHistory.record(target.message, actor.id, now);
        return store.messageEdits.softDelete(target.message.id, now);
      }
      // Nothing of a hard-deleted message survives: its reactions, reminders and earlier versions go with it.
      store.reactions.removeAllOf(target.message.id);
      store.reminders.removeAllOf(target.message.id);
      store.messageHistory.removeAllOf(target.message.id);
      return store.messageEdits.hardDelete(target.message.id, now);
    });
    const message = publishMessageEvent(ctx, target.channel, 'message.deleted', row, actor.id, {
      hard_delete: hard,
      deleted_for_me: false,
    });
    return sendJson({ message, duration: elapsed(c) } satisfies UpdateMessageAPIResponse);
  });

  routes.post('/messages/:id/undelete', auth, async (c) => {
    const body = await readJson(c);
    const actor = actorFor(ctx.store, c.get('subject'), optionalString(body.undeleted_by, 'undeleted_by') ?? namedUserId(body));
    const target = messageInReach(ctx, c.req.param('id'), actor);
    // Restoring is for those who may delete anyone's message (and server-side calls).
    assertCapability(target.channel, actor, target.access, 'delete-any-message');
    if (target.message.hard_deleted) throw ApiError.input(`message ${target.message.id} was hard deleted and cannot be restored`);
    if (!target.message.deleted_at) throw ApiError.input(`message ${target.message.id} is not deleted`);
    const now = new Date().toISOString();
    const row = ctx.store.transaction(() => {
      ctx.store.messageHistory.record(target.message, actor.id, now);
      return ctx.store.messageEdits.undelete(target.message.id, now);
    });
    const message = publishMessageEvent(ctx, target.channel, 'message.undeleted', row, actor.id);
    return sendJson({ message, duration: elapsed(c) } satisfies UpdateMessageAPIResponse);
  });

  return routes;
}

/** Checks what the change needs, stores it and announces message.updated. */
function applyChange(ctx: ServerContext, target: MessageTarget, actor: Actor, change: PlannedChange) {
  // A banned user may not change what they wrote either.
  if (actor.id !== null && !actor.server) assertNotBanned(ctx, target.channel, actor.id);
  if (change.content) assertMayChange(target, actor, 'update');
  if (change.pin) assertCapability(target.channel, actor, target.access, 'pin-message');
  const now = new Date().toISOString();
  const before = target.message;
  const fields = { ...change.fields };
  // Translations say what the old text said: an edit of the text drops them.
  if (fields.text !== undefined && fields.text !== before.text && before.i18n) fields.i18n = null;
  const row = ctx.store.transaction(() => {
    // Every edit of the text, attachments or custom data keeps the version it replaces, with
    // the edit, in one transaction (the message history, routes/server-side/message-history.ts).
    if (changesContent(before, fields)) ctx.store.messageHistory.record(before, actor.id, now);
    return ctx.store.messageEdits.write(before.id, fields, now);
  });
  if (change.pin) schedulePinExpiry(ctx);
  return publishMessageEvent(ctx, target.channel, 'message.updated', row, actor.id);
}

/** Whether the fields change what the message history keeps: text, attachments, custom data. */
function changesContent(before: MessageTarget['message'], fields: MessageFields): boolean {
  return (
    (fields.text !== undefined && fields.text !== before.text) ||
    (fields.attachments !== undefined && canonical(fields.attachments) !== canonical(JSON.parse(before.attachments))) ||
    (fields.custom !== undefined && canonical(fields.custom) !== canonical(JSON.parse(before.custom)))
  );
}

/** JSON with object keys sorted: the same data echoed back in another key order is no edit. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

function presentTo(ctx: ServerContext, actor: Actor, row: MessageTarget['message']): MessageResponse {
  const [message] = new Presenter(ctx, actor.id).messages([row]);
  if (!message) throw new Error(`message ${row.id} could not be presented`);
  return message;
}
