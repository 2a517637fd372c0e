// Whether a user may send in a channel now: asked before anything else a send does (prepareSend,
// and a /giphy's search before it). Its own module, so the command's search can ask it without
// importing the send path that runs the commands.
import type { UserActor } from '../../auth/actor';
import { accessTo, assertCapability, mayInChannel, type ChannelAccess } from '../../auth/channel-access';
import { assertNotBanned } from '../moderation/bans';
import type { ServerContext } from '../../http/context';
import { ApiError, ErrorCode } from '../../http/errors';
import type { ChannelRow } from '../../store/channels';

/**
 * Whether the actor may send in the channel now (capability, a disabled or frozen channel, slow
 * mode, bans, a block in a direct conversation); throws the provider's error if not. Asked
 * before anything else a send does, a /giphy's search included. Says too whether what they
 * send is shadowed (a shadow ban).
 */
export function assertMaySend(ctx: ServerContext, channel: ChannelRow, actor: UserActor): { access: ChannelAccess; shadowed: boolean } {
  const access = accessTo(ctx, channel, actor);
  assertCapability(channel, actor, access, 'send-message');
  assertWritable(ctx, channel, actor, access);
  const { shadowed } = assertNotBanned(ctx, channel, actor.id);
  assertNotBlockedInDirectChannel(ctx, channel, actor.id);
  return { access, shadowed };
}

/**
 * A direct conversation (two members) between users one of whom blocked the other takes no
 * new messages from either.
 */
function assertNotBlockedInDirectChannel(ctx: ServerContext, channel: ChannelRow, senderId: string): void {
  if (channel.member_count !== 2) return;
  const other = ctx.store.channels.memberIds(channel.cid).find((id) => id !== senderId);
  if (other && ctx.store.blocks.betweenEither(senderId, other)) {
    throw ApiError.notAllowed(`messages between ${senderId} and ${other} are blocked in the direct conversation ${channel.cid}`);
  }
}

/**
 * A disabled channel takes no messages; a frozen one only from those granted
 * use-frozen-channel; slow mode lets a user send once per `cooldown` seconds unless they may
 * skip it.
 */
function assertWritable(ctx: ServerContext, row: ChannelRow, actor: UserActor, access: ChannelAccess): void {
  if (row.disabled) throw ApiError.notAllowed(`channel ${row.cid} is disabled`);
  if (row.frozen && !mayInChannel(ctx, row, actor, 'use-frozen-channel')) {
    throw ApiError.notAllowed(`channel ${row.cid} is frozen: no new messages until it is unfrozen`);
  }
  if (!row.cooldown || access.has('skip-slow-mode')) return;
  const last = ctx.store.messageQueries.lastSentAt(row.cid, actor.id);
  const waitMs = last ? Date.parse(last) + row.cooldown * 1000 - Date.now() : 0;
  if (waitMs > 0) {
    throw new ApiError(ErrorCode.CoolDown, `slow mode: you can send one message every ${row.cooldown} s; wait ${Math.ceil(waitMs / 1000)} s`, 403);
  }
}
