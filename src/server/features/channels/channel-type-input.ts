// `/channeltypes` input, checked field by field: the config switches, limits, commands, the
// blocklist, grants (role → known permission ids) and permission rules. Creating takes the
// built-in defaults for anything not given; updating changes only what is given (grants per
// role named).
import type { PermissionObject } from 'stream-chat';
import { defaultConfig, DEFAULT_RULES, type ChannelTypeConfig, type ChannelTypeSettings } from '../../auth/channel-types';
import { BUILTIN_PERMISSIONS, defaultGrants } from '../../auth/permissions';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { isObject, type JsonObject } from '../../http/input';
import { channelCommands } from '../../present/commands';

const NAME = /^[a-z0-9_-]{1,64}$/;
const SWITCHES = [
  'typing_events', 'read_events', 'connect_events', 'custom_events', 'search', 'reactions', 'replies', 'quotes',
  'uploads', 'url_enrichment', 'mutes', 'polls', 'shared_locations', 'reminders', 'user_message_reminders',
  'delivery_events', 'mark_messages_pending', 'push_notifications', 'skip_last_msg_update_for_system_msgs',
  'count_messages',
] as const;
const CHOICES: Record<string, string[]> = {
  automod: ['disabled', 'simple', 'AI'],
  automod_behavior: ['flag', 'block', 'shadow_block'],
  blocklist_behavior: ['flag', 'block', 'shadow_block'],
  push_level: ['all', 'all_mentions', 'direct_mentions', 'mentions', 'none', ''],
};
/** Accepted and kept, though this backend has nothing to do with them. */
const PASSIVE = new Set(['message_retention', 'automod_thresholds', 'allowed_flag_reasons', 'blocklists', 'partition_size', 'partition_ttl']);
const MAX_MESSAGE_LENGTH = 20_000;

export function newChannelType(ctx: ServerContext, body: JsonObject, now: string): ChannelTypeSettings {
  if (typeof body.name !== 'string' || !NAME.test(body.name)) {
    throw ApiError.input('name is required: lower-case letters, digits, "_" and "-", at most 64 characters');
  }
  const base: ChannelTypeSettings = { config: defaultConfig(body.name, now), grants: defaultGrants(true), permissions: DEFAULT_RULES };
  return changedChannelType(ctx, base, body, now, true);
}

export function changedChannelType(
  ctx: ServerContext,
  current: ChannelTypeSettings,
  body: JsonObject,
  now: string,
  creating = false,
): ChannelTypeSettings {
  const config: ChannelTypeConfig & Record<string, unknown> = { ...current.config, updated_at: now };
  let grants = current.grants;
  let permissions = current.permissions;
  for (const [key, value] of Object.entries(body)) {
    if (key === 'name') {
      if (!creating && value !== current.config.name) throw ApiError.input('a channel type cannot be renamed');
    } else if (key === 'grants') {
      grants = mergedGrants(ctx, grants, value);
    } else if (key === 'permissions') {
      permissions = rules(value);
    } else if (PASSIVE.has(key)) {
      config[key] = value;
    } else {
      const setting = configSetting(ctx, key, value);
      if (!setting) throw ApiError.input(`${key} is not a channel type setting`);
      if (setting.value === undefined) delete config[key];
      else config[key] = setting.value;
    }
  }
  return { config, grants, permissions };
}

/**
 * One config setting checked (a switch, a choice, `max_message_length`, `commands`,
 * `blocklist`): the value to keep (undefined: no blocklist), or undefined when `key` is none of
 * these. `name` is how an error names it (a channel's overrides say `config_overrides.<key>`).
 * A channel type's settings and a channel's overrides are checked alike here.
 */
export function configSetting(ctx: ServerContext, key: string, value: unknown, name = key): { value: unknown } | undefined {
  if ((SWITCHES as readonly string[]).includes(key)) {
    if (typeof value !== 'boolean') throw ApiError.input(`${name} must be a boolean`);
    return { value };
  }
  if (key in CHOICES) {
    if (typeof value !== 'string' || !CHOICES[key]?.includes(value)) throw ApiError.input(`${name} must be one of ${CHOICES[key]?.join(', ')}`);
    return { value };
  }
  if (key === 'max_message_length') {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_MESSAGE_LENGTH) {
      throw ApiError.input(`${name} must be a whole number from 1 to ${MAX_MESSAGE_LENGTH}`);
    }
    return { value };
  }
  if (key === 'commands') return { value: commandNames(ctx, value, name) };
  if (key === 'blocklist') {
    if (value !== null && typeof value !== 'string') throw ApiError.input(`${name} must be the name of a blocklist`);
    if (value && !ctx.store.blocklists.get(value)) throw ApiError.input(`blocklist "${value}" does not exist; create it with POST /blocklists`);
    return { value: value || undefined };
  }
  return undefined;
}

function commandNames(ctx: ServerContext, value: unknown, field: string): string[] {
  if (!Array.isArray(value) || value.some((name) => typeof name !== 'string')) throw ApiError.input(`${field} must be a list of command names`);
  const known = new Set(['all', ...channelCommands(ctx.store).flatMap((command) => (command.name ? [command.name] : []))]);
  const unknown = (value as string[]).filter((name) => !known.has(name));
  if (unknown.length) throw ApiError.input(`commands ${unknown.join(', ')} do not exist`);
  return [...new Set(value as string[])];
}

/** Grants are replaced role by role: a role not named keeps its list. */
function mergedGrants(ctx: ServerContext, current: Record<string, string[]>, value: unknown): Record<string, string[]> {
  if (!isObject(value)) throw ApiError.input('grants must map role names to lists of permission ids');
  const known = new Set([
    ...BUILTIN_PERMISSIONS.filter((p) => p.level === 'channel').map((p) => p.id),
    ...ctx.store.accessControl.permissions().map((p) => p.id),
  ]);
  const merged = { ...current };
  for (const [role, list] of Object.entries(value)) {
    if (!Array.isArray(list) || list.some((id) => typeof id !== 'string')) throw ApiError.input(`grants.${role} must be a list of permission ids`);
    const unknown = (list as string[]).filter((id) => !known.has(id));
    if (unknown.length) throw ApiError.input(`grants.${role}: unknown permissions ${unknown.join(', ')}`);
    // defineProperty, not assignment: a role may be named "__proto__", which would set the prototype.
    Object.defineProperty(merged, role, { value: [...new Set(list as string[])], enumerable: true, writable: true, configurable: true });
  }
  return merged;
}

function rules(value: unknown): Required<PermissionObject>[] {
  if (!Array.isArray(value)) throw ApiError.input('permissions must be a list of rules');
  return value.map((rule, index) => {
    const name = `permissions[${index}]`;
    if (!isObject(rule)) throw ApiError.input(`${name} must be an object`);
    if (rule.action !== 'Allow' && rule.action !== 'Deny') throw ApiError.input(`${name}.action must be Allow or Deny`);
    if (typeof rule.priority !== 'number' || !Number.isInteger(rule.priority) || rule.priority < 1 || rule.priority > 1000) {
      throw ApiError.input(`${name}.priority must be a whole number from 1 to 1000`);
    }
    const strings = (field: string) => {
      const list = rule[field] ?? ['*'];
      if (!Array.isArray(list) || list.some((item) => typeof item !== 'string')) throw ApiError.input(`${name}.${field} must be a list of strings`);
      return list as string[];
    };
    return {
      name: typeof rule.name === 'string' ? rule.name : `Rule ${index + 1}`,
      action: rule.action,
      priority: rule.priority,
      resources: strings('resources'),
      roles: strings('roles'),
      owner: rule.owner === true,
    };
  });
}
