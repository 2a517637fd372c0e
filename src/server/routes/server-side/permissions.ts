// Permissions (`/permissions`: the built-in catalogue and custom ones) and roles (`/roles`:
// built-in and custom). A custom permission stands for the built-in action it names, so
// granting it to a role in a channel type's grants allows that action (its `condition` is kept
// but not evaluated). A custom role can be a user's role or a member's channel role.
// Names follow the provider's API schema, which bounds their length and nothing else: a role's
// name at most 64 characters, a permission's id 255, its name 100 and its description 2,048.
// Any characters go (a UUID is a fine role name); the SDK puts them in the path encoded.
import { Hono } from 'hono';
import type { APIResponse, CreateRoleAPIResponse, ListRolesAPIResponse, PermissionAPIResponse, PermissionsAPIResponse } from 'stream-chat';
import { actionName, BUILTIN_PERMISSIONS, BUILTIN_ROLES, presentPermission } from '../../auth/permissions';
import type { AppEnv, ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { isObject, optionalBoolean, optionalString, requiredString, type JsonObject } from '../../http/input';
import { elapsed, readJson, requireServerSide, sendJson } from '../request';
import type { CustomPermission } from '../../store/access-control';

const MAX_ROLE_NAME = 64;
const MAX_PERMISSION_ID = 255;
const MAX_PERMISSION_NAME = 100;
const MAX_DESCRIPTION = 2_048;

/** A required name of at most `max` characters (code points, as the schema counts them). */
function boundedName(value: unknown, field: string, max: number): string {
  const name = requiredString(value, field);
  if ([...name].length > max) throw ApiError.input(`${field} must be at most ${max} characters long`);
  return name;
}

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
    const id = boundedName(body.id, 'id', MAX_PERMISSION_ID);
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
    const name = boundedName(body.name, 'name', MAX_ROLE_NAME);
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
  const name = boundedName(body.name, 'name', MAX_PERMISSION_NAME);
  const action = requiredString(body.action, 'action');
  // `action` names the built-in action: its id (`update-channel`) or the provider's name (`UpdateChannel`).
  const target = BUILTIN_PERMISSIONS.find((p) => p.id === action || p.name.replace(/\s/g, '') === action || actionName(p.id) === action);
  if (!target) throw ApiError.input(`action "${action}" is not a built-in action`);
  if (body.condition !== undefined && !isObject(body.condition)) throw ApiError.input('condition must be an object');
  return {
    id,
    name,
    description: description(body.description),
    level: target.level,
    ...(optionalBoolean(body.owner, 'owner') ? { owner: true } : {}),
    custom: true,
    grants: target.id,
    created_at: now,
    updated_at: now,
  };
}


function description(value: unknown): string {
  const text = optionalString(value, 'description') ?? '';
  if ([...text].length > MAX_DESCRIPTION) throw ApiError.input(`description must be at most ${MAX_DESCRIPTION} characters long`);
  return text;
}
