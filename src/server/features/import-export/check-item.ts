// An import item's shape, checked before anything is imported (the import's first pass), and the
// readers of its fields that applying it uses. The rules are the provider's (its CLI's
// validator, which it runs on every upload): a channel is named by its id or, a distinct
// channel, by its members; a message's type is regular, reply, system or deleted, and a
// deleted one (only) has deleted_at; a pin has both pinned_at and pinned_by_id; a device names
// its provider. References to other items are checked when the item is applied.
import { ApiError } from '../../http/errors';
import { isObject, type JsonObject } from '../../http/input';
import { distinctChannelId } from '../channels/create-channel';
import { providerName, providerType } from '../push/provider-config';
import { userPatch, validUserId } from '../users/user-fields';
import type { ImportLine } from './import-file';
import type { ItemType } from './import-items';

const KINDS: ReadonlySet<string> = new Set<ItemType>(['user', 'channel', 'member', 'message', 'reaction', 'device']);
const MESSAGE_TYPES = ['regular', 'reply', 'system', 'deleted'];

export const bad = (line: ImportLine, why: string) => ApiError.input(`import item ${line.index + 1} (${line.type}): ${why}`);

export function text(line: ImportLine, field: string, required = true): string | undefined {
  const value = line.item[field];
  if (value === undefined || value === null) {
    if (required) throw bad(line, `${field} is required`);
    return undefined;
  }
  if (typeof value !== 'string' || !value) throw bad(line, `${field} must be a non-empty string`);
  return value;
}

export function date(line: ImportLine, field: string): string | undefined {
  const value = text(line, field, false);
  if (value === undefined) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw bad(line, `${field} must be a date`);
  return new Date(at).toISOString();
}

export function flag(line: ImportLine, field: string): boolean {
  const value = line.item[field];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw bad(line, `${field} must be true or false`);
  return value;
}

function idList(line: ImportLine, field: string): string[] | undefined {
  const value = line.item[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.length || value.some((id) => typeof id !== 'string' || !id)) {
    throw bad(line, `${field} must list user ids`);
  }
  return value as string[];
}

/** Who alone sees a message (`restricted_visibility`), or undefined: everyone (an empty list too). */
export function visibleTo(line: ImportLine): string[] | undefined {
  const value = line.item.restricted_visibility;
  return Array.isArray(value) && !value.length ? undefined : idList(line, 'restricted_visibility');
}

/** The user id of a message's or reaction's `user` (an id or a user object) or `user_id`. */
export function authorOf(line: ImportLine): string {
  const user = line.item.user;
  const id = isObject(user) ? user.id : (user ?? line.item.user_id);
  if (typeof id !== 'string' || !id) throw bad(line, 'user is required');
  return id;
}

/** The channel of a channel item: its id, or the distinct channel of `member_ids`. */
export function channelOfChannel(line: ImportLine): { type: string; id: string } {
  const type = text(line, 'type') as string;
  const id = text(line, 'id', false);
  const members = idList(line, 'member_ids');
  if ((id === undefined) === (members === undefined)) throw bad(line, 'either id or member_ids is required');
  return { type, id: id ?? distinctChannelId(null, members as string[]) };
}

/** The channel a member or message names: cid, channel_type with channel_id or channel_member_ids. */
export function channelOf(line: ImportLine): { type: string; id: string } {
  const cid = text(line, 'cid', false);
  if (cid && !line.item.channel_type) {
    const [type, ...rest] = cid.split(':');
    if (!type || !rest.length) throw bad(line, 'cid must be type:id');
    return { type, id: rest.join(':') };
  }
  const type = text(line, 'channel_type') as string;
  const id = text(line, 'channel_id', false);
  const members = idList(line, 'channel_member_ids');
  if ((id === undefined) === (members === undefined)) throw bad(line, 'either channel_id or channel_member_ids is required');
  return { type, id: id ?? distinctChannelId(null, members as string[]) };
}

/** The message's type as the provider writes it (regular, or reply for a thread reply, when absent). */
export function messageTypeOf(line: ImportLine): string {
  const type = text(line, 'type', false) ?? (line.item.parent_id ? 'reply' : 'regular');
  if (!MESSAGE_TYPES.includes(type)) throw bad(line, `type must be one of ${MESSAGE_TYPES.join(', ')}`);
  return type;
}

/** Throws the item's first fault; every item of a file is checked before any is applied. */
export function checkItem(line: ImportLine): void {
  if (!KINDS.has(line.type)) throw bad(line, `unknown type; expected one of ${[...KINDS].join(', ')}`);
  const { item } = line;
  switch (line.type as ItemType) {
    case 'user':
      try {
        validUserId(item.id, 'id');
        userPatch(item.id as string, item as JsonObject, { allowRole: true });
      } catch (error) {
        throw error instanceof ApiError ? bad(line, error.message) : error;
      }
      date(line, 'deactivated_at');
      date(line, 'deleted_at');
      break;
    case 'channel':
      channelOfChannel(line);
      text(line, 'created_by', !item.created_by_id);
      if (item.name !== undefined && item.name !== null && typeof item.name !== 'string') throw bad(line, 'name must be a string');
      flag(line, 'frozen');
      date(line, 'created_at');
      break;
    case 'member':
      channelOf(line);
      text(line, 'user_id');
      text(line, 'channel_role', false);
      for (const field of ['is_moderator', 'invited', 'hide_channel']) flag(line, field);
      for (const field of ['created_at', 'last_read', 'invite_accepted_at', 'invite_rejected_at', 'hide_messages_before']) date(line, field);
      break;
    case 'message': {
      text(line, 'id');
      channelOf(line);
      authorOf(line);
      if (item.text !== undefined && typeof item.text !== 'string') throw bad(line, 'text must be a string');
      if (item.attachments !== undefined && !Array.isArray(item.attachments)) throw bad(line, 'attachments must be a list');
      text(line, 'parent_id', false);
      text(line, 'quoted_message_id', false);
      visibleTo(line);
      date(line, 'created_at');
      const deleted = date(line, 'deleted_at');
      const type = messageTypeOf(line);
      if ((type === 'deleted') !== (deleted !== undefined)) throw bad(line, 'a message has deleted_at if and only if its type is deleted');
      const pinnedAt = date(line, 'pinned_at');
      const pinnedBy = text(line, 'pinned_by_id', false);
      if ((pinnedAt === undefined) !== (pinnedBy === undefined)) throw bad(line, 'pinned_at and pinned_by_id go together');
      if (date(line, 'pin_expires') && !pinnedAt) throw bad(line, 'pin_expires needs pinned_at and pinned_by_id');
      break;
    }
    case 'reaction':
      text(line, 'message_id');
      authorOf(line);
      text(line, 'type');
      if (item.score !== undefined && (typeof item.score !== 'number' || !Number.isInteger(item.score))) throw bad(line, 'score must be an integer');
      date(line, 'created_at');
      break;
    case 'device':
      text(line, 'id');
      text(line, 'user_id');
      try {
        providerType(item.push_provider_type, 'push_provider_type');
        if (item.push_provider_name !== undefined && item.push_provider_name !== null && item.push_provider_name !== '') {
          providerName(item.push_provider_name, 'push_provider_name');
        }
      } catch (error) {
        throw error instanceof ApiError ? bad(line, error.message) : error;
      }
      flag(line, 'disabled');
      if (!date(line, 'created_at')) throw bad(line, 'created_at is required');
      break;
  }
}
