// A channel's own data as updates change it: `channel.update(data)` replaces the custom data
// (name and custom fields; frozen, disabled and cooldown keep their values unless given), and
// `channel.updatePartial({set, unset})` changes only the keys it names.
import { ApiError } from '../../http/errors';
import { boundedInt, isObject, optionalBoolean, optionalString, type JsonObject } from '../../http/input';
import type { ChannelData } from '../../store/channel-admin';
import type { ChannelRow } from '../../store/channels';
import { CONFIG_OVERRIDES } from '../../auth/channel-config';

/** Keys of `data` that are the server's, not the channel's custom fields; changing them is refused. */
const READ_ONLY = new Set([
  'id', 'type', 'cid', 'members', 'created_by', 'created_by_id', 'created_at', 'updated_at', 'deleted_at',
  'last_message_at', 'member_count', 'message_count', 'config', 'own_capabilities', 'hidden', 'truncated_at',
]);
/** Keys stored in their own columns. */
const COLUMNS = new Set(['name', 'frozen', 'disabled', 'cooldown']);
/** Slow mode: at most one message every 120 s (the provider's maximum). */
const MAX_COOLDOWN = 120;

export type DataChange = { data: ChannelData; frozenChanged: boolean; cooldownChanged: boolean };

/**
 * How `config_overrides` in a change is checked: absent when the caller may not change them
 * (only the server side may), so naming them is refused.
 */
export type OverridesCheck = ((value: unknown) => JsonObject) | undefined;

export function channelDataChange(
  row: ChannelRow,
  change: { replace: JsonObject } | { set: JsonObject; unset: unknown },
  checkOverrides?: OverridesCheck,
): DataChange {
  const current: ChannelData = {
    name: row.name,
    custom: JSON.parse(row.custom) as Record<string, unknown>,
    frozen: row.frozen === 1,
    disabled: row.disabled === 1,
    cooldown: row.cooldown,
  };
  let set: JsonObject;
  let unset: string[] = [];
  let next: ChannelData;
  if ('replace' in change) {
    set = change.replace;
    // The SDK strips reserved keys before sending; anything else not given is removed, except
    // the filter tags, which have calls of their own (add_filter_tags, remove_filter_tags), and
    // the channel-level settings, which only the server side changes, by naming them.
    const kept = [FILTER_TAGS, CONFIG_OVERRIDES].filter((key) => current.custom[key] !== undefined);
    next = { ...current, name: null, custom: Object.fromEntries(kept.map((key) => [key, current.custom[key]])) };
  } else {
    set = change.set;
    if (change.unset !== undefined && (!Array.isArray(change.unset) || change.unset.some((key) => typeof key !== 'string'))) {
      throw ApiError.input('unset must be a list of field names');
    }
    unset = (change.unset as string[] | undefined) ?? [];
    next = { ...current, custom: { ...current.custom } };
  }
  // A full update often sends back what `channel.data` held, server fields included: those are
  // ignored there. A partial update names fields on purpose: changing a server field is refused.
  if (!('replace' in change)) {
    for (const key of [...Object.keys(set), ...unset]) {
      if (READ_ONLY.has(key)) throw ApiError.input(`channel field ${key} cannot be changed`);
    }
  }
  // A full update often sends back the data it read, the overrides included: unchanged, they pass.
  const echoed = 'replace' in change && JSON.stringify(set[CONFIG_OVERRIDES]) === JSON.stringify(current.custom[CONFIG_OVERRIDES]);
  if ((CONFIG_OVERRIDES in set && !echoed) || unset.includes(CONFIG_OVERRIDES)) {
    if (!checkOverrides) throw ApiError.notAllowed('config_overrides (channel-level settings) can only be changed server-side');
    if (CONFIG_OVERRIDES in set) set = { ...set, [CONFIG_OVERRIDES]: checkOverrides(set[CONFIG_OVERRIDES]) };
  }
  for (const key of unset) {
    if (key === 'name') next.name = null;
    else if (key === 'frozen' || key === 'disabled') next[key] = false;
    else if (key === 'cooldown') next.cooldown = 0;
    else delete next.custom[key];
  }
  for (const [key, value] of Object.entries(set)) {
    if (READ_ONLY.has(key)) continue;
    if (key === 'name') next.name = optionalString(value, 'name') ?? null;
    else if (key === 'frozen' || key === 'disabled') next[key] = optionalBoolean(value, key) ?? false;
    else if (key === 'cooldown') next.cooldown = boundedInt(value, 'cooldown', { fallback: 0, min: 0, max: MAX_COOLDOWN });
    else if (!COLUMNS.has(key)) next.custom[key] = value;
  }
  if (isObject(next.custom) && JSON.stringify(next.custom).length > 5 * 1024) {
    throw ApiError.input('custom channel data is larger than 5KB');
  }
  return { data: next, frozenChanged: next.frozen !== current.frozen, cooldownChanged: next.cooldown !== current.cooldown };
}

/** Filter tags live with the channel's data, as `filter_tags` (a list of strings). */
export const FILTER_TAGS = 'filter_tags';
/** Tags one channel may hold at most. */
const MAX_FILTER_TAGS = 100;

/** The channel's tags after `add_filter_tags` and `remove_filter_tags`, in the order first added. */
export function withFilterTags(change: DataChange, add: string[], remove: string[]): DataChange {
  const current = change.data.custom[FILTER_TAGS];
  const tags = [...new Set([...(Array.isArray(current) ? current.filter((t): t is string => typeof t === 'string') : []), ...add])].filter(
    (tag) => !remove.includes(tag),
  );
  if (tags.length > MAX_FILTER_TAGS) throw ApiError.input(`a channel holds at most ${MAX_FILTER_TAGS} filter tags`);
  const custom = { ...change.data.custom };
  if (tags.length) custom[FILTER_TAGS] = tags;
  else delete custom[FILTER_TAGS];
  return { ...change, data: { ...change.data, custom } };
}

