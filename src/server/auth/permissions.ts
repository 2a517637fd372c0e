// The permission catalogue (`GET /permissions`), the built-in roles (`GET /roles`) and how the
// capabilities the SDK reads (`channel.own_capabilities`) follow from permissions. Ids are the
// provider's permission-system-v2 ids; an `-owner` id applies to what the actor owns (their own
// message, a channel they created).
import type { ChannelConfigWithInfo, PermissionAPIObject } from 'stream-chat';

export type Level = 'channel' | 'app';
type Entry = { id: string; name: string; description: string; level: Level; owner?: boolean };

const entry = (id: string, name: string, description: string, level: Level = 'channel'): Entry => ({
  id,
  name,
  description,
  level,
  ...(id.endsWith('-owner') ? { owner: true } : {}),
});

export const BUILTIN_PERMISSIONS: Entry[] = [
  entry('read-channel', 'Read Channel', 'Read a channel and its messages, and receive its events'),
  entry('read-channel-members', 'Read Channel Members', 'List the members of a channel'),
  entry('create-channel', 'Create Channel', 'Create a channel'),
  entry('update-channel', 'Update Any Channel', "Change any channel's data"),
  entry('update-channel-owner', 'Update Own Channel', "Change the data of a channel one created"),
  entry('update-channel-members', 'Update Members Any Channel', 'Add, remove and invite members of any channel'),
  entry('update-channel-members-owner', 'Update Members Own Channel', 'Add, remove and invite members of a channel one created'),
  entry('update-channel-frozen', 'Freeze Channel', 'Freeze and unfreeze a channel'),
  entry('update-channel-cooldown', 'Set Channel Cooldown', "Set a channel's slow mode"),
  entry('delete-channel', 'Delete Any Channel', 'Delete any channel'),
  entry('delete-channel-owner', 'Delete Own Channel', 'Delete a channel one created'),
  entry('truncate-channel', 'Truncate Any Channel', "Remove every message of any channel"),
  entry('truncate-channel-owner', 'Truncate Own Channel', 'Remove every message of a channel one created'),
  entry('remove-own-channel-membership', 'Leave Channel', 'Leave a channel'),
  entry('create-message', 'Create Message', 'Send messages'),
  entry('create-reply', 'Create Reply', 'Reply in threads'),
  entry('create-restricted-visibility-message', 'Create Restricted Visibility Message', 'Send messages only some users see'),
  entry('create-reaction', 'Create Reaction', 'React to messages'),
  entry('add-links', 'Add Links', 'Send messages with links'),
  entry('update-message', 'Update Any Message', "Edit anyone's messages"),
  entry('update-message-owner', 'Update Own Message', 'Edit one’s own messages'),
  entry('delete-message', 'Delete Any Message', "Delete anyone's messages"),
  entry('delete-message-owner', 'Delete Own Message', 'Delete one’s own messages'),
  entry('pin-message', 'Pin Message', 'Pin and unpin messages'),
  entry('flag-message', 'Flag Message', 'Report messages to moderators'),
  entry('upload-attachment', 'Upload Attachment', 'Upload files and images'),
  entry('create-poll', 'Create Poll', 'Send polls'),
  entry('cast-poll-vote', 'Cast Poll Vote', 'Vote in polls'),
  entry('query-poll-votes', 'Query Poll Votes', 'List the votes of a poll'),
  entry('share-location', 'Share Location', 'Share static and live locations'),
  entry('delete-attachment', 'Delete Any Attachment', "Delete anyone's uploaded files"),
  entry('delete-attachment-owner', 'Delete Own Attachment', 'Delete one’s own uploaded files'),
  entry('send-custom-event', 'Send Custom Event', 'Send custom channel events'),
  entry('send-typing-event', 'Send Typing Event', 'Send typing indicators'),
  entry('mute-channel', 'Mute Channel', 'Mute a channel for oneself'),
  entry('ban-channel-member', 'Ban Channel Member', 'Ban members from any channel'),
  entry('ban-channel-member-owner', 'Ban Channel Member Own Channel', 'Ban members from a channel one created'),
  entry('skip-channel-cooldown', 'Skip Channel Cooldown', 'Send without waiting for slow mode'),
  entry('use-frozen-channel', 'Use Frozen Channel', 'Send messages and reactions to frozen channels'),
  entry('update-user', 'Update Any User', 'Change any user', 'app'),
  entry('update-user-owner', 'Update Own User', 'Change one’s own user', 'app'),
  entry('ban-user', 'Ban User', 'Ban users from the whole app', 'app'),
  entry('flag-user', 'Flag User', 'Report users to moderators', 'app'),
  entry('mute-user', 'Mute User', 'Mute users for oneself', 'app'),
  entry('block-user', 'Block User', 'Block users for oneself', 'app'),
  entry('read-flags', 'Read Flags', 'Review flags and reports', 'app'),
  entry('search-user', 'Search User', 'Query users', 'app'),
  entry('update-poll', 'Update Any Poll', "Change, close or delete anyone's polls and remove their votes", 'app'),
  entry('update-poll-owner', 'Update Own Poll', 'Change, close or delete one’s own polls', 'app'),
];

export function presentPermission(row: Entry & { custom?: boolean }): PermissionAPIObject {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    level: row.level,
    action: 'Allow',
    owner: row.owner === true,
    same_team: false,
    custom: row.custom === true,
    tags: [],
    condition: {},
  };
}
export type PermissionEntry = Entry;

export const BUILTIN_ROLES = ['admin', 'user', 'guest', 'anonymous', 'channel_member', 'channel_moderator'];

/**
 * Each capability the SDK and the UI gate on, the permission it needs, and the channel-type
 * feature it needs switched on. Capabilities with an `-owner` permission hold when the actor
 * owns the channel (or, for messages, always: "own message" is what the capability says).
 */
export const CAPABILITIES: Record<string, { permission: string; feature?: keyof ChannelConfigWithInfo; ownerVariant?: boolean }> = {
  'send-message': { permission: 'create-message' },
  'send-reply': { permission: 'create-reply', feature: 'replies' },
  'send-reaction': { permission: 'create-reaction', feature: 'reactions' },
  'send-links': { permission: 'add-links' },
  'quote-message': { permission: 'create-message', feature: 'quotes' },
  'update-own-message': { permission: 'update-message-owner' },
  'update-any-message': { permission: 'update-message' },
  'delete-own-message': { permission: 'delete-message-owner' },
  'delete-any-message': { permission: 'delete-message' },
  'flag-message': { permission: 'flag-message' },
  'upload-file': { permission: 'upload-attachment', feature: 'uploads' },
  'send-poll': { permission: 'create-poll', feature: 'polls' },
  'send-restricted-visibility-message': { permission: 'create-restricted-visibility-message' },
  'cast-poll-vote': { permission: 'cast-poll-vote', feature: 'polls' },
  'query-poll-votes': { permission: 'query-poll-votes', feature: 'polls' },
  'share-location': { permission: 'share-location', feature: 'shared_locations' },
  'search-messages': { permission: 'read-channel', feature: 'search' },
  'connect-events': { permission: 'read-channel', feature: 'connect_events' },
  'read-events': { permission: 'read-channel', feature: 'read_events' },
  'typing-events': { permission: 'read-channel', feature: 'typing_events' },
  'send-typing-events': { permission: 'send-typing-event', feature: 'typing_events' },
  'send-custom-events': { permission: 'send-custom-event', feature: 'custom_events' },
  'mute-channel': { permission: 'mute-channel', feature: 'mutes' },
  'leave-channel': { permission: 'remove-own-channel-membership' },
  'pin-message': { permission: 'pin-message' },
  'update-channel': { permission: 'update-channel', ownerVariant: true },
  'update-channel-members': { permission: 'update-channel-members', ownerVariant: true },
  'delete-channel': { permission: 'delete-channel', ownerVariant: true },
  'truncate-channel': { permission: 'truncate-channel', ownerVariant: true },
  'ban-channel-members': { permission: 'ban-channel-member', ownerVariant: true },
  'freeze-channel': { permission: 'update-channel-frozen' },
  'set-channel-cooldown': { permission: 'update-channel-cooldown' },
  'skip-slow-mode': { permission: 'skip-channel-cooldown' },
};

/** Capabilities that mean nothing to a visitor without a stored user (no read state, no typing). */
export const SIGNED_IN_ONLY = new Set(['read-events', 'typing-events', 'send-typing-events']);

const MEMBER = [
  'read-channel', 'read-channel-members', 'create-message', 'create-reply', 'create-reaction', 'add-links',
  'update-message-owner', 'delete-message-owner', 'flag-message', 'upload-attachment', 'create-poll',
  'cast-poll-vote', 'query-poll-votes', 'share-location', 'send-custom-event', 'send-typing-event',
  'delete-attachment-owner',
];
const CHANNEL_MEMBER = [...MEMBER, 'mute-channel', 'remove-own-channel-membership', 'pin-message'];
const CHANNEL_MODERATOR = [
  ...CHANNEL_MEMBER, 'update-message', 'delete-message', 'delete-attachment', 'ban-channel-member', 'update-channel-members',
  'update-channel-frozen', 'update-channel-cooldown', 'skip-channel-cooldown', 'use-frozen-channel',
];
/** What the creator of a channel may do to it, granted through the `-owner` permissions. */
const OWNER = [
  'create-channel', 'update-channel-owner', 'update-channel-members-owner', 'delete-channel-owner',
  'truncate-channel-owner', 'ban-channel-member-owner',
];
const ALL_CHANNEL = BUILTIN_PERMISSIONS.filter((p) => p.level === 'channel').map((p) => p.id);

/**
 * The built-in grants of a channel type: members-only types give signed-in users nothing but
 * creating channels (and what they own); open types let every signed-in user take part and
 * anonymous visitors read.
 */
export function defaultGrants(membersOnly: boolean): Record<string, string[]> {
  return {
    admin: ALL_CHANNEL,
    channel_moderator: CHANNEL_MODERATOR,
    channel_member: CHANNEL_MEMBER,
    user: membersOnly ? OWNER : [...OWNER, ...MEMBER],
    guest: membersOnly ? OWNER : [...OWNER, ...MEMBER],
    anonymous: membersOnly ? [] : ['read-channel'],
  };
}

const SELF = ['update-user-owner', 'flag-user', 'mute-user', 'block-user', 'search-user', 'update-poll-owner'];

/** The app-wide grants (actions outside any channel). */
export const DEFAULT_APP_GRANTS: Record<string, string[]> = {
  admin: BUILTIN_PERMISSIONS.filter((p) => p.level === 'app').map((p) => p.id),
  user: SELF,
  guest: SELF,
  anonymous: ['search-user'],
};

/** Names made so far (the permissions are a short list, asked for on every capability check). */
const actionNames = new Map<string, string>();

/** The provider's action name in refusals: `update-channel-owner` → `UpdateChannel`. */
export function actionName(permission: string): string {
  let name = actionNames.get(permission);
  if (name === undefined) {
    name = permission
      .replace(/-owner$/, '')
      .split('-')
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join('');
    // Custom permissions are the app's to name: the memo stays bounded whatever they are.
    if (actionNames.size >= 1_000) actionNames.clear();
    actionNames.set(permission, name);
  }
  return name;
}
