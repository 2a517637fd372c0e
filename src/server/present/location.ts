// A shared location as the SDK reads it (SharedLocationResponse): in a message's
// `shared_location`, and in the answers of the live-location calls.
import type { SharedLocationResponse } from 'stream-chat';
import type { LocationRow } from '../store/locations';

export function presentLocation(row: LocationRow): SharedLocationResponse {
  return {
    channel_cid: row.cid,
    message_id: row.message_id,
    user_id: row.user_id,
    created_by_device_id: row.created_by_device_id,
    latitude: row.latitude,
    longitude: row.longitude,
    ...(row.end_at ? { end_at: row.end_at } : {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
