// Permissions (`/permissions`: the built-in catalogue and custom ones) and roles (`/roles`:
// built-in and custom). A custom permission stands for the built-in action it names, so
// granting it to a role in a channel type's grants allows that action (its `condition` is kept
// but not evaluated). A custom role can be a user's role or a member's channel role.
import { Hono } from 'hono';
import type { APIResponse, CreateRoleAPIResponse, ListRolesAPIResponse, PermissionAPIResponse, PermissionsAPIResponse } from 'stream-chat';
import { actionName, BUILTIN_PERMISSIONS, BUILTIN_ROLES, presentPermission } from '../../auth/permissions';
import type { AppEnv, ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { isObject, optionalBoolean, optionalString, requiredString, type JsonObject } from '../../http/input';
import { elapsed, readJson, requireServerSide, sendJson } from '../request';
import type { CustomPermission } from '../../store/access-control';

const ID = /^[a-z0-9_-]{1,64}$/;
const ROLE = /^[a-z0-9_]{1,64}$/;

export function permissionRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const server = requireServerSide(ctx);
  const builtin = (id: string) => BUILTIN_PERMISSIONS.find((p) => p.id === id);

  routes.get('/permissions', server, (c) => {
    const permissions = [...BUILTIN_PERMISSIONS, ...ctx.store.accessControl.permissions()].map(presentPermission);
    return sendJson({ permissions, duration: elapsed(c) } satisfies PermissionsAPIResponse);
  });

  routes.get('/permissions/:id', server, (c) => {
    const id = c.req.param('id');
    const found = builtin(id) ?? ctx.store.accessControl.permission(id);
    if (!found) throw ApiError.notFound(`permission "${id}" does not exist`);
    return sendJson({ permission: presentPermission(found), duration: elapsed(c) } satisfies PermissionAPIResponse);
  });

  routes.post('/permissions', server, async (c) => {
    const body = await readJson(c);
    const id = requiredString(body.id, 'id');
    if (!ID.test(id)) throw ApiError.input('id may only hold lower-case letters, digits, "_" and "-" (at most 64)');
    if (builtin(id) || ctx.store.accessControl.permission(id)) throw ApiError.input(`permission "${id}" already exists`);
    ctx.store.accessControl.putPermission(customPermission(id, body, new Date().toISOString()));
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  routes.put('/permissions/:id', server, async (c) => {
    const id = c.req.param('id');
    if (builtin(id)) throw ApiError.input(`permission "${id}" is built in and cannot be changed`);
    const current = ctx.store.accessControl.permission(id);
    if (!current) throw ApiError.notFound(`permission "${id}" does not exist`);
    const body = await readJson(c);
    const updated = customPermission(id, { name: current.name, action: current.grants, ...body }, new Date().toISOString());
    ctx.store.accessControl.putPermission({ ...updated, created_at: current.created_at });
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  routes.delete('/permissions/:id', server, (c) => {
    const id = c.req.param('id');
    if (builtin(id)) throw ApiError.input(`permission "${id}" is built in and cannot be deleted`);
    const granted = ctx.store.channelTypes.all().filter((type) => Object.values(type.grants).some((list) => list.includes(id)));
    if (granted.length) throw ApiError.input(`permission "${id}" is granted in ${granted.map((t) => t.config.name).join(', ')}; remove it from the grants first`);
    if (!ctx.store.accessControl.removePermission(id)) throw ApiError.notFound(`permission "${id}" does not exist`);
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  routes.get('/roles', server, (c) => {
    const builtinRoles = BUILTIN_ROLES.map((name) => ({ name, custom: false, scopes: [], created_at: '', updated_at: '' }));
    const custom = ctx.store.accessControl.roles().map((row) => ({ name: row.name, custom: true, scopes: [], created_at: row.created_at, updated_at: row.updated_at }));
    return sendJson({ roles: [...builtinRoles, ...custom], duration: elapsed(c) } satisfies ListRolesAPIResponse);
  });

  routes.post('/roles', server, async (c) => {
    const body = await readJson(c);
    const name = requiredString(body.name, 'name');
    if (!ROLE.test(name)) throw ApiError.input('a role name may only hold lower-case letters, digits and "_" (at most 64)');
    const now = new Date().toISOString();
    if (BUILTIN_ROLES.includes(name) || !ctx.store.accessControl.addRole(name, now)) throw ApiError.input(`role "${name}" already exists`);
    const response: CreateRoleAPIResponse = {
      role: { name, custom: true, scopes: [], created_at: now, updated_at: now },
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  routes.delete('/roles/:name', server, (c) => {
    const name = c.req.param('name');
    if (BUILTIN_ROLES.includes(name)) throw ApiError.input(`role "${name}" is built in and cannot be deleted`);
    if (ctx.store.accessControl.roleInUse(name)) throw ApiError.input(`role "${name}" is still given to users or members`);
    if (!ctx.store.accessControl.removeRole(name)) throw ApiError.notFound(`role "${name}" does not exist`);
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  return routes;
}

function customPermission(id: string, body: JsonObject, now: string): CustomPermission {
  const name = requiredString(body.name, 'name');
  const action = requiredString(body.action, 'action');
  // `action` names the built-in action: its id (`update-channel`) or the provider's name (`UpdateChannel`).
  const target = BUILTIN_PERMISSIONS.find((p) => p.id === action || p.name.replace(/\s/g, '') === action || actionName(p.id) === action);
  if (!target) throw ApiError.input(`action "${action}" is not a built-in action`);
  if (body.condition !== undefined && !isObject(body.condition)) throw ApiError.input('condition must be an object');
  return {
    id,
    name,
    description: optionalString(body.description, 'description') ?? '',
    level: target.level,
    ...(optionalBoolean(body.owner, 'owner') ? { owner: true } : {}),
    custom: true,
    grants: target.id,
    created_at: now,
    updated_at: now,
  };
}

