// Devices as the SDK sends and reads them (addDevice, getDevices, removeDevice, and the `device`
// of the connect payload that `client.setDevice` adds), and the user a device or preference call
// acts on: oneself, or another user for a server-side call or an actor the policy lets update users.
import type { Context } from 'hono';
import { actorFor, requireUser } from '../../auth/actor';
import { assertAppPermission } from '../../auth/policy';
import type { AppEnv, ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { isObject, optionalString, requiredString } from '../../http/input';
import { appSettings } from '../../infra/app-settings';
import { providerName, providerType } from './provider-config';
import { pushOptions } from './push-options';

/** Provider device tokens are long (APNs 64 hex digits, FCM about 160 characters); this leaves room. */
const MAX_DEVICE_ID = 1024;

export function deviceId(value: unknown, name = 'id'): string {
  const id = requiredString(value, name);
  if (id.length > MAX_DEVICE_ID) throw ApiError.input(`${name} is longer than ${MAX_DEVICE_ID} characters`);
  return id;
}

/** Registers `{id, push_provider, push_provider_name?}` for the user. */
export function registerDevice(ctx: ServerContext, userId: string, input: Record<string, unknown>, prefix = ''): void {
  const id = deviceId(input.id, `${prefix}id`);
  const provider = providerType(input.push_provider, `${prefix}push_provider`);
  const name = input.push_provider_name === undefined || input.push_provider_name === null || input.push_provider_name === ''
    ? null
    : providerName(input.push_provider_name, `${prefix}push_provider_name`);
  ctx.store.devices.add({ id, userId, provider, providerName: name, now: new Date().toISOString() }, pushOptions(ctx).maxDevicesPerUser);
}

/** The connect payload's `device`, when the client set one; a malformed one refuses the connection. */
export function registerConnectDevice(ctx: ServerContext, userId: string, device: unknown): void {
  if (device === undefined || device === null) return;
  if (!isObject(device)) throw ApiError.input('device must be an object');
  registerDevice(ctx, userId, device, 'device.');
}

/**
 * The user a devices or push preferences call is about: `named` (a `user_id`), else the caller.
 * Another user's needs the secret, or an actor the policy lets update any user (update-user).
 */
export function subjectUser(ctx: ServerContext, c: Context<AppEnv>, named: unknown, action: string): string {
  const userId = optionalString(named, 'user_id') || undefined;
  const actor = requireUser(actorFor(ctx.store, c.get('subject'), userId), action);
  const target = userId ?? actor.id;
  assertAppPermission(actor, appSettings(ctx), 'update-user', target === actor.id);
  if (!ctx.store.users.get(target)) throw ApiError.input(`user ${target} does not exist`);
  return target;
}
