// Channel types: their configuration (what the SDK reads from `channel.config` and what the
// backend obeys: typing and read events, uploads, reactions, replies, search, mutes, commands,
// message length, blocklist), their grants (role → permissions) and their permission rules. The
// built-in types are written to the database on first start and are then the app's to change
// through `/channeltypes` (store/channel-types.ts).
import type { ChannelConfigWithInfo, CommandResponse, PermissionObject } from 'stream-chat';
import { defaultGrants } from './permissions';

/** The config fields a channel type stores; `commands` holds names (`all` for every command). */
export type ChannelTypeConfig = Omit<ChannelConfigWithInfo, 'commands'> & {
  name: string;
  commands: string[];
  blocklist?: string;
};

export type ChannelTypeSettings = {
  config: ChannelTypeConfig;
  grants: Record<string, string[]>;
  /** Permission rules (v1): the highest-priority rule that matches an action decides it. */
  permissions: Required<PermissionObject>[];
};

/** The provider's built-in slash commands, run by features/commands/run-command.ts. */
export const BUILTIN_COMMANDS: CommandResponse[] = [
  { name: 'giphy', description: 'Post a random gif to the channel', args: '[text]', set: 'fun_set' },
  { name: 'ban', description: 'Ban a user', args: '[@username] [text]', set: 'moderation_set' },
  { name: 'unban', description: 'Unban a user', args: '[@username]', set: 'moderation_set' },
  { name: 'mute', description: 'Mute a user', args: '[@username]', set: 'moderation_set' },
  { name: 'unmute', description: 'Unmute a user', args: '[@username]', set: 'moderation_set' },
];

/** The spec's default rule set: allow-all at priority 999, deny-all at priority 1 (stream-chat permissions.ts). */
export const DEFAULT_RULES: Required<PermissionObject>[] = [
  { name: 'Allow all', action: 'Allow', priority: 999, resources: ['*'], roles: ['*'], owner: false },
  { name: 'Deny all', action: 'Deny', priority: 1, resources: ['*'], roles: ['*'], owner: false },
];

export function defaultConfig(name: string, now: string, overrides: Partial<ChannelTypeConfig> = {}): ChannelTypeConfig {
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
    commands: ['all'],
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

/** messaging and team are members-only; livestream is open to every signed-in user. */
export function builtinChannelTypes(now: string): ChannelTypeSettings[] {
  const type = (name: string, membersOnly: boolean, overrides: Partial<ChannelTypeConfig> = {}): ChannelTypeSettings => ({
    config: defaultConfig(name, now, overrides),
    grants: defaultGrants(membersOnly),
    permissions: DEFAULT_RULES,
  });
  return [
    type('messaging', true),
    type('team', true),
    // A broadcast audience: nobody's read state is tracked and typing is not shown.
    type('livestream', false, { read_events: false, typing_events: false }),
  ];
}

/** The commands a type offers, out of every command the app has. */
export function typeCommands(config: ChannelTypeConfig, all: CommandResponse[]): CommandResponse[] {
  if (config.commands.includes('all')) return all;
  return all.filter((command) => command.name && config.commands.includes(command.name));
}
