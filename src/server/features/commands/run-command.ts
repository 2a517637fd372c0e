// Running slash commands on send. A message whose text starts with `/name` (the SDK's
// command-injection middleware writes it so) or that carries `command` runs that command:
// - `/mute @user`, `/unmute @user`: the sender's own mute list, as `/moderation/mute` keeps it
//   (features/moderation/user-mutes.ts);
// - `/ban @user [reason]`, `/unban @user`: channel bans, as `/moderation/ban` makes them
//   (features/moderation/bans.ts);
// - `/giphy cats`: with a Giphy API configured, the preview of a GIF only the sender sees, with
//   Send, Shuffle and Cancel (features/commands/giphy-*.ts); without one, an error: GIPHY is not available.
// Like the provider, a built-in answers only the sender: the HTTP response carries an
// `ephemeral` confirmation or an `error` message, nothing is stored and nobody else is told
// (except by the ban events). Custom commands (`/commands`) are sent as ordinary messages;
// an unknown command is an input error.
import type { MessageLabel, MessageResponse } from 'stream-chat';
import type { UserActor } from '../../auth/actor';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { idList, type JsonObject } from '../../http/input';
import { Presenter } from '../../present/presenter';
import type { ChannelRow } from '../../store/channels';
import type { UserRow } from '../../store/users';
import { senderReply } from '../messages/sender-reply';
import { banUser, mayBan, unbanUser } from '../moderation/bans';
import { mayMuteUsers, muteUsers, unmuteUsers } from '../moderation/user-mutes';
import { channelSettings } from '../../auth/channel-access';
import { typeCommands } from '../../auth/channel-types';
import { BUILTIN_NAMES, channelCommands } from '../../present/commands';
import { giphyReply } from './giphy-previews';

const COMMAND_TEXT = /^\/([A-Za-z0-9_-]+)(?:\s+([\s\S]*))?$/;

type Reply = (type: MessageLabel, text: string) => MessageResponse;

/** The reply to send back instead of storing the message, or undefined to store it as usual. */
export function runCommand(ctx: ServerContext, channel: ChannelRow, actor: UserActor, input: JsonObject): MessageResponse | undefined {
  const text = typeof input.text === 'string' ? input.text.trim() : '';
  const match = COMMAND_TEXT.exec(text);
  const typed = typeof input.command === 'string' && input.command ? input.command : match?.[1];
  if (!typed) return undefined;
  // The channel type says which of the app's commands its channels offer. A custom command's
  // name keeps its capitals (OrderStatus); typed in another case, it still finds it.
  const offered = typeCommands(channelSettings(ctx, channel).config, channelCommands(ctx.store));
  const known: string[] = offered.flatMap((command) => (command.name ? [command.name] : []));
  const name = known.find((n) => n === typed) ?? known.find((n) => n.toLowerCase() === typed.toLowerCase());
  if (!name) {
    throw ApiError.input(`/${typed} is not a command in ${channel.type} channels (try ${known.map((n) => `/${n}`).join(', ')})`);
  }
  if (!BUILTIN_NAMES.has(name)) return undefined;

  const args = match?.[1]?.toLowerCase() === name ? (match[2] ?? '').trim() : text;
  const presenter = new Presenter(ctx, actor.id);
  const reply: Reply = (type, replyText) => senderReply(presenter, channel, actor, input, { type, text: replyText, command: name });
  if (name === 'giphy') {
    return giphyReply(ctx, presenter, channel, actor, input, args) ?? reply('error', 'GIPHY is not available: this backend works offline and cannot reach the GIPHY service.');
  }
  const target = resolveTarget(ctx, args, idList(input.mentioned_users, 'message.mentioned_users'));
  if (!target) return reply('error', `/${name} needs a user: /${name} @user`);
  if (target.id === actor.id) return reply('error', `You cannot ${name} yourself.`);
  const targetName = target.name ?? target.id;

  switch (name) {
    case 'mute':
      if (!mayMuteUsers(ctx, actor)) return reply('error', 'You are not allowed to mute users.');
      muteUsers(ctx, actor.id, [target.id], 0);
      return reply('ephemeral', `${targetName} has been muted.`);
    case 'unmute':
      unmuteUsers(ctx, actor.id, [target.id]);
      return reply('ephemeral', `${targetName} has been unmuted.`);
    case 'ban':
    case 'unban': {
      if (!mayBan(ctx, actor, channel)) return reply('error', `You are not allowed to ${name} users in this channel.`);
      if (name === 'ban') {
        const reason = args.replace(/^@?\S+\s*/, '').trim() || null;
        banUser(ctx, { targetId: target.id, channel, bannedById: actor.id, reason, timeout: 0, shadow: false });
      } else {
        unbanUser(ctx, target.id, channel);
      }
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
