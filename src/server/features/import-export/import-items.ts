// The provider's import items, built from stored rows: what every export writes, so that a file
// exported here imports as it is into this backend or into Stream's hosted chat. The fields are
// those of the provider's import format (the "Importing Data" page of its chat documentation,
// and the validator of its CLI, stream-cli, which it runs on every upload):
// - user {id, role, name, image, created_at, updated_at, deactivated_at, deleted_at, …custom}
// - channel {type, id (or member_ids for a distinct channel), created_by, name, frozen,
//   created_at, updated_at, …custom}
// - member {channel_type, channel_id (or channel_member_ids), user_id, channel_role,
//   is_moderator, invited, invite_accepted_at, invite_rejected_at, hide_channel,
//   hide_messages_before, last_read, created_at}
// - message {id, channel_type, channel_id (or channel_member_ids), user, type (regular, reply,
//   system, or deleted with deleted_at), text, parent_id, show_in_channel, quoted_message_id,
//   mentioned_users_ids, attachments (each with a type), pinned_at, pinned_by_id, pin_expires,
//   restricted_visibility, created_at, updated_at, deleted_at, …custom}
// - reaction {message_id, user_id, type, score, created_at, updated_at, …custom}
// - device {id, user_id, push_provider_type, push_provider_name, disabled, disabled_reason,
//   created_at}
// The provider refuses an item whose custom data uses one of its reserved names, so those are
// left out of what custom data is copied.
import { withoutKeys, type JsonObject } from '../../http/input';
import type { ChannelRow, MemberRow } from '../../store/channels';
import type { DeviceRow } from '../../store/devices';
import type { MessageRow } from '../../store/messages';
import type { ReactionRow } from '../../store/reactions';
import type { ReadRow } from '../../store/reads';
import type { UserRow } from '../../store/users';

export type ItemType = 'user' | 'channel' | 'member' | 'message' | 'reaction' | 'device';
export type ImportItem = { type: ItemType; item: JsonObject };

/** How members and messages name their channel: by id, or a distinct channel by its members. */
export type ChannelRef =
  | { channel_type: string; channel_id: string }
  | { channel_type: string; channel_member_ids: string[] };

const USER_RESERVED = new Set(['app_pk', 'online', 'pk', 'user_pk', 'last_active']);
const CHANNEL_RESERVED = new Set(['last_message_at', 'cid', 'created_by_pk', 'members', 'config', 'app_pk', 'pk']);
const MESSAGE_RESERVED = new Set([
  'tmp_id', 'app_pk', 'latest_reactions', 'own_reactions', 'reactions_count', 'reply_count', 'command', 'pk',
  'quoted_message', 'pinned_by',
]);
const ATTACHMENT_RESERVED = new Set(['actions', 'fields']);
const REACTION_RESERVED = new Set(['app_pk', 'pk', 'user', 'user_pk']);

/** Custom data as stored, without `reserved` names nor the item's own fields (which win). */
function customOf(json: string, reserved: ReadonlySet<string>): JsonObject {
  return withoutKeys(JSON.parse(json) as JsonObject, reserved);
}

export function userItem(row: UserRow): ImportItem {
  return {
    type: 'user',
    item: {
      ...customOf(row.custom, USER_RESERVED),
      id: row.id,
      role: row.role,
      ...(row.name !== null ? { name: row.name } : {}),
      ...(row.image !== null ? { image: row.image } : {}),
      created_at: row.created_at,
      updated_at: row.updated_at,
      ...(row.deactivated_at ? { deactivated_at: row.deactivated_at } : {}),
      ...(row.deleted_at ? { deleted_at: row.deleted_at } : {}),
    },
  };
}

/** The channel's reference for its members and messages. */
export function channelRef(channel: ChannelRow, distinctMembers?: string[]): ChannelRef {
  return distinctMembers
    ? { channel_type: channel.type, channel_member_ids: distinctMembers }
    : { channel_type: channel.type, channel_id: channel.id };
}

export function channelItem(channel: ChannelRow, createdBy: string, ref: ChannelRef): ImportItem {
  return {
    type: 'channel',
    item: {
      ...customOf(channel.custom, CHANNEL_RESERVED),
      type: channel.type,
      ...('channel_id' in ref ? { id: ref.channel_id } : { member_ids: ref.channel_member_ids }),
      created_by: createdBy,
      ...(channel.name !== null ? { name: channel.name } : {}),
      ...(channel.frozen ? { frozen: true } : {}),
      created_at: channel.created_at,
      updated_at: channel.updated_at,
    },
  };
}

export function memberItem(ref: ChannelRef, member: MemberRow, read: ReadRow | undefined): ImportItem {
  return {
    type: 'member',
    item: {
      ...ref,
      user_id: member.user_id,
      channel_role: member.channel_role,
      ...(member.channel_role === 'channel_moderator' ? { is_moderator: true } : {}),
      ...(member.invited ? { invited: true } : {}),
      ...(member.invite_accepted_at ? { invite_accepted_at: member.invite_accepted_at } : {}),
      ...(member.invite_rejected_at ? { invite_rejected_at: member.invite_rejected_at } : {}),
      ...(member.hidden ? { hide_channel: true } : {}),
      ...(member.history_cleared_at ? { hide_messages_before: member.history_cleared_at } : {}),
      ...(read ? { last_read: read.last_read } : {}),
      created_at: member.created_at,
    },
  };
}

/** The provider's message types: a deleted message is `deleted` (and has deleted_at), whatever it was. */
function messageType(row: MessageRow): string {
  if (row.deleted_at) return 'deleted';
  if (row.type === 'system') return 'system';
  return row.parent_id ? 'reply' : 'regular';
}

/**
 * Attachments as the provider takes them: each has a type (a link preview, stored without one,
 * is a `link`) and none of its reserved fields (a giphy's actions are for the sender's preview).
 */
function attachmentsOf(json: string): JsonObject[] {
  return (JSON.parse(json) as JsonObject[]).map((attachment) => {
    const kept = withoutKeys(attachment, ATTACHMENT_RESERVED);
    if (typeof kept.type === 'string' && kept.type) return kept;
    return { ...kept, type: kept.og_scrape_url || kept.title_link ? 'link' : 'file' };
  });
}

export type MessageOptions = {
  clearDeletedText: boolean;
  /** Whether a user exists: mentions of users gone since are left out (the provider checks each). */
  userExists: (id: string) => boolean;
};

export function messageItem(row: MessageRow, ref: ChannelRef, options: MessageOptions): ImportItem {
  const mentioned = (JSON.parse(row.mentioned_user_ids) as string[]).filter(options.userExists);
  return {
    type: 'message',
    item: {
      ...customOf(row.custom, MESSAGE_RESERVED),
      id: row.id,
      ...ref,
      user: row.user_id,
      type: messageType(row),
      text: row.deleted_at && options.clearDeletedText ? '' : row.text,
      ...(row.parent_id ? { parent_id: row.parent_id, show_in_channel: row.show_in_channel === 1 } : {}),
      ...(row.quoted_message_id ? { quoted_message_id: row.quoted_message_id } : {}),
      mentioned_users_ids: mentioned,
      attachments: attachmentsOf(row.attachments),
      ...(row.pinned_at && row.pinned_by_id
        ? { pinned_at: row.pinned_at, pinned_by_id: row.pinned_by_id, ...(row.pin_expires ? { pin_expires: row.pin_expires } : {}) }
        : {}),
      created_at: row.created_at,
      updated_at: row.updated_at,
      ...(row.deleted_at ? { deleted_at: row.deleted_at } : {}),
      // A message only some members see stays so.
      ...(row.restricted_visibility ? { restricted_visibility: JSON.parse(row.restricted_visibility) as string[] } : {}),
    },
  };
}

export function reactionItem(row: ReactionRow): ImportItem {
  return {
    type: 'reaction',
    item: {
      ...customOf(row.custom, REACTION_RESERVED),
      message_id: row.message_id,
      user_id: row.user_id,
      type: row.type,
      score: row.score,
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
  };
}

export function deviceItem(row: DeviceRow): ImportItem {
  return {
    type: 'device',
    item: {
      id: row.id,
      user_id: row.user_id,
      push_provider_type: row.push_provider,
      ...(row.push_provider_name ? { push_provider_name: row.push_provider_name } : {}),
      disabled: row.disabled_reason !== null,
      ...(row.disabled_reason ? { disabled_reason: row.disabled_reason } : {}),
      created_at: row.created_at,
    },
  };
}
