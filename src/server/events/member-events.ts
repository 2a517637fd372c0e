// Membership events. Watchers of the channel see member.added / member.removed / member.updated;
// the users concerned also hear on every connection (watching or not): added users get
// notification.added_to_channel, removed ones notification.removed_from_channel (the SDK then
// evicts the channel, and the server stops sending them its events), and a member's own
// pinned/archived change reaches ChannelManager as member.updated with channel_type/channel_id.
import type { ChannelMemberResponse, Event } from 'stream-chat';
import type { ServerContext } from '../http/context';
import { Presenter } from '../present/presenter';
import type { ChannelRow, MemberRow } from '../store/channels';
import { envelope, notifyAddedToChannel } from './notify';
import type { Connection } from '../realtime/registry';
import { stopWatching } from '../realtime/watching';

export function notifyMembersAdded(ctx: ServerContext, channel: ChannelRow, rows: MemberRow[]): void {
  const presenter = new Presenter(ctx);
  const members = new Map<string, ChannelMemberResponse>(rows.map((row) => [row.user_id, presenter.member(row)]));
  for (const [userId, member] of members) {
    const event = memberEvent('member.added', channel, member, presenter.user(userId));
    ctx.changes.emit(event);
    ctx.hub.toChannel(channel.cid, event);
  }
  notifyAddedToChannel(ctx, channel, [...members.keys()], members);
}

export function notifyMembersRemoved(ctx: ServerContext, channel: ChannelRow, rows: MemberRow[]): void {
  const presenter = new Presenter(ctx);
  for (const row of rows) {
    const member = presenter.member(row);
    const user = presenter.user(row.user_id);
    const event = memberEvent('member.removed', channel, member, user);
    ctx.changes.emit(event);
    ctx.hub.toChannel(channel.cid, event);
    const connections = ctx.hub.registry.ofUser(row.user_id);
    ctx.hub.publish(connections, memberEvent('notification.removed_from_channel', channel, member, user));
    for (const connection of connections) stopWatching(ctx, connection, channel.cid);
  }
}

export function notifyMemberUpdated(ctx: ServerContext, channel: ChannelRow, row: MemberRow): void {
  const presenter = new Presenter(ctx);
  const event = memberEvent('member.updated', channel, presenter.member(row), presenter.user(row.user_id));
  const audience = new Set<Connection>([...ctx.hub.registry.watchers(channel.cid), ...ctx.hub.registry.ofUser(row.user_id)]);
  ctx.changes.emit(event);
  ctx.hub.publish(audience, event);
}

function memberEvent(
  type: 'member.added' | 'member.removed' | 'member.updated' | 'notification.removed_from_channel',
  channel: ChannelRow,
  member: ChannelMemberResponse,
  user: Event['user'],
): Event {
  return {
    type,
    ...envelope(channel),
    member,
    user,
    channel_member_count: channel.member_count,
    created_at: new Date().toISOString(),
  };
}
