// Users: queryUsers (`GET /users?payload=`), upsertUsers (`POST /users`), partialUpdateUser(s)
// (`PATCH /users`) and guest sign-in (`POST /guest`, sent with stream-auth-type anonymous;
// stream-chat client.setGuestUser). Users may update themselves; the policy decides about
// others (`update-user`), and only server-side calls assign roles.
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import type { APIResponse, UpdateUsersAPIResponse, UserResponse, UsersAPIResponse } from 'stream-chat';
import { actorFor, type Actor } from '../auth/actor';
import { assertAppPermission } from '../auth/policy';
import { createUserToken } from '../auth/tokens';
import { appSettings } from '../infra/app-settings';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, readPayload, requireAuth, sendJson } from './request';
import { boundedInt, isObject, objectField, optionalBoolean } from '../http/input';
import { Presenter } from '../present/presenter';
import { subscribePresence } from '../realtime/presence';
import { announceUserUpdated } from '../events/user-events';
import type { UserRow } from '../store/users';
import { watchingConnection } from './query-options';
import { partialUserChange } from '../features/users/partial-update';
import { userPatch, validUserId } from '../features/users/user-fields';

/** What client.setGuestUser reads (stream-chat src/client.ts). */
type GuestResponse = APIResponse & { access_token: string; user: UserResponse };

export function userRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);

  routes.get('/users', auth, (c) => {
    const payload = readPayload(c);
    assertAppPermission(actorFor(ctx.store, c.get('subject')), appSettings(ctx), 'search-user');
    const rows = ctx.store.users.query({
      filter: payload.filter_conditions,
      sort: payload.sort,
      limit: boundedInt(payload.limit, 'limit', { fallback: 30, max: 100 }),
      offset: boundedInt(payload.offset, 'offset', { fallback: 0, max: 1_000_000 }),
      onlineIds: ctx.hub.registry.onlineUserIds(),
      includeDeactivated: optionalBoolean(payload.include_deactivated_users, 'include_deactivated_users') ?? false,
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
    for (const id of Object.keys(input)) assertMayUpdate(ctx, actor, id);
    const presenter = new Presenter(ctx);
    const users: Record<string, UserResponse> = {};
    const changed: UserResponse[] = [];
    ctx.store.transaction(() => {
      for (const [key, value] of Object.entries(input)) {
        if (!isObject(value)) throw ApiError.input(`users.${key} must be an object`);
        const id = validUserId(value.id ?? key);
        if (id !== key) throw ApiError.input(`users.${key}.id does not match its key`);
        const before = ctx.store.users.get(id);
        const after = ctx.store.users.upsert(userPatch(id, value, { allowRole: actor.server }));
        users[id] = presenter.fromRow(after);
        if (before && !sameUser(before, after)) changed.push(users[id]);
      }
    });
    for (const user of changed) announceUserUpdated(ctx, user);
    const response: UpdateUsersAPIResponse = { users, duration: elapsed(c) };
    return sendJson(response);
  });

  routes.patch('/users', auth, async (c) => {
    const body = await readJson(c);
    const items: unknown[] = Array.isArray(body.users) ? body.users : [];
    if (!items.length) throw ApiError.input('users must be a non-empty list of {id, set, unset}');
    const actor = actorFor(ctx.store, c.get('subject'));
    const presenter = new Presenter(ctx);
    const users: Record<string, UserResponse> = {};
    const changed: UserResponse[] = [];
    ctx.store.transaction(() => {
      for (const [index, item] of items.entries()) {
        if (!isObject(item)) throw ApiError.input(`users[${index}] must be an object`);
        const id = validUserId(item.id, `users[${index}].id`);
        assertMayUpdate(ctx, actor, id);
        const row = ctx.store.users.get(id);
        if (!row) throw ApiError.input(`user ${id} does not exist`);
        const change = partialUserChange(row, objectField(item.set, 'set'), fieldList(item.unset), actor.server);
        ctx.store.users.replace(id, change.fields);
        const after = ctx.store.users.setLifecycle(id, change.lifecycle) as UserRow;
        users[id] = presenter.fromRow(after);
        if (!sameUser(row, after)) changed.push(users[id]);
      }
    });
    for (const user of changed) announceUserUpdated(ctx, user);
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

/** Anyone granted update-user, or the user themselves (update-user-owner). */
function assertMayUpdate(ctx: ServerContext, actor: Actor, userId: string): void {
  assertAppPermission(actor, appSettings(ctx), 'update-user', userId === actor.id);
}

/** Whether an update changed anything a client shows (updated_at always moves). */
function sameUser(before: UserRow, after: UserRow): boolean {
  const shown = (row: UserRow) => [row.role, row.name, row.image, row.custom, row.revoke_tokens_issued_before];
  return JSON.stringify(shown(before)) === JSON.stringify(shown(after));
}

function fieldList(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((key): key is string => typeof key === 'string')) {
    throw ApiError.input('unset must be a list of field names');
  }
  return value;
}
