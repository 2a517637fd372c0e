// Server-side user administration: deleting users (`DELETE /users/{id}`, `POST /users/delete`) and
// restoring soft-deleted ones (`POST /users/restore`), deactivating and reactivating one user at
// once or many as a task, exporting a user (`GET /users/{id}/export`) and sending a user a custom
// event (`POST /users/{id}/event`). Slow work answers with a `task_id` read with `GET /tasks/{id}`.
import { Hono, type Context } from 'hono';
import { EVENT_MAP, type APIResponse, type TaskResponse, type UserResponse } from 'stream-chat';
import { deactivateUser, reactivateUser, startDeactivation, startReactivation } from '../../features/users/deactivation';
import { deletionPlan, restoreUsers, singleDeletionPlan, startDeletion } from '../../features/users/delete-users';
import { exportUser, type UserExport } from '../../features/users/export-user';
import type { Breathe } from '../../features/users/user-messages';
import type { AppEnv, ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { idList, isObject, optionalBoolean, optionalString, queryFlag, requiredString, type JsonObject } from '../../http/input';
import { elapsed, readJson, requireServerSide, sendJson } from '../request';
import { Presenter } from '../../present/presenter';
import { sendUserCustomEvent } from '../../events/user-events';
import type { UserRow } from '../../store/users';

/** The provider's batch limit for user calls. */
const MAX_USERS = 100;

/** A single-user call waits for its own work rather than handing it to a task. */
const noPause: Breathe = () => Promise.resolve();

export function usersAdminRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const server = requireServerSide(ctx);
  const userIn = (c: Context<AppEnv>) => existingUsers(ctx, [c.req.param('id') ?? ''])[0] as UserRow;
  const presented = (row: UserRow): UserResponse => new Presenter(ctx).fromRow(row);

  routes.delete('/users/:id', server, (c) => {
    const plan = singleDeletionPlan((name) => queryFlag(c.req.query(name), name));
    const { marked, taskId } = startDeletion(ctx, [userIn(c)], plan);
    const response: APIResponse & TaskResponse & { user: UserResponse } = {
      user: presented(marked[0] as UserRow),
      task_id: taskId,
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  routes.post('/users/delete', server, async (c) => {
    const body = await readJson(c);
    const users = existingUsers(ctx, userIds(body.user_ids));
    const { taskId } = startDeletion(ctx, users, deletionPlan(ctx, body));
    return sendJson({ task_id: taskId, duration: elapsed(c) } satisfies APIResponse & TaskResponse);
  });

  routes.post('/users/restore', server, async (c) => {
    const body = await readJson(c);
    // A deletion task still under way passes over the users restored here.
    restoreUsers(ctx, existingUsers(ctx, userIds(body.user_ids)));
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  routes.post('/users/deactivate', server, async (c) => {
    const body = await readJson(c);
    const taskId = startDeactivation(ctx, existingUsers(ctx, userIds(body.user_ids)), deactivateOptions(body));
    return sendJson({ task_id: taskId, duration: elapsed(c) } satisfies APIResponse & TaskResponse);
  });

  routes.post('/users/reactivate', server, async (c) => {
    const body = await readJson(c);
    // A batch renames no one (ReactivateUsersOptions has no name).
    const taskId = startReactivation(ctx, existingUsers(ctx, userIds(body.user_ids)), reactivateOptions(body));
    return sendJson({ task_id: taskId, duration: elapsed(c) } satisfies APIResponse & TaskResponse);
  });

  routes.post('/users/:id/deactivate', server, async (c) => {
    const body = await readJson(c);
    const row = await deactivateUser(ctx, userIn(c), deactivateOptions(body), noPause);
    return sendJson({ user: presented(row), duration: elapsed(c) } satisfies APIResponse & { user: UserResponse });
  });

  routes.post('/users/:id/reactivate', server, async (c) => {
    const body = await readJson(c);
    const row = await reactivateUser(ctx, userIn(c), reactivateOptions(body), noPause);
    return sendJson({ user: presented(row), duration: elapsed(c) } satisfies APIResponse & { user: UserResponse });
  });

  routes.get('/users/:id/export', server, (c) => {
    return sendJson({ ...exportUser(ctx, userIn(c)), duration: elapsed(c) } satisfies APIResponse & UserExport);
  });

  routes.post('/users/:id/event', server, async (c) => {
    const body = await readJson(c);
    if (!isObject(body.event)) throw ApiError.input('event is a required field');
    const type = requiredString(body.event.type, 'event.type');
    if (Object.hasOwn(EVENT_MAP, type)) throw ApiError.input(`event.type ${type} is reserved for built-in events`);
    sendUserCustomEvent(ctx, userIn(c).id, { ...body.event, type });
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  return routes;
}

/** The stored users of `ids`; an unknown id is an input error. */
function existingUsers(ctx: ServerContext, ids: string[]): UserRow[] {
  const rows = ctx.store.users.getMany(ids);
  const missing = ids.filter((id) => !rows.has(id));
  if (missing.length) throw ApiError.input(`users ${missing.join(', ')} do not exist`);
  return ids.map((id) => rows.get(id) as UserRow);
}

function userIds(value: unknown): string[] {
  const ids = [...new Set(idList(value, 'user_ids'))];
  if (!ids.length || ids.length > MAX_USERS) throw ApiError.input(`user_ids must list 1 to ${MAX_USERS} users`);
  return ids;
}

function createdById(body: JsonObject): string | undefined {
  return optionalString(body.created_by_id, 'created_by_id') || undefined;
}

function deactivateOptions(body: JsonObject) {
  return {
    markMessagesDeleted: optionalBoolean(body.mark_messages_deleted, 'mark_messages_deleted') ?? false,
    createdById: createdById(body),
  };
}

function reactivateOptions(body: JsonObject) {
  return {
    restoreMessages: optionalBoolean(body.restore_messages, 'restore_messages') ?? false,
    name: optionalString(body.name, 'name'),
    createdById: createdById(body),
  };
}
