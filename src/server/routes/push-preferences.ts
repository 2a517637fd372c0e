// `POST /push_preferences` (setPushPreferences): up to 100 preferences, each for a user (the
// caller, or `user_id`) and optionally one channel (`channel_cid`): `chat_level` (all, mentions,
// direct_mentions, all_mentions, none, default), `call_level`, `chat_preferences`, and a snooze
// (`disabled_until`, lifted by `remove_disable`). What push does with them: features/push.
import { Hono } from 'hono';
import type { UpsertPushPreferencesResponse } from 'stream-chat';
import { subjectUser } from '../features/push/devices';
import { CALL_LEVELS, CHAT_LEVELS } from '../features/push/push-preferences';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { isObject, optionalBoolean, optionalString, type JsonObject } from '../http/input';
import { elapsed, readJson, requireAuth, sendJson } from './request';
import { presentChannelPushPreferences, presentPushPreferences } from '../present/push';
import type { PushPreferencePatch } from '../store/push-preferences';

const MAX_PREFERENCES = 100;
const CHAT_PREFERENCE_KEYS = [
  'channel_mentions', 'default_preference', 'direct_mentions', 'group_mentions', 'here_mentions', 'role_mentions', 'thread_replies',
];

function level(value: unknown, name: string, allowed: string[]): string | undefined {
  const text = optionalString(value, name);
  if (text !== undefined && !allowed.includes(text)) throw ApiError.input(`${name} must be one of ${allowed.join(', ')}`);
  return text;
}

function chatPreferences(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw ApiError.input(`${name} must be an object`);
  for (const [key, choice] of Object.entries(value)) {
    if (!CHAT_PREFERENCE_KEYS.includes(key)) throw ApiError.input(`${name}.${key} is not a chat preference (${CHAT_PREFERENCE_KEYS.join(', ')})`);
    level(choice, `${name}.${key}`, ['all', 'none']);
  }
  return JSON.stringify(value);
}

export function pushPreferenceRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();

  routes.post('/push_preferences', requireAuth(ctx), async (c) => {
    const body = await readJson(c);
    const list = body.preferences;
    if (!Array.isArray(list) || !list.length || list.length > MAX_PREFERENCES) {
      throw ApiError.input(`preferences must be a list of 1 to ${MAX_PREFERENCES} preferences`);
    }
    const now = new Date().toISOString();
    // Every preference is checked before any is stored.
    const patches = list.map((item: unknown, index): PushPreferencePatch => {
      const name = `preferences[${index}]`;
      if (!isObject(item)) throw ApiError.input(`${name} must be an object`);
      return checkedPreference(ctx, c, item as JsonObject, name, now);
    });
    const rows = ctx.store.transaction(() => patches.map((patch) => ctx.store.pushPreferences.set(patch)));

    const response: UpsertPushPreferencesResponse = { user_preferences: {}, user_channel_preferences: {}, duration: '' };
    for (const row of rows) {
      if (row.cid) {
        (response.user_channel_preferences[row.user_id] ??= {})[row.cid] = presentChannelPushPreferences(row);
      } else {
        response.user_preferences[row.user_id] = presentPushPreferences(row);
      }
    }
    response.duration = elapsed(c);
    return sendJson(response);
  });

  return routes;
}

function checkedPreference(
  ctx: ServerContext,
  c: Parameters<typeof subjectUser>[1],
  item: JsonObject,
  name: string,
  now: string,
): PushPreferencePatch {
  const userId = subjectUser(ctx, c, item.user_id, 'set push preferences');
  const cid = optionalString(item.channel_cid, `${name}.channel_cid`) ?? '';
  if (cid && !ctx.store.channels.get(cid)) throw ApiError.input(`${name}.channel_cid: channel ${cid} does not exist`);
  const chatLevel = level(item.chat_level, `${name}.chat_level`, CHAT_LEVELS);
  const callLevel = level(item.call_level, `${name}.call_level`, CALL_LEVELS);
  const prefs = chatPreferences(item.chat_preferences, `${name}.chat_preferences`);
  if (cid && (callLevel !== undefined || prefs !== undefined)) {
    throw ApiError.input(`${name}: a channel's preference takes chat_level and disabled_until only`);
  }
  const until = optionalString(item.disabled_until, `${name}.disabled_until`);
  if (until !== undefined && Number.isNaN(Date.parse(until))) throw ApiError.input(`${name}.disabled_until must be a date`);
  const removeDisable = optionalBoolean(item.remove_disable, `${name}.remove_disable`) ?? false;
  return {
    userId,
    cid,
    ...(chatLevel !== undefined ? { chatLevel } : {}),
    ...(callLevel !== undefined ? { callLevel } : {}),
    ...(prefs !== undefined ? { chatPreferences: prefs } : {}),
    ...(removeDisable ? { disabledUntil: null } : until !== undefined ? { disabledUntil: new Date(until).toISOString() } : {}),
    now,
  };
}
