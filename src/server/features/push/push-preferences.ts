// Whether a receiver wants a push for a message: their push preferences (their own level,
// overridden by the channel's; `disabled_until` on either snoozes), their channel mutes and user
// mutes. `mentions` (the provider's deprecated name) means `direct_mentions`.
import type { ServerContext } from '../../http/context';

export const CHAT_LEVELS = ['all', 'mentions', 'direct_mentions', 'all_mentions', 'none', 'default'];
export const CALL_LEVELS = ['all', 'none', 'default'];

export type PushMessage = { cid: string; senderId: string; mentioned: string[]; mentionsEveryone: boolean };

export function wantsPush(ctx: ServerContext, userId: string, message: PushMessage, now: string): boolean {
  const { user, channel } = ctx.store.pushPreferences.forChannel(userId, message.cid);
  if ((user?.disabled_until && user.disabled_until > now) || (channel?.disabled_until && channel.disabled_until > now)) return false;
  const channelLevel = channel?.chat_level && channel.chat_level !== 'default' ? channel.chat_level : undefined;
  const level = channelLevel ?? (user?.chat_level && user.chat_level !== 'default' ? user.chat_level : 'all');
  if (level === 'none') return false;
  const mentioned = message.mentioned.includes(userId);
  if ((level === 'mentions' || level === 'direct_mentions') && !mentioned) return false;
  if (level === 'all_mentions' && !mentioned && !message.mentionsEveryone) return false;
  if (ctx.store.mutes.channelMutes(userId, now).some((mute) => mute.cid === message.cid)) return false;
  return !ctx.store.mutes.userMutes(userId, now).some((mute) => mute.target_id === message.senderId);
}
