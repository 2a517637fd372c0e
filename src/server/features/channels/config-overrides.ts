// Channel-level settings (`config_overrides`): a channel may override some of its type's
// settings, set with a (partial) update from the server side alone. What is not overridden
// follows the type, now and after the type changes. The provider's list of what a channel may
// override is kept here; anything else is refused by name.
import type { Actor } from '../../auth/actor';
import type { ChannelTypeSettings } from '../../auth/channel-types';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { isObject, type JsonObject } from '../../http/input';
import type { ChannelRow } from '../../store/channels';
import { channelCommands } from '../commands/command-list';

const SWITCHES = new Set([
  'typing_events', 'reactions', 'replies', 'quotes', 'uploads', 'url_enrichment', 'shared_locations',
  'user_message_reminders', 'count_messages',
]);
const CHOICES: Record<string, string[]> = {
  blocklist_behavior: ['flag', 'block', 'shadow_block'],
  push_level: ['all', 'all_mentions', 'direct_mentions', 'mentions', 'none', ''],
};
const MAX_MESSAGE_LENGTH = 20_000;

/** Where a channel keeps its overrides: with its data, beside its filter tags. */
export const CONFIG_OVERRIDES = 'config_overrides';

/** Checks `value` as a channel's overrides (a whole object, which replaces the previous one). */
export function configOverrides(ctx: ServerContext, value: unknown): JsonObject {
  if (!isObject(value)) throw ApiError.input('config_overrides must be an object of channel settings');
  for (const [key, setting] of Object.entries(value)) {
    const field = `config_overrides.${key}`;
    if (SWITCHES.has(key)) {
      if (typeof setting !== 'boolean') throw ApiError.input(`${field} must be a boolean`);
    } else if (key in CHOICES) {
      if (typeof setting !== 'string' || !CHOICES[key]!.includes(setting)) throw ApiError.input(`${field} must be one of ${CHOICES[key]!.join(', ')}`);
    } else if (key === 'max_message_length') {
      if (typeof setting !== 'number' || !Number.isInteger(setting) || setting < 1 || setting > MAX_MESSAGE_LENGTH) {
        throw ApiError.input(`${field} must be a whole number from 1 to ${MAX_MESSAGE_LENGTH}`);
      }
    } else if (key === 'blocklist') {
      if (typeof setting !== 'string' || !ctx.store.blocklists.get(setting)) throw ApiError.input(`${field}: blocklist "${String(setting)}" does not exist`);
    } else if (key === 'commands') {
      const known = new Set([...channelCommands(ctx.store).map((command) => command.name), 'all']);
      if (!Array.isArray(setting) || setting.some((name) => typeof name !== 'string' || !known.has(name))) {
        throw ApiError.input(`${field} must be a list of command names that exist`);
      }
    } else {
      throw ApiError.input(`${field}: ${key} is not a setting a channel can override`);
    }
  }
  return value;
}

/** The check for a change's `config_overrides`: only the server side may make one. */
export function overridesCheck(ctx: ServerContext, actor: Actor): ((value: unknown) => JsonObject) | undefined {
  return actor.server ? (value) => configOverrides(ctx, value) : undefined;
}

/** The channel's overrides, as stored. */
export function overridesOf(row: ChannelRow): JsonObject | undefined {
  if (!row.custom.includes(CONFIG_OVERRIDES)) return undefined; // most channels: no parse
  const stored = (JSON.parse(row.custom) as Record<string, unknown>)[CONFIG_OVERRIDES];
  return isObject(stored) && Object.keys(stored).length ? stored : undefined;
}

/** The channel's type with the channel's own overrides applied to its config. */
export function withOverrides(type: ChannelTypeSettings, row: ChannelRow): ChannelTypeSettings {
  const overrides = overridesOf(row);
  return overrides ? { ...type, config: { ...type.config, ...overrides } } : type;
}
