// Channels: queryChannels (`POST /channels`), getOrCreate/watch (`POST /channels/{type}[/{id}]/query`)
// and stop-watching. Querying a channel that does not exist creates it, with the querying user
// as its owner and `data.members` as members; without an id the channel is the distinct channel
// of its member set, found again by a deterministic id.
import { createHash } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { QueryChannelAPIResponse, QueryChannelsAPIResponse } from 'stream-chat';
import { actorFor, requireUser, type Actor } from '../auth/actor';
import type { ChannelTypeSettings } from '../auth/channel-types';
import { accessTo, assertCanRead, assertMayCreateChannel, channelType, openTypesFor } from '../auth/channel-access';
import { channelState } from '../present/channel-state';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, requireAuth, sendJson } from '../http/request';
import { boundedInt, idList, namedUserId, objectField, optionalString, withoutKeys, type JsonObject } from '../http/input';
import { Presenter } from '../present/presenter';
import { announceChannelCreated } from '../realtime/channel-events';
import { subscribePresence } from '../realtime/presence';
import { startWatching, stopWatching } from '../realtime/watching';
import type { ChannelRow } from '../store/channels';
import { CONFIG_OVERRIDES, overridesCheck } from '../features/channels/config-overrides';
import { channelQueryOptions, queryChannelsOptions, watchingConnection } from './query-options';

const CHANNEL_ID = /^[A-Za-z0-9_!-]{1,64}$/;

/** Keys of `data` that are not the channel's own custom fields. */
export const RESERVED_DATA = new Set([
  'id', 'type', 'cid', 'name', 'members', 'created_by', 'created_by_id', 'created_at', 'updated_at',
  'deleted_at', 'last_message_at', 'member_count', 'message_count', 'config', 'own_capabilities',
  'frozen', 'disabled', 'hidden', 'truncated_at', 'team', 'filter_tags', 'blocked',
]);

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
    const channelId = id ?? distinctChannelId(actor, memberIds);
    if (!CHANNEL_ID.test(channelId)) {
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
 * The id of the distinct channel of a member set (creator included): the same members always
 * give the same id, so the channel is found again instead of duplicated.
 */
export function distinctChannelId(actor: Actor, memberIds: string[]): string {
  const members = new Set(memberIds);
  if (actor.id !== null) members.add(actor.id);
  if (members.size === 0) {
    throw ApiError.input('When creating a channel without an id you must specify its members');
  }
  const hash = createHash('sha256').update([...members].sort().join(',')).digest('hex');
  return `!members-${hash.slice(0, 40)}`;
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
  if (found) ctx.store.channelAdmin.hardDelete(found.cid);
  const { store } = ctx;
  const others = [...new Set(memberIds)].filter((memberId) => memberId !== creator.id);
  const known = store.users.getMany(others);
  const unknown = others.filter((memberId) => !known.has(memberId));
  if (unknown.length) {
    throw ApiError.input(
      `The following users are involved in channel create operation, but don't exist: [${unknown.join(', ')}]`,
    );
  }
  const cid = `${type.config.name}:${id}`;
  const now = new Date().toISOString();
  const row = store.transaction(() => {
    store.channels.create({
      type: type.config.name,
      id,
      name: optionalString(data.name, 'data.name') ?? null,
      custom: withoutKeys(data, RESERVED_DATA),
      createdById: creator.id,
      now,
    });
    store.channels.addMembers(cid, [creator.id], 'owner', now);
    store.channels.addMembers(cid, others, 'member', now);
    store.reads.start(cid, [creator.id, ...others], now);
    return store.channels.get(cid) as ChannelRow;
  });
  announceChannelCreated(ctx, row, others, creator.id, now);
  return row;
}
