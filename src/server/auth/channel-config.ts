// A channel's own settings over its type's (`config_overrides`, kept with the channel's data):
// what is not overridden follows the type, now and after the type changes. Checking a change
// of them is the channels feature's (features/channels/config-overrides.ts).
import { isObject, type JsonObject } from '../http/input';
import type { ChannelRow } from '../store/channels';
import type { ChannelTypeSettings } from './channel-types';

/** Where a channel keeps its overrides: with its data, beside its filter tags. */
export const CONFIG_OVERRIDES = 'config_overrides';

/** The channel's overrides, as stored. */
function overridesOf(row: ChannelRow): JsonObject | undefined {
  if (!row.custom.includes(CONFIG_OVERRIDES)) return undefined; // most channels: no parse
  const stored = (JSON.parse(row.custom) as Record<string, unknown>)[CONFIG_OVERRIDES];
  return isObject(stored) && Object.keys(stored).length ? stored : undefined;
}

/** The channel's type with the channel's own overrides applied to its config. */
export function withOverrides(type: ChannelTypeSettings, row: ChannelRow): ChannelTypeSettings {
  const overrides = overridesOf(row);
  return overrides ? { ...type, config: { ...type.config, ...overrides } } : type;
}
