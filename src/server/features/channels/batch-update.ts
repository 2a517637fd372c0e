// Many channels at once (`PUT /channels/batch`, the server-side SDK's ChannelBatchUpdater):
// one operation over the channels a filter selects (`cids`, `types`, `filter_tags`, each a
// list, `$in` or `$eq`). The request is checked whole before anything changes; the changes run
// as a task, channel by channel, through the same functions as the one-channel calls, so each
// channel's events, webhooks and push are theirs.
import type { Actor } from '../../auth/actor';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { isObject, type JsonObject } from '../../http/input';
import { notifyChannelUpdated } from '../../events/channel-events';
import { notifyMemberUpdated } from '../../events/member-events';
import type { ChannelRow } from '../../store/channels';
import type { TaskWork } from '../../infra/run-task';
import { hideChannel, showChannel } from './channel-lifecycle';
import { channelDataChange } from './channel-data';
import { configOverrides } from './config-overrides';
import { updateChannel } from './update-channel';

/** Channels one batch may change: a filter that selects more is refused, not cut short. */
export const MAX_BATCH_CHANNELS = 10_000;

const OPERATIONS = [
  'addMembers', 'removeMembers', 'inviteMembers', 'assignRoles', 'addModerators', 'demoteModerators',
  'hide', 'show', 'archive', 'unarchive', 'updateData',
] as const;
type Operation = (typeof OPERATIONS)[number];

/** What `updateData` may change besides `custom` (the SDK's BatchChannelDataUpdate). */
const DATA_FIELDS = new Set(['frozen', 'disabled', 'custom', 'config_overrides']);

export type BatchPlan = { operation: Operation; rows: ChannelRow[]; apply: (row: ChannelRow) => void };

/** Checks the request and selects its channels; `apply` makes the change to one of them. */
export function planBatch(ctx: ServerContext, actor: Actor, body: JsonObject): BatchPlan {
  const operation = body.operation;
  if (typeof operation !== 'string' || !(OPERATIONS as readonly string[]).includes(operation)) {
    throw ApiError.input(`operation must be one of ${OPERATIONS.join(', ')}`);
  }
  const op = operation as Operation;
  const rows = selected(ctx, body.filter);
  if (!rows.length) throw ApiError.input('the filter selects no channels');
  const members = memberEntries(body.members);
  const memberIds = members.map((member) => member.user_id);
  // hide, show, archive and unarchive mark memberships: the members named, else every member
  // (the JS SDK's updater names none); the member operations need their members.
  const marks = op === 'hide' || op === 'show' || op === 'archive' || op === 'unarchive';
  if (op !== 'updateData' && !marks && !members.length) throw ApiError.input(`${op} needs members: a list of user ids or {user_id}`);
  if (op === 'updateData' && body.members !== undefined) throw ApiError.input('updateData takes data, custom_set and custom_unset, not members');
  const marked = (row: ChannelRow) => (memberIds.length ? memberIds : ctx.store.channels.memberIds(row.cid));
  const unknown = memberIds.filter((id) => !ctx.store.users.get(id));
  if (unknown.length) throw ApiError.input(`The following users don't exist: [${[...new Set(unknown)].join(', ')}]`);

  // A one-channel update body for the member operations (features/channels/update-channel.ts).
  const updates: Partial<Record<Operation, JsonObject>> = {
    addMembers: { add_members: members },
    removeMembers: { remove_members: memberIds },
    inviteMembers: { invites: memberIds },
    assignRoles: { assign_roles: members },
    addModerators: { add_moderators: memberIds },
    demoteModerators: { demote_moderators: memberIds },
  };
  const update = updates[op];
  if (update) return { operation: op, rows, apply: (row) => void updateChannel(ctx, row, actor, update) };

  if (op === 'hide' || op === 'show') {
    return {
      operation: op,
      rows,
      apply: (row) => {
        for (const id of marked(row)) {
          if (!ctx.store.channels.member(row.cid, id)) continue; // not everyone is in every channel
          const member = { ...actor, id, server: true };
          if (op === 'hide') hideChannel(ctx, row, member, false);
          else showChannel(ctx, row, member);
        }
      },
    };
  }
  if (op === 'archive' || op === 'unarchive') {
    return {
      operation: op,
      rows,
      apply: (row) => {
        const now = new Date().toISOString();
        for (const id of marked(row)) {
          const member = ctx.store.memberships.mark(row.cid, id, { archivedAt: op === 'archive' ? now : null }, now);
          if (member) notifyMemberUpdated(ctx, row, member);
        }
      },
    };
  }
  return { operation: op, rows, apply: dataUpdate(ctx, actor, body) };
}

/** `updateData`: `data` (frozen, disabled, custom as a whole, config_overrides), `custom_set`, `custom_unset`. */
function dataUpdate(ctx: ServerContext, actor: Actor, body: JsonObject): (row: ChannelRow) => void {
  const data = body.data === undefined ? {} : body.data;
  if (!isObject(data)) throw ApiError.input('data must be an object');
  for (const key of Object.keys(data)) {
    if (!DATA_FIELDS.has(key)) throw ApiError.input(`data.${key} cannot be changed by a batch: only ${[...DATA_FIELDS].join(', ')}`);
  }
  const customSet = body.custom_set === undefined ? {} : body.custom_set;
  if (!isObject(customSet)) throw ApiError.input('custom_set must be an object');
  const customUnset = body.custom_unset === undefined ? [] : body.custom_unset;
  if (!Array.isArray(customUnset) || customUnset.some((key) => typeof key !== 'string')) throw ApiError.input('custom_unset must be a list of keys');
  if (data.custom !== undefined && (Object.keys(customSet).length || customUnset.length)) {
    throw ApiError.input('data.custom replaces the custom data: it cannot be combined with custom_set or custom_unset');
  }
  if (data.custom !== undefined && !isObject(data.custom)) throw ApiError.input('data.custom must be an object');
  for (const flag of ['frozen', 'disabled'] as const) {
    if (data[flag] !== undefined && typeof data[flag] !== 'boolean') throw ApiError.input(`data.${flag} must be a boolean`);
  }
  const overrides = data.config_overrides === undefined ? undefined : configOverrides(ctx, data.config_overrides);
  if (!Object.keys(data).length && !Object.keys(customSet).length && !customUnset.length) {
    throw ApiError.input('updateData changes nothing: give data, custom_set or custom_unset');
  }
  // Checked again for each channel: custom_set may name config_overrides too.
  const check = actor.server ? (value: unknown) => configOverrides(ctx, value) : undefined;

  return (row) => {
    const current = JSON.parse(row.custom) as Record<string, unknown>;
    // Dot paths (`a.b`) reach into an object the channel already has.
    const set: JsonObject = {};
    const custom = isObject(data.custom) ? data.custom : undefined;
    // data.custom replaces the custom data as a whole (the filter tags and overrides stay).
    const dropped = custom ? Object.keys(current).filter((key) => !(key in custom) && key !== 'filter_tags' && key !== 'config_overrides') : (customUnset as string[]);
    for (const [path, value] of Object.entries(custom ?? customSet)) setPath(current, set, path, value);
    const unset: string[] = [];
    for (const path of dropped) unsetPath(current, set, unset, path);
    if (data.frozen !== undefined) set.frozen = data.frozen;
    if (data.disabled !== undefined) set.disabled = data.disabled;
    if (overrides) set.config_overrides = overrides;
    const change = channelDataChange(row, { set, unset }, check);
    const updated = ctx.store.channelAdmin.setData(row.cid, change.data, new Date().toISOString()) ?? row;
    notifyChannelUpdated(ctx, updated, actor.id);
  };
}

function setPath(current: Record<string, unknown>, set: JsonObject, path: string, value: unknown) {
  const [top, ...rest] = path.split('.');
  if (!top) throw ApiError.input(`custom_set key "${path}" is empty`);
  if (!rest.length) {
    set[top] = value;
    return;
  }
  const base = isObject(set[top]) ? (set[top] as Record<string, unknown>) : current[top];
  if (!isObject(base)) throw ApiError.input(`custom_set "${path}": the channel has no object "${top}"`);
  const copy = structuredClone(base) as Record<string, unknown>;
  let node = copy;
  for (const key of rest.slice(0, -1)) {
    if (!isObject(node[key])) throw ApiError.input(`custom_set "${path}": the channel has no object "${key}"`);
    node = node[key] as Record<string, unknown>;
  }
  node[rest.at(-1)!] = value;
  set[top] = copy;
}

function unsetPath(current: Record<string, unknown>, set: JsonObject, unset: string[], path: string) {
  const [top, ...rest] = path.split('.');
  if (!top) return;
  if (!rest.length) {
    if (top in current) unset.push(top);
    return;
  }
  const base = isObject(set[top]) ? (set[top] as Record<string, unknown>) : current[top];
  if (!isObject(base)) return; // deleting what is not there changes nothing
  const copy = structuredClone(base) as Record<string, unknown>;
  let node: Record<string, unknown> | undefined = copy;
  for (const key of rest.slice(0, -1)) node = isObject(node?.[key]) ? (node![key] as Record<string, unknown>) : undefined;
  if (node) delete node[rest.at(-1)!];
  set[top] = copy;
}

type Member = { user_id: string; channel_role?: string };

/** `members`: user ids, or `{user_id, channel_role?}` (NewMemberPayload). */
function memberEntries(value: unknown): Member[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw ApiError.input('members must be a list of user ids or {user_id}');
  return value.map((entry) => {
    if (typeof entry === 'string' && entry) return { user_id: entry };
    if (isObject(entry) && typeof entry.user_id === 'string' && entry.user_id) {
      if (entry.channel_role !== undefined && typeof entry.channel_role !== 'string') throw ApiError.input('members[].channel_role must be a string');
      return { user_id: entry.user_id, ...(entry.channel_role ? { channel_role: entry.channel_role } : {}) };
    }
    throw ApiError.input('members must be a list of user ids or {user_id}');
  });
}

/** The values a filter field names: a list, `$in` or `$eq`. */
function values(field: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const list = Array.isArray(value) ? value : isObject(value) ? ('$in' in value ? value.$in : '$eq' in value ? [value.$eq] : undefined) : typeof value === 'string' ? [value] : undefined;
  if (!Array.isArray(list) || !list.length || list.some((item) => typeof item !== 'string')) {
    throw ApiError.input(`filter.${field} must be a list of strings, {$in: [...]} or {$eq: ...}`);
  }
  return list as string[];
}

/** The live channels the filter selects, in cid order. */
function selected(ctx: ServerContext, filter: unknown): ChannelRow[] {
  if (!isObject(filter)) throw ApiError.input('filter is required: cids, types or filter_tags');
  const known = new Set(['cids', 'types', 'filter_tags']);
  const other = Object.keys(filter).filter((key) => !known.has(key));
  if (other.length) throw ApiError.input(`filter.${other[0]} is not supported: filter by cids, types or filter_tags`);
  const cids = values('cids', filter.cids);
  const types = values('types', filter.types);
  const tags = values('filter_tags', filter.filter_tags);
  if (!cids && !types && !tags) throw ApiError.input('filter is required: cids, types or filter_tags');
  const rows = ctx.store.channels.selectForBatch({ cids, types, tags }, MAX_BATCH_CHANNELS + 1);
  if (rows.length > MAX_BATCH_CHANNELS) throw ApiError.input(`the filter selects more than ${MAX_BATCH_CHANNELS} channels`);
  return rows;
}

/**
 * The task's work: each channel in turn, a failure noted for its channel, the others go on. Each
 * channel is read again when its turn comes: the task pauses between channels, and what others
 * changed meanwhile (a rename, a freeze) must not be written back from the request's copy.
 */
export function batchWork(ctx: ServerContext, plan: BatchPlan): TaskWork {
  return async (breathe) => {
    const result: Record<string, string> = {};
    let failed = 0;
    for (const { cid } of plan.rows) {
      try {
        const row = ctx.store.channels.get(cid);
        if (!row || row.deleted_at) throw ApiError.notFound(`channel ${cid} was deleted meanwhile`);
        plan.apply(row);
        result[cid] = 'ok';
      } catch (error) {
        failed += 1;
        result[cid] = error instanceof ApiError ? `failed: ${error.message}` : 'failed';
      }
      await breathe();
    }
    return { operation: plan.operation, channels: plan.rows.length, failed, result };
  };
}
