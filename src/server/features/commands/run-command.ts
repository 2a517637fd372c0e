// Running slash commands on send. A message whose text starts with `/name` (the SDK's
// command-injection middleware writes it so) or that carries `command` runs that command:
// - `/mute @user`, `/unmute @user`: the sender's own mute list (notification.mutes_updated);
// - `/ban @user [reason]`, `/unban @user`: channel bans, for those with `ban-channel-members`;
// - `/giphy`: its service is unreachable offline.
// Like the provider, a built-in answers only the sender: the HTTP response carries an
// `ephemeral` confirmation or an `error` message, nothing is stored and nobody else is told
// (except by the ban events). Custom commands (`/commands`) are sent as ordinary messages;
// an unknown command is an input error.
import { randomUUID } from 'node:crypto';
import type { Event, MessageLabel, MessageResponse, UserResponse } from 'stream-chat';
import type { UserActor } from '../../auth/actor';
import { accessTo } from '../../auth/channel-access';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { idList, type JsonObject } from '../../http/input';
import { Presenter } from '../../present/presenter';
import { envelope } from '../../realtime/notify';
import { notifyMutesUpdated } from '../../realtime/user-notifications';
import type { ChannelRow } from '../../store/channels';
import type { UserRow } from '../../store/users';
import { BUILTIN_NAMES, channelCommands } from './command-list';

const COMMAND_TEXT = /^\/([A-Za-z0-9_-]+)(?:\s+([\s\S]*))?$/;

type Reply = (type: MessageLabel, text: string) => MessageResponse;

/** The reply to send back instead of storing the message, or undefined to store it as usual. */
export function runCommand(ctx: ServerContext, channel: ChannelRow, actor: UserActor, input: JsonObject): MessageResponse | undefined {
  const text = typeof input.text === 'string' ? input.text.trim() : '';
  const match = COMMAND_TEXT.exec(text);
  const name = (typeof input.command === 'string' && input.command ? input.command : match?.[1])?.toLowerCase();
  if (!name) return undefined;
  const known: string[] = channelCommands(ctx.store).flatMap((command) => (command.name ? [command.name] : []));
  if (!known.includes(name)) {
    throw ApiError.input(`/${name} is not a command in ${channel.type} channels (try ${known.map((n) => `/${n}`).join(', ')})`);
  }
  if (!BUILTIN_NAMES.has(name)) return undefined;

  const args = match?.[1]?.toLowerCase() === name ? (match[2] ?? '').trim() : text;
  const presenter = new Presenter(ctx, actor.id);
  const reply: Reply = (type, replyText) => replyMessage(presenter, channel, actor, input, name, type, replyText);
  if (name === 'giphy') {
    return reply('error', 'GIPHY is not available: this backend works offline and cannot reach the GIPHY service.');
  }
  const target = resolveTarget(ctx, args, idList(input.mentioned_users, 'message.mentioned_users'));
  if (!target) return reply('error', `/${name} needs a user: /${name} @user`);
  if (target.id === actor.id) return reply('error', `You cannot ${name} yourself.`);
  const targetName = target.name ?? target.id;
  const now = new Date().toISOString();

  switch (name) {
    case 'mute':
      ctx.store.mutes.muteUser(actor.id, target.id, null, now);
      notifyMutesUpdated(ctx, actor.id, 'user');
      return reply('ephemeral', `${targetName} has been muted.`);
    case 'unmute':
      ctx.store.mutes.unmuteUser(actor.id, target.id);
      notifyMutesUpdated(ctx, actor.id, 'user');
      return reply('ephemeral', `${targetName} has been unmuted.`);
    case 'ban':
    case 'unban': {
      if (!accessTo(ctx, channel, actor).capabilities.includes('ban-channel-members')) {
        return reply('error', `You are not allowed to ${name} users in this channel.`);
      }
      const reason = args.replace(/^@?\S+\s*/, '').trim() || null;
      if (name === 'ban') {
        ctx.store.bans.ban({ cid: channel.cid, user_id: target.id, created_by_id: actor.id, reason, expires: null, created_at: now });
      } else {
        ctx.store.bans.unban(channel.cid, target.id);
      }
      // The provider's ban events also name who banned (not in the SDK's Event type).
      const event: Event & { created_by: UserResponse } = {
        type: name === 'ban' ? 'user.banned' : 'user.unbanned',
        ...envelope(channel),
        user: presenter.user(target.id),
        created_by: presenter.user(actor.id),
        ...(name === 'ban' && reason ? { reason } : {}),
        created_at: now,
      };
      ctx.hub.toChannel(channel.cid, event);
      return reply('ephemeral', `${targetName} has been ${name === 'ban' ? 'banned' : 'unbanned'} from this channel.`);
    }
  }
  return undefined;
}

/**
 * Who `@user` means: the first mentioned user (the composer's mention keeps the id even when
 * the text shows a name with spaces), else the user whose id is the first word.
 */
function resolveTarget(ctx: ServerContext, args: string, mentioned: string[]): UserRow | undefined {
  for (const id of mentioned) {
    const user = ctx.store.users.get(id);
    if (user) return user;
  }
  const word = /^@?(\S+)/.exec(args)?.[1];
  return word ? ctx.store.users.get(word) : undefined;
}

function replyMessage(
  presenter: Presenter,
  channel: ChannelRow,
  actor: UserActor,
  input: JsonObject,
  command: string,
  type: MessageLabel,
  text: string,
): MessageResponse {
  const now = new Date().toISOString();
  const user: UserResponse = presenter.user(actor.id);
  return {
    id: typeof input.id === 'string' && input.id ? input.id : randomUUID(),
    cid: channel.cid,
    type,
    text,
    html: '',
    command,
    user,
    attachments: [],
    mentioned_users: [],
    latest_reactions: [],
    own_reactions: [],
    reaction_counts: {},
    reaction_scores: {},
    reply_count: 0,
    silent: false,
    shadowed: false,
    pinned: false,
    ...(typeof input.parent_id === 'string' && input.parent_id ? { parent_id: input.parent_id } : {}),
    created_at: now,
    updated_at: now,
  };
}
