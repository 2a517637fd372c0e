// Opening a connection, whatever its transport (the socket's query string, or a long-poll
// open): the connect payload checked, the credentials authenticated, the user upserted from
// `user_details` (its `last_active` now), and a device in the payload registered, as
// `client.setDevice(...)` sends it. Anonymous visitors are not stored.
import type { OwnUserResponse } from 'stream-chat';
import { authenticateIn } from '../../auth/authenticate';
import type { Subject } from '../../auth/tokens';
import { parseBoundedJson } from '../../http/body';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { isObject } from '../../http/input';
import { Presenter } from '../../present/presenter';
import type { ConnectInput } from '../../realtime/handshake';
import { registerConnectDevice } from '../push/devices';
import { userPatch, validUserId } from './user-fields';

/**
 * Validates the connect payload and credentials (the socket's query string, or a long-poll
 * open), upserts the user from `user_details`, and returns `me`.
 */
export async function connectUser(ctx: ServerContext, input: ConnectInput): Promise<{ me: OwnUserResponse; subject: Subject }> {
  const payload = parseBoundedJson(
    input.json ?? '',
    ctx.hub.limits.maxJsonDepth,
    'the json query parameter',
    'the json query parameter must be the JSON connect payload',
  );
  if (!isObject(payload) || typeof payload.user_id !== 'string' || !payload.user_id) {
    throw ApiError.input('the connect payload needs a user_id');
  }
  const userId = validUserId(payload.user_id, 'user_id');
  const details = isObject(payload.user_details) ? payload.user_details : { id: userId };
  if (details.id !== undefined && details.id !== userId) {
    throw ApiError.input('user_details.id does not match user_id');
  }
  const subject = await authenticateIn(
    ctx,
    { apiKey: input.apiKey, authType: input.authType, token: input.token, userId },
  );
  const now = new Date().toISOString();
  if (subject.kind === 'anonymous') {
    // Anonymous visitors are not stored: they get an ephemeral identity for this socket.
    const me: OwnUserResponse = {
      id: userId,
      role: 'anonymous',
      anon: true,
      online: true,
      created_at: now,
      updated_at: now,
      devices: [],
      mutes: [],
      channel_mutes: [],
      blocked_user_ids: [],
      total_unread_count: 0,
      unread_count: 0,
      unread_channels: 0,
      unread_threads: 0,
    };
    return { me, subject };
  }
  const user = ctx.store.users.upsert({ ...userPatch(userId, details), lastActive: now });
  // `client.setDevice(...)` puts the device in the connect payload: it is registered like addDevice.
  registerConnectDevice(ctx, user.id, payload.device);
  return { me: new Presenter(ctx).ownUser(user), subject };
}
