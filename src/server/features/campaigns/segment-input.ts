// What `createSegment`, `updateSegment` and the target calls may say. A segment either lists its
// targets (`addSegmentTargets`) or selects them (`filter`, `all_users` for users,
// `all_sender_channels` for channels), not both: a target listed in a segment that selects by
// filter would be sent to or not depending on a rule nobody wrote down.
import { randomUUID } from 'node:crypto';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { isObject, optionalBoolean, optionalString, type JsonObject } from '../../http/input';
import type { NewSegment, SegmentChanges, SegmentRow, SegmentType } from '../../store/segments';
import { selectedTargets } from '../../store/segment-targets';

/** Ids of segments and campaigns: what fits in a URL path segment unescaped. */
const RESOURCE_ID = /^[A-Za-z0-9_.@-]{1,255}$/;
/** Target ids one add or delete call may carry (the provider's SDKs send them in batches). */
export const MAX_TARGETS_PER_CALL = 10_000;
const MAX_TARGET_ID = 255;
const CID = /^[A-Za-z0-9_-]{1,64}:[A-Za-z0-9_!-]{1,64}$/;
const MAX_NAME = 255;
const MAX_DESCRIPTION = 2_000;

/** A segment's or campaign's id as given, or a new one when none is. */
export function resourceId(value: unknown, name: string): string {
  const id = optionalString(value, name);
  if (id === undefined || id === '') return randomUUID();
  if (!RESOURCE_ID.test(id)) throw ApiError.input(`${name} may hold only letters, digits and "_.@-" (at most 255)`);
  return id;
}

export function boundedText(value: unknown, name: string, max: number): string | undefined {
  const text = optionalString(value, name);
  if (text !== undefined && text.length > max) throw ApiError.input(`${name} is longer than ${max} characters`);
  return text;
}

function segmentType(value: unknown): SegmentType {
  if (value !== 'user' && value !== 'channel') throw ApiError.input('type must be "user" or "channel"');
  return value;
}

/** The filter as stored, checked by running it once against what it filters. */
function checkedFilter(ctx: ServerContext, type: SegmentType, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) throw ApiError.input('filter must be an object');
  if (Object.keys(value).length === 0) return null;
  // The query throws the input error (code 4) a bad field, operator or value deserves.
  selectedTargets(ctx, { type, filter: JSON.stringify(value), all_users: 0, all_sender_channels: 0 }, null, 1).next();
  return JSON.stringify(value);
}

/** `POST /segments`: the SDK sends `{id, type, name, filter, description, all_users, all_sender_channels}`. */
export function newSegment(ctx: ServerContext, body: JsonObject): NewSegment {
  const type = segmentType(body.type);
  const allUsers = optionalBoolean(body.all_users, 'all_users') ?? false;
  const allSenderChannels = optionalBoolean(body.all_sender_channels, 'all_sender_channels') ?? false;
  if (allUsers && type !== 'user') throw ApiError.input('all_users is for user segments');
  if (allSenderChannels && type !== 'channel') throw ApiError.input('all_sender_channels is for channel segments');
  const filter = checkedFilter(ctx, type, body.filter);
  if (filter && (allUsers || allSenderChannels)) {
    throw ApiError.input('a segment selects by filter, all_users or all_sender_channels: give one of them');
  }
  return {
    id: resourceId(body.id, 'id'),
    type,
    name: boundedText(body.name, 'name', MAX_NAME) ?? '',
    description: boundedText(body.description, 'description', MAX_DESCRIPTION) ?? '',
    filter,
    all_users: allUsers ? 1 : 0,
    all_sender_channels: allSenderChannels ? 1 : 0,
  };
}

/** `PUT /segments/{id}`: name, description and filter; what is not given stays. */
export function segmentChanges(ctx: ServerContext, row: SegmentRow, body: JsonObject): SegmentChanges {
  const filter = body.filter === undefined ? row.filter : checkedFilter(ctx, row.type, body.filter);
  if (filter && !row.filter && ctx.store.segments.targetCount(row.id) > 0) {
    throw ApiError.input(`segment ${row.id} lists its targets; delete them before giving it a filter`);
  }
  if (filter && (row.all_users || row.all_sender_channels)) {
    throw ApiError.input(`segment ${row.id} selects ${row.all_users ? 'all users' : "all the sender's channels"}; it takes no filter`);
  }
  return {
    name: boundedText(body.name, 'name', MAX_NAME) ?? row.name,
    description: boundedText(body.description, 'description', MAX_DESCRIPTION) ?? row.description,
    filter,
  };
}

/** `target_ids` of the add and delete calls: user ids, or cids (`type:id`) for channel segments. */
export function targetIds(row: SegmentRow, value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) throw ApiError.input('target_ids must be a non-empty list of ids');
  if (value.length > MAX_TARGETS_PER_CALL) throw ApiError.input(`at most ${MAX_TARGETS_PER_CALL} target_ids per call`);
  for (const id of value) {
    if (typeof id !== 'string' || !id || id.length > MAX_TARGET_ID) {
      throw ApiError.input(`target_ids must be ids of 1 to ${MAX_TARGET_ID} characters`);
    }
    if (row.type === 'channel' && !CID.test(id)) throw ApiError.input(`"${id}" is not a channel cid (type:id)`);
  }
  return [...new Set(value as string[])];
}

/** Only a segment that selects nothing by rule takes listed targets. */
export function assertListsTargets(row: SegmentRow): void {
  if (row.filter || row.all_users || row.all_sender_channels) {
    const rule = row.filter ? 'its filter' : row.all_users ? 'all_users' : 'all_sender_channels';
    throw ApiError.input(`segment ${row.id} selects its targets by ${rule}; targets can only be listed in a segment without one`);
  }
}
