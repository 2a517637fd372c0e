// Channel-level settings (`config_overrides`): a channel may override some of its type's
// settings, set with a (partial) update from the server side alone. What is not overridden
// follows the type, now and after the type changes. The provider's list of what a channel may
// override is kept here; anything else is refused by name.
import type { Actor } from '../../auth/actor';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { isObject, type JsonObject } from '../../http/input';
import { configSetting } from './channel-type-input';

/** What a channel may override: the provider's list (its documentation's "channel-level settings"). */
const OVERRIDABLE = new Set([
  'typing_events', 'reactions', 'replies', 'quotes', 'uploads', 'url_enrichment', 'shared_locations',
  'user_message_reminders', 'count_messages', 'max_message_length', 'blocklist', 'blocklist_behavior',
  'push_level', 'commands',
]);

/**
 * Checks `value` as a channel's overrides (a whole object, which replaces the previous one), each
 * setting as a channel type's is checked (channel-type-input.ts).
 */
export function configOverrides(ctx: ServerContext, value: unknown): JsonObject {
  if (!isObject(value)) throw ApiError.input('config_overrides must be an object of channel settings');
  const checked: JsonObject = {};
  for (const [key, setting] of Object.entries(value)) {
    const field = `config_overrides.${key}`;
    if (!OVERRIDABLE.has(key)) throw ApiError.input(`${field}: ${key} is not a setting a channel can override`);
    // No blocklist (null) overrides the type's too.
    checked[key] = configSetting(ctx, key, setting, field)?.value ?? null;
  }
  return checked;
}

/** The check for a change's `config_overrides`: only the server side may make one. */
export function overridesCheck(ctx: ServerContext, actor: Actor): ((value: unknown) => JsonObject) | undefined {
  return actor.server ? (value) => configOverrides(ctx, value) : undefined;
}
