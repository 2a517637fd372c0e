// Deleting and truncating channels, and each member hiding one for themselves.
// - Delete: soft keeps the rows (the channel is gone from every query, and created again it
//   starts empty); hard removes the channel and everything in it. Many at once
//   (`POST /channels/delete`) run as a task whose result has each channel's outcome under its
//   cid, as the provider's does: `{status: 'ok'}` or `{status: 'error', error}`.
// - Truncate: every message up to `truncated_at` (default now) disappears for everyone; hard
//   removes them from storage, soft only hides them. Nobody has anything unread afterwards.
// - Hide: the channel leaves the member's list until they show it or a new message arrives;
//   with clear_history, what came before stays gone for them.
import type { MessageResponse } from 'stream-chat';
import { requireUser, type Actor } from '../../auth/actor';
import { accessTo, assertCanRead, assertCapability } from '../../auth/channel-access';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { isObject, optionalBoolean, optionalString, type JsonObject } from '../../http/input';
import { notifyChannelDeleted, notifyChannelHidden, notifyChannelTruncated, notifyChannelVisible } from '../../events/channel-events';
import { itemOutcome, startTask, type ItemOutcome } from '../../infra/run-task';
import type { ChannelRow } from '../../store/channels';
import { sendMessage } from '../messages/send-message';

export function assertMayDelete(ctx: ServerContext, row: ChannelRow, actor: Actor): void {
  const access = accessTo(ctx, row, actor);
  assertCanRead(row, actor, access);
  assertCapability(row, actor, access, 'delete-channel');
}

/** Deletes a channel the caller already checked; returns the channel as it was. */
export function deleteChannel(ctx: ServerContext, row: ChannelRow, hard: boolean, actorId: string | null): ChannelRow {
  const memberIds = ctx.store.channels.memberIds(row.cid);
  const now = new Date().toISOString();
  if (hard) ctx.store.channelAdmin.hardDelete(row.cid);
  else ctx.store.channelAdmin.softDelete(row.cid, now);
  const deleted: ChannelRow = { ...row, deleted_at: now, updated_at: now };
  notifyChannelDeleted(ctx, deleted, memberIds, actorId);
  return deleted;
}

/** Deletes channels the caller already checked, as a task; returns its id. */
export function startChannelDeletion(ctx: ServerContext, rows: ChannelRow[], hard: boolean, actorId: string | null): string {
  return startTask(ctx, 'delete-channels', async (breathe) => {
    const result: Record<string, ItemOutcome> = {};
    for (const { cid } of rows) {
      result[cid] = await itemOutcome(ctx, `deleting channel ${cid}`, () => {
        // As stored now: one deleted meanwhile is deleted all the same.
        const current = ctx.store.channels.get(cid);
        if (current && !current.deleted_at) deleteChannel(ctx, current, hard, actorId);
      });
      await breathe();
    }
    return result;
  });
}

export function truncateChannel(
  ctx: ServerContext,
  row: ChannelRow,
  actor: Actor,
  body: JsonObject,
): { channel: ChannelRow; message?: MessageResponse } {
  const access = accessTo(ctx, row, actor);
  assertCanRead(row, actor, access);
  assertCapability(row, actor, access, 'truncate-channel');
  const hard = optionalBoolean(body.hard_delete, 'hard_delete') ?? false;
  const now = new Date().toISOString();
  const given = optionalString(body.truncated_at, 'truncated_at');
  if (given !== undefined && Number.isNaN(Date.parse(given))) throw ApiError.input('truncated_at must be a date');
  const at = given ? new Date(given).toISOString() : now;
  if (at > now) throw ApiError.input('truncated_at cannot be in the future');
  if (body.message !== undefined && body.message !== null && !isObject(body.message)) throw ApiError.input('message must be an object');
  const sender = isObject(body.message) ? requireUser(actor, 'send the truncation message') : undefined;
  ctx.store.transaction(() => ctx.store.channelAdmin.truncate(row.cid, at, hard, now));
  notifyChannelTruncated(ctx, ctx.store.channels.get(row.cid) ?? row, actor.id);
  // Messages at or before `at` are gone: the accompanying one needs a later millisecond (a
  // clock stepping back must not hang the server, hence the bound).
  for (const started = Date.now(); new Date().toISOString() <= at && Date.now() - started < 5; ) {
    // at most a millisecond or two
  }
  // The accompanying message comes after the cut, so it is the first thing left in the channel.
  const message = sender && isObject(body.message) ? sendMessage(ctx, row, sender, body.message) : undefined;
  return { channel: ctx.store.channels.get(row.cid) ?? row, ...(message ? { message } : {}) };
}

export function hideChannel(ctx: ServerContext, row: ChannelRow, actor: Actor, clearHistory: boolean): void {
  const user = requireUser(actor, 'hide channels');
  if (!ctx.store.channelAdmin.hide(row.cid, user.id, clearHistory, new Date().toISOString())) {
    throw ApiError.input(`${user.id} is not a member of ${row.cid} and cannot hide it`);
  }
  notifyChannelHidden(ctx, row, user.id, clearHistory);
}

export function showChannel(ctx: ServerContext, row: ChannelRow, actor: Actor): void {
  const user = requireUser(actor, 'show channels');
  if (!ctx.store.channels.member(row.cid, user.id)) throw ApiError.input(`${user.id} is not a member of ${row.cid}`);
  if (ctx.store.channelAdmin.show(row.cid, user.id, new Date().toISOString())) notifyChannelVisible(ctx, row, [user.id]);
}

