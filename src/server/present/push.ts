// Devices and push preferences as the SDK reads them (getDevices, `me.devices`,
// `me.push_preferences`, setPushPreferences' answer).
import type { ChannelPushPreference, Device, PushPreferencesResponse, PushProvider } from 'stream-chat';
import type { DeviceRow } from '../store/devices';
import type { PushPreferenceRow } from '../store/push-preferences';

export function presentDevice(row: DeviceRow): Device {
  return {
    id: row.id,
    push_provider: row.push_provider as PushProvider,
    ...(row.push_provider_name ? { push_provider_name: row.push_provider_name } : {}),
    user_id: row.user_id,
    created_at: row.created_at,
    disabled: row.disabled_reason !== null,
    ...(row.disabled_reason ? { disabled_reason: row.disabled_reason } : {}),
  };
}

export function presentPushPreferences(row: PushPreferenceRow | undefined): PushPreferencesResponse {
  return {
    ...(row?.chat_level ? { chat_level: row.chat_level } : {}),
    ...(row?.call_level ? { call_level: row.call_level } : {}),
    ...(row?.chat_preferences ? { chat_preferences: JSON.parse(row.chat_preferences) as PushPreferencesResponse['chat_preferences'] } : {}),
    ...(row?.disabled_until ? { disabled_until: row.disabled_until } : {}),
  };
}

export function presentChannelPushPreferences(row: PushPreferenceRow): ChannelPushPreference {
  return {
    ...(row.chat_level ? { chat_level: row.chat_level } : {}),
    ...(row.disabled_until ? { disabled_until: row.disabled_until } : {}),
  };
}
