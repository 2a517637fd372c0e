// Shared locations on messages (channel.sendSharedLocation): validation of what the SDK sends
// and the SharedLocationResponse it reads back. A location with end_at is live: its owner moves
// it with `PUT /users/live_locations` until end_at, then it is over.
import { ApiError } from '../../http/errors';
import { isObject, optionalString } from '../../http/input';
import type { LocationRow } from '../../store/locations';

/** The spec's minimum live duration (LocationComposer MIN_LIVE_LOCATION_SHARE_DURATION). */
export const MIN_LIVE_MS = 60_000;
/**
 * The SDK computes end_at as "now + duration" on the device, before the request travels; this
 * much of a 60 s share may be gone (latency, clock skew) when it arrives.
 */
const CLOCK_SLACK_MS = 5_000;

export type LocationInput = Pick<LocationRow, 'created_by_device_id' | 'latitude' | 'longitude' | 'end_at'>;

export function parseLocation(value: unknown, messageId: string, now = Date.now()): LocationInput {
  if (!isObject(value)) throw ApiError.input('shared_location must be an object');
  const deviceId = optionalString(value.created_by_device_id, 'shared_location.created_by_device_id');
  if (!deviceId) throw ApiError.input('shared_location.created_by_device_id is a required field');
  if (deviceId.length > 255) throw ApiError.input('shared_location.created_by_device_id is longer than 255 characters');
  const sentFor = optionalString(value.message_id, 'shared_location.message_id');
  if (sentFor && sentFor !== messageId) throw ApiError.input('shared_location.message_id must be the id of its message');
  const endAt = optionalString(value.end_at, 'shared_location.end_at');
  const end = endAt === undefined ? undefined : date(endAt, 'shared_location.end_at');
  if (end !== undefined && end.getTime() - now < MIN_LIVE_MS - CLOCK_SLACK_MS) {
    throw ApiError.input('shared_location.end_at must be at least 60 seconds in the future: live locations are shared for a minute or more');
  }
  return {
    created_by_device_id: deviceId,
    latitude: coordinate(value.latitude, 'shared_location.latitude', 90),
    longitude: coordinate(value.longitude, 'shared_location.longitude', 180),
    end_at: end?.toISOString() ?? null,
  };
}

export function coordinate(value: unknown, name: string, limit: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < -limit || value > limit) {
    throw ApiError.input(`${name} must be a number from -${limit} to ${limit}`);
  }
  return value;
}

export function date(value: string, name: string): Date {
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime())) throw ApiError.input(`${name} must be a date`);
  return parsed;
}
