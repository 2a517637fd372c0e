// Channel types (`client.createChannelType`, `getChannelType`, `updateChannelType`,
// `deleteChannelType`, `listChannelTypes`): the configuration the backend obeys for every
// channel of the type, its grants and its permission rules.
import { Hono } from 'hono';
import type { APIResponse, CommandResponse, CreateChannelResponse, GetChannelTypeResponse, ListChannelResponse } from 'stream-chat';
import { typeCommands, type ChannelTypeSettings } from '../../auth/channel-types';
import { changedChannelType, newChannelType } from '../../features/channels/channel-type-input';
import { channelCommands } from '../../present/commands';
import type { AppEnv, ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { elapsed, readJson, requireServerSide, sendJson } from '../request';

export function channelTypeRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const server = requireServerSide(ctx);
  const existing = (name: string): ChannelTypeSettings => {
    const type = ctx.store.channelTypes.get(name);
    if (!type) throw ApiError.notFound(`channel type "${name}" does not exist`);
    return type;
  };
  /** The flat shape every channel type answer has: config fields, commands, grants, rules. */
  const present = (type: ChannelTypeSettings) => {
    const commands: CommandResponse[] = typeCommands(type.config, channelCommands(ctx.store));
    return { ...type.config, commands, grants: type.grants, permissions: type.permissions };
  };

  routes.post('/channeltypes', server, async (c) => {
    const body = await readJson(c);
    const type = newChannelType(ctx, body, new Date().toISOString());
    if (!ctx.store.channelTypes.create(type)) throw ApiError.input(`channel type "${type.config.name}" already exists`);
    // The create answer lists command names, as the request did (CreateChannelResponse).
    return sendJson({ ...present(type), commands: type.config.commands, duration: elapsed(c) } as unknown as CreateChannelResponse);
  });

  routes.get('/channeltypes', server, (c) => {
    const channelTypes: ListChannelResponse['channel_types'] = {};
    for (const type of ctx.store.channelTypes.all()) channelTypes[type.config.name] = present(type) as never;
    return sendJson({ channel_types: channelTypes, duration: elapsed(c) } satisfies ListChannelResponse);
  });

  routes.get('/channeltypes/:type', server, (c) => {
    const response = { ...present(existing(c.req.param('type'))), duration: elapsed(c) };
    return sendJson(response as unknown as GetChannelTypeResponse);
  });

  routes.put('/channeltypes/:type', server, async (c) => {
    const body = await readJson(c);
    const updated = changedChannelType(ctx, existing(c.req.param('type')), body, new Date().toISOString());
    ctx.store.channelTypes.put(updated);
    return sendJson({ ...present(updated), commands: updated.config.commands, duration: elapsed(c) });
  });

  routes.delete('/channeltypes/:type', server, (c) => {
    const name = existing(c.req.param('type')).config.name;
    if (ctx.store.channels.countOfType(name) > 0) throw ApiError.input(`channel type "${name}" still has channels; delete them first`);
    ctx.store.channelTypes.remove(name);
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  return routes;
}
