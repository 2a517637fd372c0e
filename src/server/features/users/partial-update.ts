// A partial user update (`PATCH /users`, partialUpdateUser(s), revokeUserToken): `set` overwrites
// the named fields, `unset` removes them, everything else is kept. Fields the server owns cannot
// be named; role, teams and the token revocation date only by the site owner's server.
import { ApiError } from '../../http/errors';
import { isObject, optionalString, type JsonObject } from '../../http/input';
import type { Lifecycle, UserFields, UserRow } from '../../store/users';
import { RESERVED } from './user-fields';

const SERVER_ONLY = new Set(['role', 'teams', 'teams_role', 'revoke_tokens_issued_before']);
const COLUMNS = new Set(['name', 'image', 'role']);

export type UserChange = { fields: UserFields; lifecycle: Lifecycle };

export function partialUserChange(row: UserRow, set: JsonObject, unset: string[], serverSide: boolean): UserChange {
  for (const key of [...Object.keys(set), ...unset]) {
    if (SERVER_ONLY.has(key) && !serverSide) throw ApiError.notAllowed(`${key} can only be changed server-side`);
    if (RESERVED.has(key) && !SERVER_ONLY.has(key) && !COLUMNS.has(key)) {
      throw ApiError.input(`${key} is a reserved field and cannot be updated`);
    }
  }
  if (unset.includes('role')) throw ApiError.input('role cannot be unset');
  const custom = JSON.parse(row.custom) as JsonObject;
  const fields: UserFields = { role: row.role, name: row.name, image: row.image, custom };
  const lifecycle: Lifecycle = {};
  for (const [key, value] of Object.entries(set)) {
    if (key === 'name' || key === 'image') fields[key] = optionalString(value, key) ?? null;
    else if (key === 'role') fields.role = roleName(value);
    else if (key === 'revoke_tokens_issued_before') lifecycle.revoke_tokens_issued_before = revocationDate(value);
    else custom[key] = checkedCustom(key, value);
  }
  for (const key of unset) {
    if (key === 'name' || key === 'image') fields[key] = null;
    else if (key === 'revoke_tokens_issued_before') lifecycle.revoke_tokens_issued_before = null;
    else delete custom[key];
  }
  return { fields, lifecycle };
}

function roleName(value: unknown): string {
  const role = optionalString(value, 'role');
  if (!role) throw ApiError.input('role must be a role name');
  return role;
}

/** A date, or null to lift the revocation; the SDK refuses a blank string client-side, so do we. */
function revocationDate(value: unknown): string | null {
  if (value === null) return null;
  const text = optionalString(value, 'revoke_tokens_issued_before');
  if (!text || Number.isNaN(Date.parse(text))) throw ApiError.input('revoke_tokens_issued_before must be a date or null');
  return new Date(text).toISOString();
}

/** teams and teams_role live among the custom data but have a shape to keep. */
function checkedCustom(key: string, value: unknown): unknown {
  if (key === 'teams' && !(Array.isArray(value) && value.every((team) => typeof team === 'string'))) {
    throw ApiError.input('teams must be a list of team names');
  }
  if (key === 'teams_role' && !(value === null || (isObject(value) && Object.values(value).every((role) => typeof role === 'string')))) {
    throw ApiError.input('teams_role must map teams to role names');
  }
  return value;
}
