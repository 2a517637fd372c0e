// Turning a user object from a client (connect's user_details, /guest, upsertUsers) into a
// stored patch: name and image are columns, everything else not owned by the server is custom.
import { ApiError } from '../../http/errors';
import { optionalString, withoutKeys, type JsonObject } from '../../http/input';
import type { UserPatch } from '../../store/users';

/** Fields of a user that clients cannot set directly. */
export const RESERVED = new Set([
  'id', 'role', 'name', 'image', 'created_at', 'updated_at', 'last_active', 'online', 'banned',
  'shadow_banned', 'deactivated_at', 'deleted_at', 'revoke_tokens_issued_before', 'anon', 'teams',
  'teams_role', 'mutes', 'channel_mutes', 'devices', 'unread_count', 'total_unread_count',
  'unread_channels', 'unread_threads', 'blocked_user_ids', 'invisible', 'roles',
]);

const USER_ID = /^[A-Za-z0-9@_-]{1,255}$/;

export function validUserId(id: unknown, name = 'user.id'): string {
  if (typeof id !== 'string' || !USER_ID.test(id)) {
    throw ApiError.input(`${name} may only contain letters, numbers and "@_-"`);
  }
  return id;
}

/** `role` is honoured only when the caller may assign roles (server-side). */
export function userPatch(id: string, user: JsonObject, { allowRole = false } = {}): UserPatch {
  const name = optionalString(user.name, 'user.name');
  const image = optionalString(user.image, 'user.image');
  const role = allowRole ? optionalString(user.role, 'user.role') : undefined;
  return {
    id,
    ...(name !== undefined ? { name } : {}),
    ...(image !== undefined ? { image } : {}),
    ...(role !== undefined ? { role } : {}),
    custom: withoutKeys(user, RESERVED),
  };
}
