// The parts of `me` (health.check, notification.mutes_updated, …) beyond the user itself: active
// user and channel mutes, which the SDK reads only from `me` (client.mutedUsers / mutedChannels),
// never from the mute endpoints' responses.
import type { ChannelMute, Mute } from 'stream-chat';
import { userActor } from '../auth/actor';
import { accessTo } from '../auth/channel-access';
import { presentChannel } from './channel';
import type { ServerContext } from '../http/context';
import type { UserPresenter } from './users';
import type { ChannelMuteRow, UserMuteRow } from '../store/mutes';

export function presentMute(presenter: UserPresenter, row: UserMuteRow): Mute & { expires?: string } {
  return {
    user: presenter.user(row.user_id),
    target: presenter.user(row.target_id),
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.expires ? { expires: row.expires } : {}),
  };
}

export function presentChannelMute(ctx: ServerContext, presenter: UserPresenter, row: ChannelMuteRow): ChannelMute {
  const channel = ctx.store.channels.get(row.cid);
  const user = ctx.store.users.get(row.user_id);
  return {
    user: presenter.user(row.user_id),
    ...(channel && user ? { channel: presentChannel(presenter, channel, accessTo(ctx, channel, userActor(user))) } : {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.expires ? { expires: row.expires } : {}),
  };
}

export function activeMutes(ctx: ServerContext, presenter: UserPresenter, userId: string) {
  const now = new Date().toISOString();
  return {
    mutes: ctx.store.mutes.userMutes(userId, now).map((row) => presentMute(presenter, row)),
    channel_mutes: ctx.store.mutes.channelMutes(userId, now).map((row) => presentChannelMute(ctx, presenter, row)),
  };
}
