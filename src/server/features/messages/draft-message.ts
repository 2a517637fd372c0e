// Drafts as the SDK writes and reads them (channel.createDraft, MessageComposer.initState):
// the input checked like a message being sent (length, attachments, thread, quote, poll). The
// response shape is present/draft.ts.
import { randomUUID } from 'node:crypto';
import type { DraftMessage } from 'stream-chat';
import { channelSettings } from '../../auth/channel-access';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { idList, isObject, optionalBoolean, optionalString, withoutKeys } from '../../http/input';
import { coordinate } from './shared-location';
import type { ChannelRow } from '../../store/channels';
import { attachmentList } from '../uploads/attachments';

const DRAFT_FIELDS = new Set([
  'id', 'text', 'parent_id', 'quoted_message_id', 'attachments', 'mentioned_users', 'poll_id', 'shared_location',
  'show_in_channel', 'silent', 'custom', 'type', 'html', 'mml', 'mentioned_channel', 'mentioned_here',
  'mentioned_group_ids', 'mentioned_groups', 'mentioned_roles', 'user', 'user_id',
]);

export function draftMessage(ctx: ServerContext, channel: ChannelRow, userId: string, input: unknown): DraftMessage {
  if (!isObject(input)) throw ApiError.input('message is a required field');
  const { messages, polls } = ctx.store;
  const id = optionalString(input.id, 'message.id') || randomUUID();
  const text = optionalString(input.text, 'message.text') ?? '';
  const maxLength = channelSettings(ctx, channel).config.max_message_length ?? 5000;
  if (text.length > maxLength) throw ApiError.input(`message.text is longer than ${maxLength} characters`);
  const parentId = optionalString(input.parent_id, 'message.parent_id');
  if (parentId && messages.get(parentId)?.cid !== channel.cid) {
    throw ApiError.input(`parent message ${parentId} does not exist in this channel`);
  }
  const quotedId = optionalString(input.quoted_message_id, 'message.quoted_message_id');
  if (quotedId && messages.get(quotedId)?.cid !== channel.cid) {
    throw ApiError.input(`quoted message ${quotedId} does not exist in this channel`);
  }
  const pollId = optionalString(input.poll_id, 'message.poll_id');
  if (pollId && polls.get(pollId)?.created_by_id !== userId) throw ApiError.input(`poll ${pollId} is not one of your polls`);
  const location = input.shared_location;
  if (location !== undefined && location !== null) {
    if (!isObject(location)) throw ApiError.input('message.shared_location must be an object');
    coordinate(location.latitude, 'message.shared_location.latitude', 90);
    coordinate(location.longitude, 'message.shared_location.longitude', 180);
  }
  const attachments = attachmentList(input.attachments, 'message.attachments');
  const mentioned = idList(input.mentioned_users, 'message.mentioned_users');
  const custom = input.custom === undefined ? {} : input.custom;
  if (!isObject(custom)) throw ApiError.input('message.custom must be an object');
  const showInChannel = optionalBoolean(input.show_in_channel, 'message.show_in_channel');
  const silent = optionalBoolean(input.silent, 'message.silent');
  return {
    // Unknown top-level fields are the message's custom data, as when sending.
    ...withoutKeys(input, DRAFT_FIELDS),
    id,
    text,
    ...(parentId ? { parent_id: parentId } : {}),
    ...(quotedId ? { quoted_message_id: quotedId } : {}),
    ...(attachments.length ? { attachments } : {}),
    ...(mentioned.length ? { mentioned_users: [...new Set(mentioned)] } : {}),
    ...(pollId ? { poll_id: pollId } : {}),
    ...(isObject(location) ? { shared_location: location as unknown as DraftMessage['shared_location'] } : {}),
    ...(showInChannel !== undefined ? { show_in_channel: showInChannel } : {}),
    ...(silent !== undefined ? { silent } : {}),
    ...(Object.keys(custom).length ? { custom } : {}),
  };
}
