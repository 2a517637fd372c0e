// Who may see and change a poll. Before it is sent, a poll is its creator's alone; once a
// message carries it, whoever can read that channel can see it, and the channel's capabilities
// (`cast-poll-vote`, `query-poll-votes`) decide who votes. Only the creator (or an admin or a
// server-side call) changes or deletes it.
import type { Actor } from '../../auth/actor';
import { accessTo, assertCapability, openTypesFor } from '../../auth/channel-access';
import { allowedInApp } from '../../auth/policy';
import { appSettings } from '../../infra/app-settings';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { placeholders } from '../../store/db';
import type { SqlFragment } from '../../store/filters-to-sql';
import type { PollRow } from '../../store/polls';

export function existingPoll(ctx: ServerContext, id: string): PollRow {
  const row = ctx.store.polls.get(id);
  if (!row) throw ApiError.notFound(`poll ${id} does not exist`);
  return row;
}

/** Its creator may change a poll (update-poll-owner), a moderator of polls any (update-poll). */
export function canManage(ctx: ServerContext, actor: Actor, row: PollRow): boolean {
  return allowedInApp(actor, appSettings(ctx), 'update-poll', row.created_by_id === actor.id);
}

export function assertCanManage(ctx: ServerContext, actor: Actor, row: PollRow, action: string): void {
  if (!canManage(ctx, actor, row)) throw ApiError.notAllowed(`only the creator of poll ${row.id} can ${action} it`);
}

/** Unknown to those who cannot see it: the same 404 as a poll that does not exist. */
export function assertCanSee(ctx: ServerContext, row: PollRow, actor: Actor): void {
  if (canManage(ctx, actor, row)) return;
  const channel = row.cid ? ctx.store.channels.get(row.cid) : undefined;
  if (!channel || !accessTo(ctx, channel, actor).canRead) throw ApiError.notFound(`poll ${row.id} does not exist`);
}

/** Throws unless the poll is sent in a channel where the actor has `capability`. */
export function assertPollCapability(ctx: ServerContext, row: PollRow, actor: Actor, capability: string): void {
  const channel = row.cid ? ctx.store.channels.get(row.cid) : undefined;
  if (!channel) throw ApiError.input(`poll ${row.id} is not sent in a message yet`);
  assertCapability(channel, actor, accessTo(ctx, channel, actor), capability);
}

export function hasPollCapability(ctx: ServerContext, row: PollRow, actor: Actor, capability: string): boolean {
  const channel = row.cid ? ctx.store.channels.get(row.cid) : undefined;
  return channel !== undefined && accessTo(ctx, channel, actor).has(capability);
}

/** The polls an actor may list: their own and those sent in channels they can read. */
export function visiblePolls(ctx: ServerContext, actor: Actor): SqlFragment {
  const openTypes = openTypesFor(ctx, actor);
  if (actor.server || openTypes.length === ctx.store.channelTypes.all().length) return { sql: '1', params: [] };
  const open = placeholders(openTypes.length) || "''";
  return {
    sql: `(p.created_by_id = ? OR p.cid IN (SELECT cid FROM members WHERE user_id = ?)
           OR p.cid IN (SELECT cid FROM channels WHERE type IN (${open})))`,
    params: [actor.id ?? '', actor.id ?? '', ...openTypes],
  };
}
