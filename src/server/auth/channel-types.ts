// Channel types, their configuration (what the SDK reads from `channel.config`) and the
// permission rules that become `channel.own_capabilities`. The SDK and the UI gate features on
// these capability names: without `read-events` the SDK never marks a channel read, without
// `upload-file` the composer refuses attachments, and so on (protocol-notes §4).
import type { ChannelConfigWithInfo, CommandResponse } from 'stream-chat';
import type { Actor } from './actor';
import type { MemberRow } from '../store/channels';

export type ChannelType = {
  name: string;
  /** Non-members can neither read nor write (messaging, team); otherwise anyone signed in can. */
  membersOnly: boolean;
  config: ChannelConfigWithInfo;
};

// A fixed date: the configuration is part of the code, not of the data.
const CONFIGURED_AT = '2025-01-01T00:00:00.000Z';

/** The provider's built-in slash commands, run by commands/run-command.ts. */
export const BUILTIN_COMMANDS: CommandResponse[] = [
  { name: 'giphy', description: 'Post a random gif to the channel', args: '[text]', set: 'fun_set' },
  { name: 'ban', description: 'Ban a user', args: '[@username] [text]', set: 'moderation_set' },
  { name: 'unban', description: 'Unban a user', args: '[@username]', set: 'moderation_set' },
  { name: 'mute', description: 'Mute a user', args: '[@username]', set: 'moderation_set' },
  { name: 'unmute', description: 'Unmute a user', args: '[@username]', set: 'moderation_set' },
];

function config(name: string, overrides: Partial<ChannelConfigWithInfo> = {}): ChannelConfigWithInfo {
  return {
    name,
    typing_events: true,
    read_events: true,
    connect_events: true,
    custom_events: true,
    search: true,
    reactions: true,
    replies: true,
    quotes: true,
    uploads: true,
    url_enrichment: true,
    mutes: true,
    polls: true,
    shared_locations: true,
    reminders: false,
    // Message reminders ("remind me", "save for later") are served by routes/reminders.ts.
    user_message_reminders: true,
    // Delivery receipts would make the SDK post /channels/delivered for every message.
    delivery_events: false,
    mark_messages_pending: false,
    push_notifications: false,
    skip_last_msg_update_for_system_msgs: false,
    count_messages: false,
    max_message_length: 5000,
    message_retention: 'infinite',
    automod: 'disabled',
    automod_behavior: 'flag',
    blocklist_behavior: 'flag',
    commands: BUILTIN_COMMANDS,
    created_at: CONFIGURED_AT,
    updated_at: CONFIGURED_AT,
    ...overrides,
  };
}

export const CHANNEL_TYPES: Record<string, ChannelType> = {
  messaging: { name: 'messaging', membersOnly: true, config: config('messaging') },
  team: { name: 'team', membersOnly: true, config: config('team') },
  // A broadcast audience: nobody's read state is tracked and typing is not shown.
  livestream: {
    name: 'livestream',
    membersOnly: false,
    config: config('livestream', { read_events: false, typing_events: false }),
  },
};

/** Types whose channels anyone signed in may read, so queryChannels lists them to everyone. */
export const OPEN_TYPES = Object.values(CHANNEL_TYPES)
  .filter((type) => !type.membersOnly)
  .map((type) => type.name);

/** What a participant (a member, or anyone in an open channel) may do. */
const PARTICIPANT = [
  'send-message',
  'send-reply',
  'send-reaction',
  'send-links',
  'quote-message',
  'update-own-message',
  'delete-own-message',
  'flag-message',
  'upload-file',
  'send-poll',
  'cast-poll-vote',
  'query-poll-votes',
  'share-location',
  'search-messages',
  'connect-events',
  'typing-events',
  'send-typing-events',
  'send-custom-events',
  'read-events',
];
const MEMBER = [...PARTICIPANT, 'mute-channel', 'leave-channel', 'pin-message'];
// Owners moderate their channel: `/ban` works for them (commands/run-command.ts).
const OWNER = [...MEMBER, 'update-channel', 'update-channel-members', 'delete-channel', 'ban-channel-members'];
const ADMIN = [
  ...OWNER,
  'update-any-message',
  'delete-any-message',
  'freeze-channel',
  'set-channel-cooldown',
  'skip-slow-mode',
];
const READER = ['search-messages', 'connect-events'];

/** Capabilities that exist only while the channel type enables the matching feature. */
const FEATURE_OF: Record<string, keyof ChannelConfigWithInfo> = {
  'read-events': 'read_events',
  'typing-events': 'typing_events',
  'send-typing-events': 'typing_events',
  'send-custom-events': 'custom_events',
  'connect-events': 'connect_events',
  'send-reaction': 'reactions',
  'send-reply': 'replies',
  'quote-message': 'quotes',
  'upload-file': 'uploads',
  'mute-channel': 'mutes',
  'send-poll': 'polls',
  'cast-poll-vote': 'polls',
  'query-poll-votes': 'polls',
  'share-location': 'shared_locations',
  'search-messages': 'search',
};

export type ChannelAccess = { canRead: boolean; capabilities: string[] };

/**
 * The one place that decides who may do what in a channel. Guests follow the same rules as
 * users; anonymous visitors may only read open channels; admins and server-side calls may do
 * everything.
 */
export function channelAccess(type: ChannelType, actor: Actor, member: MemberRow | undefined): ChannelAccess {
  let granted: string[];
  if (actor.server || actor.role === 'admin') granted = ADMIN;
  else if (actor.anonymous) granted = type.membersOnly ? [] : READER;
  else if (member) granted = member.role === 'owner' ? OWNER : MEMBER;
  else granted = type.membersOnly ? [] : PARTICIPANT;

  const canRead = granted.length > 0;
  const capabilities = granted.filter((capability) => {
    const feature = FEATURE_OF[capability];
    return !feature || type.config[feature] === true;
  });
  return { canRead, capabilities };
}
