// Mutes and flags: `POST /moderation/mute` / `unmute` (a user or a list, `timeout` in minutes),
// `POST /moderation/mute/channel` / `unmute/channel` (`expiration` in milliseconds), and
// `POST /moderation/flag` / `unflag` (a message or a user). Mute lists reach the SDK only through
// notification.mutes_updated / notification.channel_mutes_updated carrying `me`; the responses
// carry them too for callers that read them.
import { Hono, type Context } from 'hono';
import type { APIResponse, FlagMessageResponse, FlagUserResponse, MuteChannelAPIResponse, MuteUserResponse } from 'stream-chat';
import { actorFor, requireUser, type UserActor } from '../auth/actor';
import { accessTo, assertCanRead, assertCapability } from '../auth/channel-access';
import { assertAppPermission, assertMayTarget } from '../auth/policy';
import { appSettings } from '../infra/app-settings';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, requireAuth, sendJson } from './request';
import { boundedInt, namedUserId, optionalString, requiredString, type JsonObject } from '../http/input';
import { messageInReach } from '../auth/message-access';
import { notifyMessageFlagged, notifyUserFlagged } from '../features/moderation/flag-events';
import { assertMayMuteUsers, muteUsers, unmuteUsers } from '../features/moderation/user-mutes';
import { activeMutes, presentChannelMute, presentMute } from '../present/own-user';
import { Presenter } from '../present/presenter';
import { scheduleMuteExpiry } from '../events/expiry';
import { notifyMutesUpdated } from '../events/user-notifications';
import type { FlagRow } from '../store/flags';

const MAX_MUTE_MINUTES = 60 * 24 * 365 * 10;
/** Users muted or unmuted in one call at most (`target_ids`). */
const MAX_MUTE_TARGETS = 100;

/** `target_id`, or `target_ids` (a list): the users a mute or unmute is about. */
function targetIds(body: JsonObject): string[] {
  if (body.target_ids === undefined) return [requiredString(body.target_id, 'target_id or target_ids')];
  if (!Array.isArray(body.target_ids) || !body.target_ids.length || body.target_ids.length > MAX_MUTE_TARGETS) {
    throw ApiError.input(`target_ids must be a list of 1 to ${MAX_MUTE_TARGETS} user ids`);
  }
  return [...new Set(body.target_ids.map((id, i) => requiredString(id, `target_ids[${i}]`)))];
}

/** The users a mute is about: known users the policy lets the muter aim at. */
function targetsToMute(ctx: ServerContext, body: JsonObject, muter: UserActor): string[] {
  const targets = targetIds(body);
  for (const targetId of targets) {
    assertMayTarget(muter, 'mute-user', targetId);
    if (!ctx.store.users.get(targetId)) throw ApiError.input(`user ${targetId} does not exist`);
  }
  return targets;
}

export function moderationRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);
  const userOf = (c: Context<AppEnv>, body: JsonObject, action: string): UserActor =>
    requireUser(actorFor(ctx.store, c.get('subject'), namedUserId(body)), action);

  routes.post('/moderation/mute', auth, async (c) => {
    const body = await readJson(c);
    const actor = userOf(c, body, 'mute users');
    assertMayMuteUsers(ctx, actor);
    const targets = targetsToMute(ctx, body, actor);
    const minutes = boundedInt(body.timeout, 'timeout', { fallback: 0, min: 0, max: MAX_MUTE_MINUTES });
    const rows = muteUsers(ctx, actor.id, targets, minutes);
    const presenter = new Presenter(ctx);
    // One target (`target_id`): that mute and every mute in force; a list (`target_ids`): a mute for each.
    const response: MuteUserResponse = {
      ...(Array.isArray(body.target_ids) ? { mutes: rows.map((row) => presentMute(presenter, row)) } : { mute: presentMute(presenter, rows[0]!), mutes: activeMutes(ctx, presenter, actor.id).mutes }),
      own_user: presenter.ownUser(ctx.store.users.ensure(actor.id)),
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  routes.post('/moderation/unmute', auth, async (c) => {
    const body = await readJson(c);
    const actor = userOf(c, body, 'unmute users');
    unmuteUsers(ctx, actor.id, targetIds(body));
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  routes.post('/moderation/mute/channel', auth, async (c) => {
    const body = await readJson(c);
    const actor = userOf(c, body, 'mute channels');
    const channel = ctx.store.channels.get(requiredString(body.channel_cid, 'channel_cid'));
    if (!channel) throw ApiError.notFound(`channel ${String(body.channel_cid)} does not exist`);
    const access = accessTo(ctx, channel, actor);
    assertCanRead(channel, actor, access);
    assertCapability(channel, actor, access, 'mute-channel');
    const ms = boundedInt(body.expiration, 'expiration', { fallback: 0, min: 0, max: MAX_MUTE_MINUTES * 60_000 });
    const now = new Date();
    const expires = ms ? new Date(now.getTime() + ms).toISOString() : null;
    const row = ctx.store.mutes.muteChannel(actor.id, channel.cid, expires, now.toISOString());
    scheduleMuteExpiry(ctx);
    notifyMutesUpdated(ctx, actor.id, 'channel');
    const presenter = new Presenter(ctx);
    const response: MuteChannelAPIResponse = {
      channel_mute: presentChannelMute(ctx, presenter, row),
      channel_mutes: activeMutes(ctx, presenter, actor.id).channel_mutes,
      own_user: presenter.ownUser(ctx.store.users.ensure(actor.id)),
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  routes.post('/moderation/unmute/channel', auth, async (c) => {
    const body = await readJson(c);
    const actor = userOf(c, body, 'unmute channels');
    ctx.store.mutes.unmuteChannel(actor.id, requiredString(body.channel_cid, 'channel_cid'));
    scheduleMuteExpiry(ctx);
    notifyMutesUpdated(ctx, actor.id, 'channel');
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  // Flagging again updates the reason; unflagging something never flagged succeeds, as on the
  // provider (where /moderation/unflag is a no-op). Whether one's own message or user may be
  // flagged is the policy's (assertMayTarget): the server side may flag any message.
  routes.post('/moderation/flag', auth, async (c) => {
    const body = await readJson(c);
    const actor = userOf(c, body, 'flag');
    const reason = optionalString(body.reason, 'reason') ?? null;
    const now = new Date().toISOString();
    const messageId = optionalString(body.target_message_id, 'target_message_id');
    if (messageId) {
      const target = messageInReach(ctx, messageId, actor);
      assertCapability(target.channel, actor, target.access, 'flag-message');
      assertMayTarget(actor, 'flag-message', target.message.user_id);
      const created = !ctx.store.flags.get(actor.id, 'message', messageId);
      const row = ctx.store.flags.flag(actor.id, 'message', messageId, reason, now);
      if (created) notifyMessageFlagged(ctx, target.channel, target.message, actor.id);
      return sendJson({ ...messageFlag(ctx, row), duration: elapsed(c) } satisfies FlagMessageResponse);
    }
    const userId = requiredString(body.target_user_id, 'target_message_id or target_user_id');
    assertAppPermission(actor, appSettings(ctx), 'flag-user');
    assertMayTarget(actor, 'flag-user', userId);
    if (!ctx.store.users.get(userId)) throw ApiError.notFound(`user ${userId} does not exist`);
    const created = !ctx.store.flags.get(actor.id, 'user', userId);
    const row = ctx.store.flags.flag(actor.id, 'user', userId, reason, now);
    if (created) notifyUserFlagged(ctx, userId, actor.id);
    return sendJson({ ...userFlag(ctx, row), duration: elapsed(c) } satisfies FlagUserResponse);
  });

  routes.post('/moderation/unflag', auth, async (c) => {
    const body = await readJson(c);
    const actor = userOf(c, body, 'unflag');
    const messageId = optionalString(body.target_message_id, 'target_message_id');
    const kind = messageId ? 'message' : 'user';
    const targetId = messageId ?? requiredString(body.target_user_id, 'target_message_id or target_user_id');
    const now = new Date().toISOString();
    const row = ctx.store.flags.get(actor.id, kind, targetId) ?? {
      user_id: actor.id, target_kind: kind, target_id: targetId, reason: null, created_at: now, updated_at: now,
    };
    // The author's "flag" on a message automatic moderation marked is the automod's
    // (store/flags.ts): not theirs to lift.
    const message = kind === 'message' ? ctx.store.messages.get(targetId) : undefined;
    const automod = message?.user_id === actor.id && message.moderation !== null;
    if (!automod) ctx.store.flags.unflag(actor.id, kind, targetId);
    const flag = kind === 'message' ? messageFlag(ctx, row) : userFlag(ctx, row);
    return sendJson({ ...flag, duration: elapsed(c) });
  });

  return routes;
}

function messageFlag(ctx: ServerContext, row: FlagRow): Omit<FlagMessageResponse, 'duration'> {
  const message = ctx.store.messages.get(row.target_id);
  return {
    flag: {
      target_message_id: row.target_id,
      user: new Presenter(ctx).user(row.user_id),
      created_by_automod: false,
      ...(message ? { channel_cid: message.cid, message_user_id: message.user_id } : {}),
      ...(row.reason ? { details: { reason: row.reason } } : {}),
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
  };
}

function userFlag(ctx: ServerContext, row: FlagRow): Omit<FlagUserResponse, 'duration'> {
  const presenter = new Presenter(ctx);
  return {
    flag: {
      target_user: presenter.user(row.target_id),
      user: presenter.user(row.user_id),
      created_by_automod: false,
      ...(row.reason ? { details: { reason: row.reason } } : {}),
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
  };
}
