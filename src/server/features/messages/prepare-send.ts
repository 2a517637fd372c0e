// The first step of a send (send-message.ts): every check, before anything is written. The
// sender's capabilities and a channel that takes messages (may-send.ts), slash commands run (and
// may answer instead of storing), the channel type's blocklist blocks or flags the text, the id
// settled, attachments capped at 10 and images given their size, a poll checked, a shared
// location validated; then the message's own fields. The order is the order the errors come in.
import { randomUUID } from 'node:crypto';
import type { MessageResponse } from 'stream-chat';
import type { UserActor } from '../../auth/actor';
import { assertCapability, visibleMessages, type ChannelAccess } from '../../auth/channel-access';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { idList, optionalBoolean, optionalString, withoutKeys, type JsonObject } from '../../http/input';
import { Presenter } from '../../present/presenter';
import type { ChannelRow } from '../../store/channels';
import type { MessageRow, NewMessage } from '../../store/messages';
import { restrictedTo } from '../../store/visibility';
import { runCommand } from '../commands/run-command';
import { parseLocation, type LocationInput } from './shared-location';
import { blockedReply, blocklistVerdict, moderationMark } from '../moderation/blocklist-check';
import { attachmentList, withUploadDimensions } from '../uploads/attachments';
import { assertMaySend } from './may-send';
import { NOT_CUSTOM } from './message-fields';

/** A send that passed every check: what the store and the delivery steps need. */
export type SendPlan = {
  /** The message to store, with its id (the client's, or one minted here) and moderation's marks. */
  message: Omit<NewMessage, 'pending'>;
  /** The sender's access to the channel, as checked here. */
  access: ChannelAccess;
  /** The blocklist flagged the text: the flag is filed and moderators told. */
  flagged: boolean;
  /** The poll the message carries. */
  pollId?: string;
  /** The location the message shares. */
  location?: LocationInput;
};

/** A command's answer, or a message the blocklist refused: sent back to the sender, nothing stored. */
export type PreparedSend = { reply: MessageResponse } | { plan: SendPlan };

export function prepareSend(ctx: ServerContext, channel: ChannelRow, actor: UserActor, raw: JsonObject): PreparedSend {
  const { store } = ctx;
  const { access, shadowed } = assertMaySend(ctx, channel, actor);
  // Only the users listed (and the author) see it; the list cannot change once sent.
  const restricted = idList(raw.restricted_visibility, 'message.restricted_visibility');
  if (restricted.length) assertCapability(channel, actor, access, 'send-restricted-visibility-message');
  const reply = runCommand(ctx, channel, actor, raw);
  if (reply) return { reply };

  // The provider leaves messages sent server-side unmoderated (unless force_moderation, which
  // the message alone does not carry).
  const scanned = typeof raw.text === 'string' ? raw.text : '';
  const verdict = actor.server ? undefined : blocklistVerdict(store, access.type.config, scanned);
  if (verdict?.behavior === 'block') return { reply: blockedReply(new Presenter(ctx, actor.id), channel, actor, raw, scanned) };

  // The id is settled here, once, so the location can name its message before the message exists.
  const id = optionalString(raw.id, 'message.id') || randomUUID();
  const attachments = raw.attachments === undefined ? [] : withUploadDimensions(store, attachmentList(raw.attachments, 'message.attachments'));

  const pollId = optionalString(raw.poll_id, 'message.poll_id');
  if (pollId) {
    assertCapability(channel, actor, access, 'send-poll');
    const poll = store.polls.get(pollId);
    if (!poll) throw ApiError.input(`poll ${pollId} does not exist`);
    if (poll.created_by_id !== actor.id) throw ApiError.input(`poll ${pollId} can only be sent by the user who created it`);
    if (poll.message_id) throw ApiError.input(`poll ${pollId} is already sent in message ${poll.message_id}`);
  }

  let location: LocationInput | undefined;
  if (raw.shared_location !== undefined && raw.shared_location !== null) {
    assertCapability(channel, actor, access, 'share-location');
    location = parseLocation(raw.shared_location, id);
  }

  const marks = {
    shadowed: shadowed || verdict?.behavior === 'shadow_block',
    moderation: verdict ? moderationMark(verdict) : null,
  };
  const message = { ...messageFields(ctx, channel, actor, access, raw, id, attachments, restricted), ...marks };
  return { plan: { message, access, flagged: verdict !== undefined, ...(pollId ? { pollId } : {}), ...(location ? { location } : {}) } };
}

/** The message's own fields, checked: replies and quotes allowed, sizes, type, content, references. */
function messageFields(
  ctx: ServerContext,
  channel: ChannelRow,
  actor: UserActor,
  access: ChannelAccess,
  raw: JsonObject,
  id: string,
  attachments: JsonObject[],
  restricted: string[],
): Omit<NewMessage, 'pending' | 'shadowed' | 'moderation'> {
  const { store } = ctx;
  const config = access.type.config;
  const parentId = optionalString(raw.parent_id, 'message.parent_id') ?? null;
  const quotedId = optionalString(raw.quoted_message_id, 'message.quoted_message_id') ?? null;
  if (parentId) assertCapability(channel, actor, access, 'send-reply');
  if (quotedId) assertCapability(channel, actor, access, 'quote-message');

  if (id.length > 255) throw ApiError.input('message.id is longer than 255 characters');
  const text = optionalString(raw.text, 'message.text') ?? '';
  const maxLength = config.max_message_length ?? 5000;
  if (text.length > maxLength) throw ApiError.input(`message.text is longer than ${maxLength} characters`);
  const type = optionalString(raw.type, 'message.type') ?? 'regular';
  if (type !== 'regular' && !(actor.server && type === 'system')) {
    throw ApiError.input(`message.type "${type}" cannot be sent`);
  }
  if (!text.trim() && attachments.length === 0 && !raw.poll_id && !raw.shared_location) {
    throw ApiError.input('message text, attachments, a poll or a location is required');
  }
  // The provider's words: clients recognise a resend whose first try was stored by them.
  if (store.messages.get(id)) throw ApiError.input(`SendMessage failed with error: "a message with ID ${id} already exists"`);
  const parent = parentId ? store.messages.get(parentId) : undefined;
  if (parentId && parent?.cid !== channel.cid) {
    throw ApiError.input(`parent message ${parentId} does not exist in this channel`);
  }
  const quoted = quotedId ? store.messages.get(quotedId) : undefined;
  if (quotedId && quoted?.cid !== channel.cid) {
    throw ApiError.input(`quoted message ${quotedId} does not exist in this channel`);
  }
  // Nothing is built on a message others cannot see yet, nor on one the sender may not see.
  if (parent?.pending || quoted?.pending) throw ApiError.input(`message ${parentId ?? quotedId} is pending: commit it first`);
  const unseen = [parent, quoted].find((row) => row && !visibleMessages(ctx, channel, actor, access.member, [row]).length);
  if (unseen) throw ApiError.input(`${unseen === parent ? 'parent' : 'quoted'} message ${unseen.id} does not exist in this channel`);
  const restrictedVisibility = audienceOf(actor.id, restricted, [parent, quoted]);
  const mentioned = idList(raw.mentioned_users, 'message.mentioned_users');
  const known = store.users.getMany(mentioned);
  return {
    id,
    cid: channel.cid,
    userId: actor.id,
    type: parentId && type === 'regular' ? 'reply' : type,
    text,
    parentId,
    showInChannel: optionalBoolean(raw.show_in_channel, 'message.show_in_channel') ?? false,
    quotedMessageId: quotedId,
    mentionedUserIds: [...new Set(mentioned)].filter((userId) => known.has(userId)),
    attachments,
    custom: withoutKeys(raw, NOT_CUSTOM),
    now: new Date().toISOString(),
    ...(restrictedVisibility ? { restrictedVisibility } : {}),
  };
}

/**
 * Who besides the sender sees the message (null: everyone): those it lists, narrowed to who may
 * see the message it replies to or quotes, so that a reply or a quote never shows a restricted
 * message to anyone it was not for. Nobody left: the sender alone.
 */
function audienceOf(senderId: string, listed: string[], sources: Array<MessageRow | undefined>): string[] | null {
  let allowed: Set<string> | null = listed.length ? new Set([...listed, senderId]) : null;
  for (const source of sources) {
    const limited = source ? restrictedTo(source) : null;
    if (!source || !limited) continue;
    const audience = new Set([...limited, source.user_id]);
    allowed = new Set([...(allowed ?? audience)].filter((userId) => audience.has(userId)));
  }
  if (!allowed) return null;
  allowed.delete(senderId);
  return allowed.size ? [...allowed] : [senderId];
}
