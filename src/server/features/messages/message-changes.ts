// Turning an update request into stored columns. A full update (`POST /messages/{id}`, the SDK's
// updateMessage) sends back the whole message minus a few reserved keys, so server-owned fields
// in it are ignored; a partial update (`PUT`, `{set, unset}`) names fields explicitly, so naming
// a server-owned one is an input error. Pinning travels in both and is checked separately: it
// needs pin-message, not ownership of the message.
import { channelSettings } from '../../auth/channel-access';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { idList, optionalBoolean, optionalString, withoutKeys, type JsonObject } from '../../http/input';
import { blocklistVerdict, BLOCKED_TEXT } from '../moderation/blocklist-check';
import { NOT_CUSTOM } from './message-fields';
import type { ChannelRow } from '../../store/channels';
import type { MessageFields } from '../../store/message-edits';
import type { MessageRow } from '../../store/messages';
import { restrictedTo } from '../../store/visibility';
import { attachmentList, withUploadDimensions } from '../uploads/attachments';

/** Response-only fields an updateMessage payload may echo back; never stored as custom data. */
const ECHOED = new Set([
  ...NOT_CUSTOM, 'poll', 'reminder', 'shared_location', 'message_text_updated_at', 'deleted_for_me',
  'mentioned_group_ids', 'mentioned_groups', 'mentioned_roles', 'args', 'command_info', 'error',
  'before_message_send_failed', 'hard_delete',
]);
/** Fields a partial update may set besides custom ones. */
const SETTABLE = new Set(['text', 'attachments', 'mentioned_users', 'pinned', 'pinned_at', 'pin_expires']);
const PIN_FIELDS = new Set(['pinned', 'pinned_at', 'pin_expires']);

export type PlannedChange = { fields: MessageFields; content: boolean; pin: boolean };

export function fullUpdate(ctx: ServerContext, channel: ChannelRow, row: MessageRow, input: JsonObject, actorId: string | null): PlannedChange {
  assertSameAudience(row, input.restricted_visibility);
  const fields = contentFields(ctx, channel, row, input);
  fields.custom = withoutKeys(input, ECHOED);
  const pinned = optionalBoolean(input.pinned, 'message.pinned');
  const pin = pinned !== undefined && pinned !== isPinned(row);
  if (pin) Object.assign(fields, pinFields({ pinned }, actorId));
  return { fields, content: true, pin };
}

export function partialUpdate(
  ctx: ServerContext,
  channel: ChannelRow,
  row: MessageRow,
  set: JsonObject,
  unset: string[],
  actorId: string | null,
): PlannedChange {
  for (const key of [...Object.keys(set), ...unset]) {
    if (NOT_CUSTOM.has(key) && !SETTABLE.has(key)) throw ApiError.input(`${key} is a reserved field and cannot be updated`);
  }
  const custom = { ...(JSON.parse(row.custom) as JsonObject), ...withoutKeys(set, NOT_CUSTOM) };
  for (const key of unset) {
    if (SETTABLE.has(key) && !PIN_FIELDS.has(key)) throw ApiError.input(`${key} cannot be unset`);
    delete custom[key];
  }
  const touchesPin = [...Object.keys(set), ...unset].some((key) => PIN_FIELDS.has(key));
  const content = [...Object.keys(set), ...unset].some((key) => !PIN_FIELDS.has(key));
  const fields: MessageFields = content
    ? { ...contentFields(ctx, channel, row, { text: row.text, attachments: JSON.parse(row.attachments), ...set }), custom }
    : {};
  if (touchesPin) {
    const pinned = optionalBoolean(set.pinned, 'set.pinned') ?? (unset.includes('pinned') ? false : isPinned(row));
    Object.assign(fields, pinFields({ ...set, pinned }, actorId, row));
  }
  return { fields, content, pin: touchesPin };
}

/** Who sees a message is settled when it is sent: an update may echo the list, not change it. */
function assertSameAudience(row: MessageRow, given: unknown): void {
  if (given === undefined || given === null) return;
  const listed = [...new Set(idList(given, 'message.restricted_visibility'))].sort();
  const stored = (restrictedTo(row) ?? []).slice().sort();
  if (listed.join('\n') !== stored.join('\n')) throw ApiError.input('restricted_visibility cannot be changed after the message is sent');
}

export function isPinned(row: MessageRow): boolean {
  return row.pinned_at !== null && (row.pin_expires === null || row.pin_expires > new Date().toISOString());
}

function contentFields(ctx: ServerContext, channel: ChannelRow, row: MessageRow, input: JsonObject): MessageFields {
  const text = optionalString(input.text, 'message.text') ?? '';
  const { config } = channelSettings(ctx, channel);
  const maxLength = config.max_message_length ?? 5000;
  if (text.length > maxLength) throw ApiError.input(`message.text is longer than ${maxLength} characters`);
  // An edit cannot bring in a word the type's blocklist would have kept out of a new message.
  const verdict = text !== row.text ? blocklistVerdict(ctx.store, config, text) : undefined;
  if (verdict && verdict.behavior !== 'flag') throw ApiError.input(BLOCKED_TEXT);
  // The same limits and image sizes as a new message (uploads/attachments.ts).
  const attachments = withUploadDimensions(ctx.store, attachmentList(input.attachments, 'message.attachments'));
  const custom = JSON.parse(row.custom) as JsonObject;
  if (!text.trim() && attachments.length === 0 && !custom.poll_id && !input.poll_id) {
    throw ApiError.input('message text or attachments are required');
  }
  const fields: MessageFields = { text, attachments };
  if (input.mentioned_users !== undefined) {
    const mentioned = [...new Set(idList(input.mentioned_users, 'message.mentioned_users'))];
    const known = ctx.store.users.getMany(mentioned);
    fields.mentioned_user_ids = mentioned.filter((id) => known.has(id));
  }
  if (text !== row.text) fields.message_text_updated_at = new Date().toISOString();
  return fields;
}

/** pinned_at null (or absent) means now; pin_expires null means never. */
function pinFields(set: JsonObject, actorId: string | null, row?: MessageRow): MessageFields {
  if (set.pinned === false) return { pinned_at: null, pinned_by_id: null, pin_expires: null };
  const now = new Date().toISOString();
  const pinnedAt = date(set.pinned_at, 'pinned_at') ?? (row && isPinned(row) ? row.pinned_at : null) ?? now;
  const expires = set.pin_expires === undefined && row ? row.pin_expires : date(set.pin_expires, 'pin_expires');
  if (expires && expires <= now) throw ApiError.input('pin_expires must be in the future');
  return { pinned_at: pinnedAt, pinned_by_id: actorId, pin_expires: expires ?? null };
}

function date(value: unknown, name: string): string | null {
  if (value === undefined || value === null) return null;
  const parsed = typeof value === 'string' || typeof value === 'number' ? new Date(value) : new Date(NaN);
  if (Number.isNaN(parsed.getTime())) throw ApiError.input(`${name} must be a date`);
  return parsed.toISOString();
}
