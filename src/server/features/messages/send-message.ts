// Sending a message, whoever sends it (a user's composer, a channel update's or truncation's
// accompanying message): checks, storage, and the events. The client generates the message id
// (MessageComposer uses a UUID) and the server keeps it, so the SDK can match its optimistic
// copy to the stored one; sending the same id twice is an input error.
import { randomUUID } from 'node:crypto';
import type { MessageResponse } from 'stream-chat';
import type { UserActor } from '../../auth/actor';
import { assertCapability } from '../../auth/channel-access';
import type { ServerContext } from '../../http/context';
import { prepareSend, type PreparedSend } from '../composer/send';
import { ApiError } from '../../http/errors';
import { idList, isObject, optionalBoolean, optionalString, withoutKeys, type JsonObject } from '../../http/input';
import { Presenter } from '../../present/presenter';
import { notifyChannelVisible } from '../../realtime/channel-events';
import { notifyMessageNew } from '../../realtime/notify';
import { publishMessageEvent } from '../../realtime/message-events';
import { recordThreadReply } from '../../realtime/thread-events';
import type { ChannelRow } from '../../store/channels';
import type { MessageRow } from '../../store/messages';

/** Message fields the server owns or stores in columns; everything else is custom data. */
export const NOT_CUSTOM = new Set([
  'id', 'text', 'type', 'attachments', 'mentioned_users', 'parent_id', 'show_in_channel',
  'quoted_message_id', 'quoted_message', 'user', 'user_id', 'cid', 'html', 'created_at', 'updated_at',
  'deleted_at', 'latest_reactions', 'own_reactions', 'reaction_counts', 'reaction_scores',
  'reaction_groups', 'reply_count', 'deleted_reply_count', 'thread_participants', 'i18n', 'status',
  'command', 'member', 'channel', 'pinned', 'pinned_at', 'pinned_by', 'pin_expires', 'shadowed',
  'mentioned_channel', 'mentioned_here', 'moderation', 'moderation_details', 'restricted_visibility',
  'shared_location', 'poll',
]);

export type SendOptions = {
  /** The request's `skip_push`: the message is delivered but no push notification is sent. */
  skipPush?: boolean;
  /** Members who hid the channel keep it hidden (a campaign sent without `show_channels`). */
  keepHidden?: boolean;
  /**
   * Sent pending (server-side `pending: true`): stored and answered, delivered to nobody until
   * it is committed (features/messages/pending-messages.ts), with the sender's metadata.
   */
  pending?: { metadata: Record<string, string> | null };
};

/** Sends `input` as `actor` in `row` and returns the message as the sender sees it. */
export function sendMessage(ctx: ServerContext, row: ChannelRow, actor: UserActor, input: JsonObject, options: SendOptions = {}): MessageResponse {
  // Commands, polls, locations, attachments and drafts: composer/send.ts.
  const prepared = prepareSend(ctx, row, actor, input);
  if (prepared.reply) return prepared.reply;
  const stored = ctx.store.transaction(() => {
    const message = storeMessage(ctx, row, actor, prepared, options.pending !== undefined);
    if (options.pending) ctx.store.pendingMessages.hold(message, options.pending.metadata, options.skipPush === true);
    prepared.save(message);
    return message;
  });
  // A pending message reaches nobody: no event, no counter, until it is committed.
  const message = stored.pending ? presentOne(ctx, stored, true) : deliverMessage(ctx, row, stored, options, true);
  prepared.after(stored);
  return message;
}

function presentOne(ctx: ServerContext, stored: MessageRow, justStored: boolean): MessageResponse {
  const [message] = new Presenter(ctx).messages([stored], justStored);
  if (!message) throw new Error('stored message vanished');
  return message;
}

/**
 * Delivers a stored message to the channel: message.new (and its change: webhooks, push, the
 * sync log), hidden channels shown again, the thread's participants and parent. Returns the
 * message as sent. Used by a send (`justStored`: stored in the same call, so without reactions
 * to look up), and by a commit of a pending message.
 */
export function deliverMessage(ctx: ServerContext, row: ChannelRow, stored: MessageRow, options: SendOptions = {}, justStored = false): MessageResponse {
  const message = presentOne(ctx, stored, justStored);
  const channel = ctx.store.channels.get(row.cid) ?? row;
  notifyMessageNew(ctx, channel, message, { skipPush: options.skipPush === true });
  // A new message brings a hidden channel back for everyone who hid it (not a shadowed one).
  if (!stored.shadowed && !options.keepHidden) {
    const shown = ctx.store.channelAdmin.unhideAll(channel.cid);
    if (shown.length) notifyChannelVisible(ctx, channel, shown);
  }
  // Thread participants and unread counts, before the parent is presented with them; a
  // shadowed reply exists for its author alone and changes neither.
  const threaded = stored.parent_id && !stored.shadowed ? stored.parent_id : undefined;
  if (threaded) recordThreadReply(ctx, channel, stored);
  // The parent's reply_count changed; the SDK only learns that from message.updated.
  const parent = threaded ? ctx.store.messages.get(threaded) : undefined;
  // Per receiver, so a Thread's parent keeps each user's own_reactions.
  if (parent) publishMessageEvent(ctx, channel, 'message.updated', parent, null);
  return message;
}

/** Stores the message prepareSend checked (capabilities, bans, a writable channel). */
function storeMessage(ctx: ServerContext, row: ChannelRow, actor: UserActor, { input, marks, access }: PreparedSend, pending = false): MessageRow {
  const { store } = ctx;
  const config = access.type.config;
  const parentId = optionalString(input.parent_id, 'message.parent_id') ?? null;
  const quotedId = optionalString(input.quoted_message_id, 'message.quoted_message_id') ?? null;
  if (parentId) assertCapability(row, actor, access, 'send-reply');
  if (quotedId) assertCapability(row, actor, access, 'quote-message');

  const id = optionalString(input.id, 'message.id') || randomUUID();
  if (id.length > 255) throw ApiError.input('message.id is longer than 255 characters');
  const text = optionalString(input.text, 'message.text') ?? '';
  const maxLength = config.max_message_length ?? 5000;
  if (text.length > maxLength) throw ApiError.input(`message.text is longer than ${maxLength} characters`);
  const type = optionalString(input.type, 'message.type') ?? 'regular';
  if (type !== 'regular' && !(actor.server && type === 'system')) {
    throw ApiError.input(`message.type "${type}" cannot be sent`);
  }
  const attachments = input.attachments ?? [];
  if (!Array.isArray(attachments) || !attachments.every(isObject)) {
    throw ApiError.input('message.attachments must be a list of objects');
  }
  if (!text.trim() && attachments.length === 0 && !input.poll_id && !input.shared_location) {
    throw ApiError.input('message text, attachments, a poll or a location is required');
  }
  // The provider's words: clients recognise a resend whose first try was stored by them.
  if (store.messages.get(id)) throw ApiError.input(`SendMessage failed with error: "a message with ID ${id} already exists"`);
  const parent = parentId ? store.messages.get(parentId) : undefined;
  if (parentId && parent?.cid !== row.cid) {
    throw ApiError.input(`parent message ${parentId} does not exist in this channel`);
  }
  const quoted = quotedId ? store.messages.get(quotedId) : undefined;
  if (quotedId && quoted?.cid !== row.cid) {
    throw ApiError.input(`quoted message ${quotedId} does not exist in this channel`);
  }
  // Nothing is built on a message others cannot see yet.
  if (parent?.pending || quoted?.pending) throw ApiError.input(`message ${parentId ?? quotedId} is pending: commit it first`);
  const mentioned = idList(input.mentioned_users, 'message.mentioned_users');
  const known = store.users.getMany(mentioned);
  const showInChannel = optionalBoolean(input.show_in_channel, 'message.show_in_channel') ?? false;
  const custom = withoutKeys(input, NOT_CUSTOM);
  const now = new Date().toISOString();

  return store.transaction(() => {
    const message = store.messages.add({
      id,
      cid: row.cid,
      userId: actor.id,
      type: parentId && type === 'regular' ? 'reply' : type,
      text,
      parentId,
      showInChannel,
      quotedMessageId: quotedId,
      mentionedUserIds: [...new Set(mentioned)].filter((userId) => known.has(userId)),
      attachments,
      custom,
      now,
      ...marks,
      pending,
    });
    // A shadowed message exists for its author alone: it moves no counters others see. A
    // pending one moves them when it is committed.
    if (!marks.shadowed && !pending) countMessage(ctx, row, message, config.read_events === true, access.member !== undefined);
    return message;
  });
}

/**
 * The counters a delivered message moves: the parent's reply count, the channel's
 * last_message_at, the sender's read state and everyone else's unread count (in the storing
 * transaction, or the commit's).
 */
export function countMessage(ctx: ServerContext, row: ChannelRow, message: MessageRow, readEvents: boolean, senderIsMember: boolean): void {
  const { store } = ctx;
  const inChannel = !message.parent_id || message.show_in_channel === 1;
  if (message.parent_id) store.messages.incrementReplyCount(message.parent_id);
  if (inChannel) store.channels.setLastMessageAt(row.cid, message.created_at);
  if (readEvents && inChannel) {
    // Sending reads the channel for the sender (the SDK assumes so on its own message.new);
    // everyone else has one more unread, unless the message is silent.
    if (senderIsMember) store.reads.markRead(row.cid, message.user_id, message.created_at, message.id);
    if ((JSON.parse(message.custom) as { silent?: unknown }).silent !== true) store.reads.incrementUnread(row.cid, message.user_id);
  }
}

