// Channel administration events: channel.updated / deleted / truncated to everyone watching
// (and the members, who may have it in a list), channel.hidden / visible to the member who hid
// it, and invitations to the invited user. Each is emitted once on the change feed.
import type { ChannelMemberResponse, ChannelResponse, Event, EventTypes, UserResponse } from 'stream-chat';
import { userActor, type Actor } from '../auth/actor';
import { accessTo } from '../auth/channel-access';
import type { ServerContext } from '../http/context';
import { presentChannel } from '../present/channel';
import { Presenter } from '../present/presenter';
import type { ChannelRow, MemberRow } from '../store/channels';
import { announceToChannel, announceToUsers } from './announce';
import { envelope, notifyAddedToChannel } from './notify';
import { stopWatching } from '../realtime/watching';

/**
 * The channel as events carry it: every receiver keeps their own `own_capabilities` (the SDK
 * keeps the old value when the field is missing), so it is left out.
 */
export function channelForEvents(ctx: ServerContext, row: ChannelRow, presenter = new Presenter(ctx)): ChannelResponse {
  const { own_capabilities: _own, ...channel } = presentChannel(presenter, row, accessTo(ctx, row, SERVER));
  return channel as ChannelResponse;
}

const SERVER: Actor = { id: null, role: 'admin', server: true, anonymous: false };

function event(
  ctx: ServerContext,
  type: EventTypes,
  row: ChannelRow,
  actorId: string | null,
  extra: Partial<Event> = {},
): Event {
  const presenter = new Presenter(ctx);
  return {
    type,
    ...envelope(row),
    channel: channelForEvents(ctx, row, presenter),
    ...(actorId ? { user: presenter.user(actorId) } : {}),
    channel_member_count: row.member_count,
    created_at: new Date().toISOString(),
    ...extra,
  };
}

export function notifyChannelUpdated(ctx: ServerContext, row: ChannelRow, actorId: string | null): void {
  announceToChannel(ctx, row.cid, event(ctx, 'channel.updated', row, actorId), ctx.store.channels.memberIds(row.cid));
}

export function notifyChannelTruncated(ctx: ServerContext, row: ChannelRow, actorId: string | null): void {
  announceToChannel(ctx, row.cid, event(ctx, 'channel.truncated', row, actorId));
}

/**
 * channel.deleted to watchers, notification.channel_deleted to members elsewhere (the SDK drops
 * the channel on either), then nobody watches it any more.
 */
export function notifyChannelDeleted(ctx: ServerContext, row: ChannelRow, memberIds: string[], actorId: string | null): void {
  const deleted = event(ctx, 'channel.deleted', row, actorId);
  const watchers = ctx.hub.registry.watchers(row.cid);
  ctx.changes.emit(deleted);
  ctx.hub.publish(watchers, deleted);
  const away = memberIds.flatMap((id) => ctx.hub.registry.ofUser(id)).filter((c) => !c.watching.has(row.cid));
  ctx.hub.publish(away, { ...deleted, type: 'notification.channel_deleted' });
  for (const connection of watchers) stopWatching(ctx, connection, row.cid);
}

export function notifyChannelHidden(ctx: ServerContext, row: ChannelRow, userId: string, clearHistory: boolean): void {
  announceToUsers(ctx, [userId], event(ctx, 'channel.hidden', row, userId, { clear_history: clearHistory }));
}

export function notifyChannelVisible(ctx: ServerContext, row: ChannelRow, userIds: string[]): void {
  for (const userId of userIds) announceToUsers(ctx, [userId], event(ctx, 'channel.visible', row, userId));
}

/**
 * A member's role changed, and with it what they may do: their own connections get the
 * channel with their new `own_capabilities` (the SDK takes them from channel.updated), so
 * their menus follow without reloading. Not a change of the channel: nothing is emitted.
 */
export function notifyOwnCapabilities(ctx: ServerContext, row: ChannelRow, userId: string): void {
  const user = ctx.store.users.get(userId);
  const connections = ctx.hub.registry.ofUser(userId);
  if (!user || !connections.length) return;
  const channel = presentChannel(new Presenter(ctx), row, accessTo(ctx, row, userActor(user)));
  ctx.hub.publish(connections, { type: 'channel.updated', ...envelope(row), channel, created_at: new Date().toISOString() });
}

type InviteEvent = 'notification.invited' | 'notification.invite_accepted' | 'notification.invite_rejected';

/** The invited user hears on every connection; watchers see the member change. */
export function notifyInvitation(ctx: ServerContext, row: ChannelRow, type: InviteEvent, member: MemberRow): void {
  const presenter = new Presenter(ctx);
  const user: UserResponse = presenter.user(member.user_id);
  const presented = presenter.member(member);
  announceToUsers(ctx, [member.user_id], event(ctx, type, row, member.user_id, { member: presented, user }));
  const memberEvent = type === 'notification.invited' ? 'member.added' : 'member.updated';
  announceToChannel(ctx, row.cid, { ...envelope(row), type: memberEvent, member: presented, user, created_at: new Date().toISOString() });
}

/**
 * A channel just made, heard: each added member by notification.added_to_channel, each
 * invited one by notification.invited, and webhooks by channel.created (a client's create and
 * a campaign's alike).
 */
export function announceChannelCreated(ctx: ServerContext, row: ChannelRow, others: string[], invited: string[], creatorId: string, now: string) {
  const presenter = new Presenter(ctx);
  const members = new Map<string, ChannelMemberResponse>();
  for (const memberId of others) {
    const member = ctx.store.channels.member(row.cid, memberId);
    if (member) members.set(memberId, presenter.member(member));
  }
  notifyAddedToChannel(ctx, row, others, members);
  for (const userId of invited) {
    const member = ctx.store.channels.member(row.cid, userId);
    if (member) announceToUsers(ctx, [userId], event(ctx, 'notification.invited', row, userId, { member: presenter.member(member), user: presenter.user(userId) }));
  }
  ctx.changes.emit({ type: 'channel.created', ...envelope(row), channel: channelForEvents(ctx, row, presenter), user: presenter.user(creatorId), created_at: now });
}
