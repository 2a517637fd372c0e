// Bans: `POST /moderation/ban` (client.banUser / shadowBan; channel.banUser / shadowBan add the
// channel's `type` and `id`), `DELETE /moderation/ban` (unbanUser / removeShadowBan, the same
// fields in the query string) and `GET /query_banned_users` (queryBannedUsers). Server-side
// calls may always; a user needs the ban permission of that scope (features/moderation/bans.ts).
import { Hono } from 'hono';
import type { APIResponse, BannedUsersResponse } from 'stream-chat';
import { actorFor, type Actor } from '../auth/actor';
import { accessTo } from '../auth/channel-access';
import { assertMayTarget } from '../auth/policy';
import { assertMayBan, banUser, unbanUser } from '../features/moderation/bans';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { boundedInt, isObject, namedUserId, optionalBoolean, optionalString, requiredString, type JsonObject } from '../http/input';
import { elapsed, readJson, readPayload, requireAuth, sendJson } from './request';
import { presentChannel } from '../present/channel';
import { Presenter } from '../present/presenter';
import type { BanRow } from '../store/bans';
import type { ChannelRow } from '../store/channels';
import { existingChannel } from './channels';

/** Ten years, in minutes: the longest timeout taken. */
const MAX_TIMEOUT = 60 * 24 * 365 * 10;

type BanResponse = NonNullable<BannedUsersResponse['bans']>[number] & { shadow: boolean; created_at: string };

export function banRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);

  /** `type` and `id` name a channel ban; neither, an app-wide one. */
  const scopeOf = (input: JsonObject): ChannelRow | null => {
    const type = optionalString(input.type, 'type');
    const id = optionalString(input.id, 'id');
    if (!type && !id) return null;
    if (!type || !id) throw ApiError.input('a channel ban needs both type and id');
    return existingChannel(ctx, type, id);
  };

  const targetOf = (input: JsonObject, actor: Actor): string => {
    const targetId = requiredString(input.target_user_id, 'target_user_id');
    assertMayTarget(actor, 'ban-user', targetId);
    if (!ctx.store.users.get(targetId)) throw ApiError.input(`target user ${targetId} does not exist`);
    return targetId;
  };

  routes.post('/moderation/ban', auth, async (c) => {
    const body = await readJson(c);
    const actor = actorFor(ctx.store, c.get('subject'), namedUserId(body, 'banned_by_id', 'banned_by') ?? namedUserId(body));
    const channel = scopeOf(body);
    assertMayBan(ctx, actor, channel);
    const targetId = targetOf(body, actor);
    // Offline there are no IP addresses to ban, and other channels' future bans are not kept.
    optionalBoolean(body.ip_ban, 'ip_ban');
    if (body.delete_messages !== undefined) throw ApiError.input('delete_messages is not supported by this backend');
    if (optionalBoolean(body.ban_from_future_channels, 'ban_from_future_channels')) {
      throw ApiError.input('ban_from_future_channels is not supported by this backend');
    }
    banUser(ctx, {
      targetId,
      channel,
      bannedById: actor.id,
      reason: optionalString(body.reason, 'reason') || null,
      timeout: boundedInt(body.timeout, 'timeout', { fallback: 0, min: 0, max: MAX_TIMEOUT }),
      shadow: optionalBoolean(body.shadow, 'shadow') ?? false,
    });
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  routes.delete('/moderation/ban', auth, (c) => {
    const query = c.req.query();
    const actor = actorFor(ctx.store, c.get('subject'), query.user_id);
    const channel = scopeOf(query);
    assertMayBan(ctx, actor, channel);
    // Lifting a ban that is not there succeeds.
    unbanUser(ctx, targetOf(query, actor), channel, query.shadow === 'true');
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  routes.get('/query_banned_users', auth, (c) => {
    const payload = readPayload(c);
    const actor = actorFor(ctx.store, c.get('subject'), namedUserId(payload));
    const filter = payload.filter_conditions ?? {};
    if (!isObject(filter)) throw ApiError.input('filter_conditions must be an object');
    // A user sees the bans of the one channel they may ban in, or every ban with `ban-user`.
    if (!actor.server) assertMayBan(ctx, actor, namedChannel(filter.channel_cid));
    const rows = ctx.store.bans.query({
      filter: withCreatedBounds(filter, payload),
      sort: payload.sort,
      limit: boundedInt(payload.limit, 'limit', { fallback: 25, min: 1, max: 100 }),
      offset: boundedInt(payload.offset, 'offset', { fallback: 0, max: 1_000_000 }),
      excludeExpired: optionalBoolean(payload.exclude_expired_bans, 'exclude_expired_bans') ?? false,
      now: new Date().toISOString(),
    });
    const presenter = new Presenter(ctx, actor.id);
    const bans: BanResponse[] = rows.map((row) => presentBan(presenter, actor, row));
    return sendJson({ bans, duration: elapsed(c) } satisfies BannedUsersResponse);
  });

  /** The channel a `channel_cid` condition names (a cid or `{$eq: cid}`); null for any other. */
  function namedChannel(condition: unknown): ChannelRow | null {
    const cid = isObject(condition) ? condition.$eq : condition;
    if (typeof cid !== 'string') return null;
    const channel = ctx.store.channels.get(cid);
    if (!channel) throw ApiError.notFound(`channel ${cid} does not exist`);
    return channel;
  }

  function presentBan(presenter: Presenter, viewer: Actor, row: BanRow): BanResponse {
    const channel = row.cid ? ctx.store.channels.get(row.cid) : undefined;
    return {
      user: presenter.user(row.user_id),
      ...(row.created_by_id ? { banned_by: presenter.user(row.created_by_id) } : {}),
      ...(channel ? { channel: presentChannel(presenter, channel, accessTo(ctx, channel, viewer)) } : {}),
      ...(row.expires ? { expires: row.expires } : {}),
      ...(row.reason ? { reason: row.reason } : {}),
      shadow: row.shadow === 1,
      created_at: row.created_at,
    };
  }

  return routes;
}

/** The SDK's created_at_* pagination options, as conditions on `created_at`. */
function withCreatedBounds(filter: JsonObject, payload: JsonObject): JsonObject {
  const ops = {
    created_at_after: '$gt',
    created_at_after_or_equal: '$gte',
    created_at_before: '$lt',
    created_at_before_or_equal: '$lte',
  };
  const bounds = Object.entries(ops).flatMap(([option, op]) =>
    payload[option] === undefined ? [] : [{ created_at: { [op]: payload[option] } }],
  );
  return bounds.length ? { $and: [filter, ...bounds] } : filter;
}
