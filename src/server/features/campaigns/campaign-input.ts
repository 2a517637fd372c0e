// What `createCampaign` and `updateCampaign` may say (stream-chat CampaignData), checked whole:
// an update is merged over the stored campaign and the result checked as a create would be, so
// a campaign is never stored in a state it could not be sent in. Unknown keys are ignored, as
// the SDK's Campaign object sends every field it has, read-only ones included.
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { isObject, optionalBoolean, optionalString, type JsonObject } from '../../http/input';
import { settingsOf, type CampaignFields, type CampaignRow, type CampaignSettings, type ChannelTemplate, type MemberTemplate, type MessageTemplate } from '../../store/campaigns';
import type { SegmentType } from '../../store/segments';
import { campaignTemplate } from './campaign-template';
import { boundedText, resourceId } from './segment-input';

export type CampaignInput = CampaignFields & { parsed: CampaignSettings };

/** The provider sends to at most this many `user_ids` directly; more belong in a segment. */
export const MAX_USER_IDS = 10_000;
const MAX_SEGMENTS = 100;
const MAX_MEMBERS = 100;

/** `POST /campaigns` (no `current`) or `PUT /campaigns/{id}` over the stored campaign. */
export function campaignInput(ctx: ServerContext, body: JsonObject, current?: CampaignRow): CampaignInput {
  const stored = current ? settingsOf(current) : undefined;
  /** The body's value where it gives one, else the stored one (null clears an optional field). */
  const given = <K extends string>(key: K): unknown => (body[key] === undefined ? (stored as Record<string, unknown> | undefined)?.[key] : body[key]);

  const id = current?.id ?? resourceId(body.id, 'id');
  const senderId = optionalString(body.sender_id === undefined ? current?.sender_id : body.sender_id, 'sender_id');
  if (!senderId) throw ApiError.input('sender_id is a required field');
  const sender = ctx.store.users.get(senderId);
  if (!sender || sender.deleted_at) throw ApiError.input(`sender_id: user ${senderId} does not exist`);

  const fields: Omit<CampaignSettings, 'target_type'> = {
    message_template: messageTemplate(given('message_template')),
    segment_ids: idArray(given('segment_ids'), 'segment_ids', MAX_SEGMENTS),
    user_ids: idArray(given('user_ids'), 'user_ids', MAX_USER_IDS),
    sender_mode: choice(given('sender_mode'), 'sender_mode', ['include', 'exclude'] as const),
    sender_visibility: choice(given('sender_visibility'), 'sender_visibility', ['hidden', 'archived'] as const),
    channel_template: channelTemplate(ctx, given('channel_template')),
    create_channels: flag(given('create_channels'), 'create_channels'),
    show_channels: flag(given('show_channels'), 'show_channels'),
    skip_push: flag(given('skip_push'), 'skip_push'),
    skip_webhook: flag(given('skip_webhook'), 'skip_webhook'),
  };
  if (fields.create_channels && !fields.channel_template) {
    throw ApiError.input('channel_template is required when create_channels is true');
  }
  const parsed: CampaignSettings = { ...fields, target_type: targetType(ctx, fields) };
  return {
    id,
    name: boundedText(body.name === undefined ? current?.name : body.name, 'name', 255) ?? '',
    description: boundedText(body.description === undefined ? current?.description : body.description, 'description', 2_000) ?? '',
    sender_id: senderId,
    settings: JSON.stringify(parsed),
    parsed,
  };
}

/** Who it goes to: `user_ids`, or segments all of users or all of channels; never both lists. */
function targetType(ctx: ServerContext, settings: Omit<CampaignSettings, 'target_type'>): SegmentType {
  const { segment_ids: segmentIds, user_ids: userIds } = settings;
  if (segmentIds.length && userIds.length) throw ApiError.input('give segment_ids or user_ids, not both');
  if (!segmentIds.length && !userIds.length) throw ApiError.input('a campaign needs segment_ids or user_ids');
  if (userIds.length) return 'user';
  const types = new Set<SegmentType>();
  for (const segmentId of segmentIds) {
    const segment = ctx.store.segments.get(segmentId);
    if (!segment) throw ApiError.input(`segment_ids: segment ${segmentId} does not exist`);
    types.add(segment.type);
  }
  if (types.size > 1) throw ApiError.input('segment_ids must all be user segments or all channel segments');
  return [...types][0] ?? 'user';
}

function messageTemplate(value: unknown): MessageTemplate {
  if (!isObject(value)) throw ApiError.input('message_template is a required object with a text');
  const text = optionalString(value.text, 'message_template.text');
  if (!text?.trim()) throw ApiError.input('message_template.text is a required field');
  campaignTemplate(text, 'message_template.text');
  if (value.poll_id !== undefined && value.poll_id !== null) {
    // A poll belongs to the one message it was sent in; a copy per receiver is not made here.
    throw ApiError.input('message_template.poll_id is not supported by this backend');
  }
  const template: MessageTemplate = { text };
  if (value.attachments !== undefined && value.attachments !== null) {
    if (!Array.isArray(value.attachments) || !value.attachments.every(isObject)) {
      throw ApiError.input('message_template.attachments must be a list of objects');
    }
    if (value.attachments.length > 10) throw ApiError.input('message_template.attachments: at most 10');
    template.attachments = value.attachments;
  }
  if (value.custom !== undefined && value.custom !== null) {
    if (!isObject(value.custom)) throw ApiError.input('message_template.custom must be an object');
    template.custom = value.custom;
  }
  return template;
}

function channelTemplate(ctx: ServerContext, value: unknown): ChannelTemplate | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) throw ApiError.input('channel_template must be an object');
  const type = optionalString(value.type, 'channel_template.type');
  if (!type) throw ApiError.input('channel_template.type is a required field');
  if (!ctx.store.channelTypes.get(type)) throw ApiError.input(`channel_template.type: channel type "${type}" does not exist`);
  if (value.team !== undefined && value.team !== null) {
    throw ApiError.input('channel_template.team: teams (multi-tenancy) are not supported by this backend');
  }
  const template: ChannelTemplate = { type };
  const id = optionalString(value.id, 'channel_template.id');
  if (id) {
    campaignTemplate(id, 'channel_template.id');
    template.id = id;
  }
  if (value.custom !== undefined && value.custom !== null) {
    if (!isObject(value.custom)) throw ApiError.input('channel_template.custom must be an object');
    template.custom = value.custom;
  }
  const members = idArray(value.members, 'channel_template.members', MAX_MEMBERS);
  const missing = members.filter((userId) => !ctx.store.users.get(userId));
  if (missing.length) throw ApiError.input(`channel_template.members: no users ${missing.join(', ')}`);
  if (members.length) template.members = members;
  const membersTemplate = memberTemplates(ctx, value.members_template);
  if (membersTemplate.length) template.members_template = membersTemplate;
  return template;
}

function memberTemplates(ctx: ServerContext, value: unknown): MemberTemplate[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_MEMBERS) {
    throw ApiError.input(`channel_template.members_template must be a list of at most ${MAX_MEMBERS} members`);
  }
  const roles = ['channel_member', 'channel_moderator', ...ctx.store.accessControl.roles().map((role) => role.name)];
  return value.map((item, index) => {
    const name = `channel_template.members_template[${index}]`;
    if (!isObject(item)) throw ApiError.input(`${name} must be {user_id, channel_role}`);
    const userId = optionalString(item.user_id, `${name}.user_id`);
    if (!userId) throw ApiError.input(`${name}.user_id is a required field`);
    campaignTemplate(userId, `${name}.user_id`);
    if (item.custom !== undefined && item.custom !== null) {
      throw ApiError.input(`${name}.custom: custom member data is not supported by this backend`);
    }
    const role = optionalString(item.channel_role, `${name}.channel_role`);
    if (role && !roles.includes(role)) throw ApiError.input(`${name}.channel_role "${role}" does not exist`);
    return { user_id: userId, ...(role ? { channel_role: role } : {}) };
  });
}

function idArray(value: unknown, name: string, max: number): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((id): id is string => typeof id === 'string' && id !== '' && id.length <= 255)) {
    throw ApiError.input(`${name} must be a list of ids`);
  }
  if (value.length > max) throw ApiError.input(`${name}: at most ${max}`);
  return [...new Set(value)];
}

function choice<T extends string>(value: unknown, name: string, allowed: readonly T[]): T | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || !allowed.includes(value as T)) throw ApiError.input(`${name} must be one of ${allowed.join(', ')} or null`);
  return value as T;
}

function flag(value: unknown, name: string): boolean {
  return optionalBoolean(value, name) ?? false;
}
