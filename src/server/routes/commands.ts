// Custom slash commands: `GET/POST /commands`, `GET/PUT/DELETE /commands/{name}` (stream-chat
// client.listCommands, createCommand, getCommand, updateCommand, deleteCommand). Changing them
// is an app setting, so it takes a server-side call or an admin; anyone signed in may list them.
// Channels offer them in `config.commands` at once (present/commands.ts).
import { Hono } from 'hono';
import type {
  CreateCommandResponse,
  DeleteCommandResponse,
  GetCommandResponse,
  ListCommandsResponse,
  UpdateCommandResponse,
} from 'stream-chat';
import { actorFor } from '../auth/actor';
import { BUILTIN_COMMANDS } from '../auth/channel-types';
import { BUILTIN_NAMES, presentCommand } from '../present/commands';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, requireAuth, requireServerSide, sendJson } from './request';
import { optionalString, requiredString, type JsonObject } from '../http/input';

const COMMAND_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function commandRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);
  const { commands } = ctx.store;

  // Changing the app's commands is the site owner's server's business (signed with the secret).
  const server = requireServerSide(ctx);
  const custom = (name: string) => {
    if (BUILTIN_NAMES.has(name)) throw ApiError.input(`/${name} is a built-in command and cannot be changed`);
    const row = commands.get(name);
    if (!row) throw ApiError.notFound(`command ${name} does not exist`);
    return row;
  };
  const fields = (body: JsonObject) => ({
    description: requiredString(body.description, 'description'),
    args: optionalString(body.args, 'args') ?? '',
    set_name: optionalString(body.set, 'set') ?? '',
    now: new Date().toISOString(),
  });

  routes.get('/commands', auth, (c) => {
    if (actorFor(ctx.store, c.get('subject')).anonymous) throw ApiError.notAllowed('anonymous users cannot list commands');
    const builtIns = BUILTIN_COMMANDS.map(({ name, description, args, set }) => ({
      name: name ?? 'all',
      description: description ?? '',
      ...(args ? { args } : {}),
      ...(set ? { set } : {}),
    }));
    const response: ListCommandsResponse = {
      commands: [...builtIns, ...commands.all().map(presentCommand)],
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  routes.post('/commands', server, async (c) => {
    const body = await readJson(c);
    const name = requiredString(body.name, 'name');
    if (!COMMAND_NAME.test(name)) throw ApiError.input('name may only hold letters a-z and A-Z, digits, "_" and "-", at most 64 characters');
    if (BUILTIN_NAMES.has(name) || commands.get(name)) throw ApiError.input(`command ${name} already exists`);
    const response: CreateCommandResponse = {
      command: presentCommand(commands.save({ name, ...fields(body) })),
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  routes.get('/commands/:name', auth, (c) => {
    const response: GetCommandResponse = { ...presentCommand(custom(c.req.param('name'))), duration: elapsed(c) };
    return sendJson(response);
  });

  routes.put('/commands/:name', server, async (c) => {
    const body = await readJson(c);
    const row = custom(c.req.param('name'));
    const response: UpdateCommandResponse = {
      command: presentCommand(commands.save({ name: row.name, ...fields(body) })),
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  routes.delete('/commands/:name', server, (c) => {
    const row = custom(c.req.param('name'));
    commands.remove(row.name);
    const response: DeleteCommandResponse = { name: presentCommand(row).name, duration: elapsed(c) };
    return sendJson(response);
  });

  return routes;
}
