// Users: queryUsers (`GET /users?payload=`), upsertUsers (`POST /users`) and guest sign-in
// (`POST /guest`, sent with stream-auth-type anonymous; stream-chat client.setGuestUser).
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import type { APIResponse, UpdateUsersAPIResponse, UserResponse, UsersAPIResponse } from 'stream-chat';
import { actorFor } from '../auth/actor';
import { createUserToken } from '../auth/tokens';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, readPayload, requireAuth, sendJson } from '../http/request';
import { boundedInt, isObject, objectField } from '../http/input';
import { Presenter } from '../present/presenter';
import { subscribePresence } from '../realtime/presence';
import { watchingConnection } from './query-options';
import { userPatch, validUserId } from '../features/users/user-fields';

/** What client.setGuestUser reads (stream-chat src/client.ts). */
type GuestResponse = APIResponse & { access_token: string; user: UserResponse };

export function userRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);

  routes.get('/users', auth, (c) => {
    const payload = readPayload(c);
    const rows = ctx.store.users.query({
      filter: payload.filter_conditions,
      sort: payload.sort,
      limit: boundedInt(payload.limit, 'limit', { fallback: 30, max: 100 }),
      offset: boundedInt(payload.offset, 'offset', { fallback: 0, max: 1_000_000 }),
      onlineIds: ctx.hub.registry.onlineUserIds(),
    });
    const presenter = new Presenter(ctx);
    if (payload.presence === true) {
      subscribePresence(ctx, watchingConnection(c, ctx, actorFor(ctx.store, c.get('subject'))), rows.map((row) => row.id));
    }
    const response: UsersAPIResponse = { users: rows.map((row) => presenter.fromRow(row)), duration: elapsed(c) };
    return sendJson(response);
  });

  routes.post('/users', auth, async (c) => {
    const body = await readJson(c);
    const input = objectField(body.users, 'users');
    const actor = actorFor(ctx.store, c.get('subject'));
    // Users may update themselves; only server-side calls may touch others or assign roles.
    for (const id of Object.keys(input)) {
      if (!actor.server && id !== actor.id) throw ApiError.notAllowed(`users can only update themselves, not ${id}`);
    }
    const presenter = new Presenter(ctx);
    const users: Record<string, UserResponse> = {};
    ctx.store.transaction(() => {
      for (const [key, value] of Object.entries(input)) {
        if (!isObject(value)) throw ApiError.input(`users.${key} must be an object`);
        const id = validUserId(value.id ?? key);
        if (id !== key) throw ApiError.input(`users.${key}.id does not match its key`);
        users[id] = presenter.fromRow(ctx.store.users.upsert(userPatch(id, value, { allowRole: actor.server })));
      }
    });
    const response: UpdateUsersAPIResponse = { users, duration: elapsed(c) };
    return sendJson(response);
  });

  routes.post('/guest', auth, async (c) => {
    const body = await readJson(c);
    const input = objectField(body.user, 'user');
    const id = validUserId(input.id ?? `guest-${randomUUID()}`);
    const existing = ctx.store.users.get(id);
    if (existing && existing.role !== 'guest') {
      throw ApiError.notAllowed(`user id ${id} belongs to a registered user and cannot be used by a guest`);
    }
    // The same guest id signs in as the same user again (with any new name or image).
    const user = ctx.store.users.upsert({ ...userPatch(id, input), role: 'guest' });
    const response: GuestResponse = {
      access_token: await createUserToken(id, ctx.config.apiSecret),
      user: new Presenter(ctx).fromRow(user),
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  return routes;
}
