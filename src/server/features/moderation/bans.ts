// Bans, whoever asks for them (`POST`/`DELETE /moderation/ban`, the `/ban` and `/unban` slash
// commands): who may ban, the ban itself with its user.banned / user.unbanned event, and what a
// ban forbids. A channel ban needs `ban-channel-member` there (moderators have it, channel
// owners through its -owner grant); an app-wide ban needs the app permission `ban-user`.
import type { Event, UserResponse } from 'stream-chat';
import type { Actor } from '../../auth/actor';
import { mayInChannel } from '../../auth/channel-access';
import { allowedInApp, notAllowed } from '../../auth/policy';
import { appSettings } from '../../infra/app-settings';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { Presenter } from '../../present/presenter';
import { announceToChannel, announceToUsers } from '../../events/announce';
import { envelope } from '../../events/notify';
import type { BanRow } from '../../store/bans';
import type { ChannelRow } from '../../store/channels';

export type BanRequest = {
  targetId: string;
  /** null: banned from the whole app. */
  channel: ChannelRow | null;
  bannedById: string | null;
  reason: string | null;
  /** Minutes until the ban lifts by itself; 0: until unbanned. */
  timeout: number;
  shadow: boolean;
};

export function mayBan(ctx: ServerContext, actor: Actor, channel: ChannelRow | null): boolean {
  return channel ? mayInChannel(ctx, channel, actor, 'ban-channel-member') : allowedInApp(actor, appSettings(ctx), 'ban-user');
}

/** The provider's 403 (code 17) unless the actor may ban (and unban) in that scope. */
export function assertMayBan(ctx: ServerContext, actor: Actor, channel: ChannelRow | null): void {
  if (!mayBan(ctx, actor, channel)) {
    throw channel ? notAllowed(actor, 'ban-channel-member', channel.type) : notAllowed(actor, 'ban-user', 'app');
  }
}

export function banUser(ctx: ServerContext, request: BanRequest): void {
  const now = new Date();
  const row: BanRow = {
    cid: request.channel?.cid ?? null,
    user_id: request.targetId,
    created_by_id: request.bannedById,
    reason: request.reason,
    expires: request.timeout ? new Date(now.getTime() + request.timeout * 60_000).toISOString() : null,
    shadow: request.shadow ? 1 : 0,
    created_at: now.toISOString(),
  };
  ctx.store.bans.ban(row);
  const presenter = new Presenter(ctx);
  announceBan(ctx, request.channel, row.user_id, {
    type: 'user.banned',
    user: presenter.user(row.user_id),
    ...(row.created_by_id ? { created_by: presenter.user(row.created_by_id) } : {}),
    ...(row.reason ? { reason: row.reason } : {}),
    ...(row.expires ? { expiration: row.expires } : {}),
    shadow: request.shadow,
    created_at: row.created_at,
  });
}

/** Lifts the ban (shadow or not) in that scope; lifting none tells nobody. */
/** Lifts the ban; `shadowOnly` (removeShadowBan) leaves a full ban in place. */
export function unbanUser(ctx: ServerContext, targetId: string, channel: ChannelRow | null, shadowOnly = false): void {
  const current = channel ? ctx.store.bans.inChannel(channel.cid, targetId) : ctx.store.bans.global(targetId);
  if (shadowOnly && current && !current.shadow) return;
  const lifted = ctx.store.bans.unban(channel?.cid ?? null, targetId);
  if (!lifted) return;
  announceBan(ctx, channel, targetId, {
    type: 'user.unbanned',
    user: new Presenter(ctx).user(targetId),
    shadow: lifted.shadow === 1,
    created_at: new Date().toISOString(),
  });
}

/**
 * Refuses the writes (messages, reactions, typing and custom events) of a banned user. Returns
 * whether what they send is shadowed (a shadow ban in force), so a send asks once.
 */
export function assertNotBanned(ctx: ServerContext, channel: ChannelRow, userId: string): { shadowed: boolean } {
  const ban = ctx.store.bans.applying(channel.cid, userId);
  if (ban && !ban.shadow) {
    throw ApiError.notAllowed(ban.cid ? 'You are banned from this channel' : `user ${userId} is banned from this app`);
  }
  return { shadowed: ban?.shadow === 1 };
}

// The provider's ban events name who banned, why and until when (not in the SDK's Event type).
type BanEvent = Event & { created_by?: UserResponse; reason?: string; expiration?: string };

/**
 * A channel ban is told to the channel's watchers and the banned user; an app-wide one to the
 * banned user and whoever watches a channel they belong to. A shadow ban is a secret from
 * everyone in the chat, the banned user first: it goes to the change feed (webhooks) only.
 */
function announceBan(ctx: ServerContext, channel: ChannelRow | null, targetId: string, event: BanEvent): void {
  if (event.shadow) {
    ctx.changes.emit(channel ? { ...event, ...envelope(channel) } : event);
    return;
  }
  if (channel) {
    announceToChannel(ctx, channel.cid, { ...event, ...envelope(channel) }, [targetId]);
    return;
  }
  const watchers = ctx.store.memberships.channelsOf(targetId).flatMap((cid) => ctx.hub.registry.watcherUserIds(cid));
  announceToUsers(ctx, [targetId, ...watchers], event);
}
