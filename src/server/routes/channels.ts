// Channels: queryChannels (`POST /channels`), getOrCreate/watch (`POST /channels/{type}[/{id}]/query`)
// and stop-watching. Querying a channel that does not exist creates it, with the querying user
// as its owner, `data.members` as members and `data.invites` as invited members; without an id the channel is the distinct channel
// of its member set, found again by a deterministic id.
import { Hono, type Context } from 'hono';
import type { QueryChannelAPIResponse, QueryChannelsAPIResponse } from 'stream-chat';
import { actorFor, requireUser, type Actor } from '../auth/actor';
import type { ChannelTypeSettings } from '../auth/channel-types';
import { accessTo, assertCanRead, assertMayCreateChannel, channelType, openTypesFor } from '../auth/channel-access';
import { channelState } from '../present/channel-state';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, requireAuth, sendJson } from './request';
import { boundedInt, idList, namedUserId, objectField, optionalString, type JsonObject } from '../http/input';
import { Presenter } from '../present/presenter';
import { subscribePresence } from '../realtime/presence';
import { startWatching, stopWatching } from '../realtime/watching';
import type { ChannelRow } from '../store/channels';
import { CONFIG_OVERRIDES } from '../auth/channel-config';
import { overridesCheck } from '../features/channels/config-overrides';
import { createChannel, distinctChannelId, isChannelId } from '../features/channels/create-channel';
import { channelQueryOptions, queryChannelsOptions, watchingConnection } from './query-options';

export function channelRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);

  routes.post('/channels', auth, async (c) => {
    const body = await readJson(c);
    if (body.predefined_filter !== undefined) throw ApiError.input('predefined filters are not supported');
    const actor = actorFor(ctx.store, c.get('subject'), optionalString(body.user_id, 'user_id'));
    const rows = ctx.store.channels.query({
      filter: body.filter_conditions,
      sort: body.sort,
      limit: boundedInt(body.limit, 'limit', { fallback: 10, max: 30 }),
      offset: boundedInt(body.offset, 'offset', { fallback: 0, max: 1_000_000 }),
      // Server-side calls see every channel; users see open ones and those they belong to.
      viewerId: actor.server ? null : (actor.id ?? ''),
      userId: actor.id,
      openTypes: openTypesFor(ctx, actor),
    });
    const connection = body.watch === true ? watchingConnection(c, ctx, actor) : undefined;
    const options = queryChannelsOptions(body);
    const presenter = new Presenter(ctx);
    const channels = rows.map((row) => {
      if (connection) startWatching(ctx, connection, row.cid);
      return channelState(ctx, presenter, row, actor, options);
    });
    if (body.presence === true) {
      subscribePresence(ctx, watchingConnection(c, ctx, actor), channels.flatMap((ch) => ch.members.map((m) => m.user_id ?? '')));
    }
    const response: QueryChannelsAPIResponse = { channels, duration: elapsed(c) };
    return sendJson(response);
  });

  const queryChannel = async (c: Context<AppEnv>, id: string | undefined) => {
    const type = channelType(ctx, c.req.param('type') ?? '');
    const body = await readJson(c);
    const data = objectField(body.data, 'data');
    const actor = actorFor(ctx.store, c.get('subject'), creatorId(body, data));
    const memberIds = idList(data.members, 'data.members');
    const channelId = id ?? distinctChannelId(actor.id, memberIds);
    if (!isChannelId(channelId)) {
      throw ApiError.input('a channel id may only contain letters, numbers and "!-_", at most 64 characters');
    }
    const row = existingOrCreated(ctx, type, channelId, actor, data, memberIds);
    assertCanRead(row, actor, accessTo(ctx, row, actor));
    const connection = body.watch === true ? watchingConnection(c, ctx, actor) : undefined;
    if (connection) startWatching(ctx, connection, row.cid);
    const state = channelState(ctx, new Presenter(ctx), row, actor, channelQueryOptions(body));
    if (body.presence === true) subscribePresence(ctx, watchingConnection(c, ctx, actor), state.members.map((m) => m.user_id ?? ''));
    const response: QueryChannelAPIResponse = { ...state, duration: elapsed(c) };
    return sendJson(response);
  };
  routes.post('/channels/:type/query', auth, (c) => queryChannel(c, undefined));
  routes.post('/channels/:type/:id/query', auth, (c) => queryChannel(c, c.req.param('id')));

  routes.post('/channels/:type/:id/stop-watching', auth, async (c) => {
    await readJson(c);
    const row = existingChannel(ctx, c.req.param('type'), c.req.param('id'));
    const actor = actorFor(ctx.store, c.get('subject'));
    const connection = watchingConnection(c, ctx, actor);
    if (connection) stopWatching(ctx, connection, row.cid);
    return sendJson({ duration: elapsed(c) });
  });

  return routes;
}

export function existingChannel(ctx: ServerContext, type: string, id: string): ChannelRow {
  const row = ctx.store.channels.get(`${channelType(ctx, type).config.name}:${id}`);
  if (!row || row.deleted_at) throw ApiError.notFound(`channel ${type}:${id} does not exist`);
  return row;
}

/** Server-side requests name the creator; user requests are created by the user. */
function creatorId(body: JsonObject, data: JsonObject): string | undefined {
  return namedUserId(data, 'created_by_id', 'created_by') ?? namedUserId(body, 'created_by_id', 'created_by');
}

/**
 * The channel, created if missing. One soft-deleted is created anew, as if it never existed:
 * its old rows go first, and the caller, members and data of this request make the new one.
 */
function existingOrCreated(
  ctx: ServerContext,
  type: ChannelTypeSettings,
  id: string,
  actor: Actor,
  data: JsonObject,
  memberIds: string[],
): ChannelRow {
  const found = ctx.store.channels.get(`${type.config.name}:${id}`);
  if (found && !found.deleted_at) return found;
  const creator = requireUser(actor, 'create channels');
  assertMayCreateChannel(ctx, type, actor);
  if (data[CONFIG_OVERRIDES] !== undefined) {
    const check = overridesCheck(ctx, actor);
    if (!check) throw ApiError.notAllowed('config_overrides (channel-level settings) can only be set server-side');
    check(data[CONFIG_OVERRIDES]);
  }
  // The creator is listed first: they start reading before the members they named.
  return createChannel(ctx, {
    type: type.config.name,
    id,
    creatorId: creator.id,
    creatorJoins: true,
    memberIds: [creator.id, ...memberIds],
    invitedIds: idList(data.invites, 'data.invites'),
    data,
    announce: true,
  });
}
