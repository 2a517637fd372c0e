// Readers for untrusted request input. Each one either returns a value of the promised type
// or throws an input error (code 4) naming the offending field, so handlers never guess.
import { ApiError } from './errors';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function objectField(value: unknown, name: string): JsonObject {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw ApiError.input(`${name} must be an object`);
  return value;
}

export function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw ApiError.input(`${name} must be a string`);
  return value;
}

export function requiredString(value: unknown, name: string): string {
  const text = optionalString(value, name);
  if (!text) throw ApiError.input(`${name} is a required field`);
  return text;
}

export function optionalBoolean(value: unknown, name: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw ApiError.input(`${name} must be a boolean`);
  return value;
}

/** An integer within [min, max]; `fallback` when absent. */
export function boundedInt(
  value: unknown,
  name: string,
  { fallback, min = 0, max }: { fallback: number; min?: number; max: number },
): number {
  if (value === undefined || value === null) return fallback;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    throw ApiError.input(`${name} must be an integer between ${min} and ${max}`);
  }
  return n;
}

/** A list of ids given as strings or as objects with `user_id`/`id` (members, mentions). */
export function idList(value: unknown, name: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw ApiError.input(`${name} must be an array`);
  return value.map((item) => {
    if (typeof item === 'string' && item) return item;
    if (isObject(item)) {
      const id = item.user_id ?? item.id ?? (isObject(item.user) ? item.user.id : undefined);
      if (typeof id === 'string' && id) return id;
    }
    throw ApiError.input(`${name} must contain ids`);
  });
}

/**
 * The user a server-side request names: `source[idKey]` or `source[objectKey].id`
 * (`user_id` / `user`, `created_by_id` / `created_by`).
 */
export function namedUserId(source: JsonObject, idKey = 'user_id', objectKey = 'user'): string | undefined {
  const nested = source[objectKey];
  const id = source[idKey] ?? (isObject(nested) ? nested.id : undefined);
  return typeof id === 'string' && id ? id : undefined;
}

/** Copies `source` without `omit` keys: what remains are a resource's custom fields. */
export function withoutKeys(source: JsonObject, omit: ReadonlySet<string>): JsonObject {
  const rest: JsonObject = {};
  for (const [key, value] of Object.entries(source)) {
    if (!omit.has(key) && value !== undefined) rest[key] = value;
  }
  return rest;
}

/** A flag in the query string (axios sends booleans as "true"/"false"): absent is false. */
export function queryFlag(value: string | undefined, name: string): boolean {
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw ApiError.input(`${name} must be true or false`);
}
