// `POST /messages/{id}/action` `{form_data: {image_action}}` (the SDK's channel.sendAction) on a
// `/giphy` preview, by its author only:
// - `send`: the GIF becomes a regular message with the preview's id (the attachment without its
//   actions, no text), sent as any message is (message.new to everyone) and answered;
// - `shuffle`: the next GIF the search finds (the first again after the last), answered and
//   sent to the author's connections as message.updated;
// - `cancel`: the preview is forgotten; the answer carries no message, which tells the SDK's
//   UIs to remove it.
import type { MessageResponse } from 'stream-chat';
import type { UserActor } from '../../auth/actor';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { isObject, type JsonObject } from '../../http/input';
import { Presenter } from '../../present/presenter';
import { envelope } from '../../events/notify';
import { sendMessage } from '../messages/send-message';
import { assertMaySend } from '../messages/may-send';
import { dropPreview, getPreview, giphyAttachment, keepPreview, previewMessage } from './giphy-previews';
import { searchGif } from './giphy-service';

const IMAGE_ACTIONS = ['send', 'shuffle', 'cancel'];

/** Runs the action; resolves to the message to answer with, or undefined (cancelled). */
export async function runMessageAction(ctx: ServerContext, actor: UserActor, messageId: string, body: JsonObject): Promise<MessageResponse | undefined> {
  const preview = getPreview(ctx, messageId);
  if (!preview) {
    if (ctx.store.messages.get(messageId)) {
      throw ApiError.input(`message ${messageId} has no actions: only a /giphy preview has (send, shuffle, cancel)`);
    }
    throw ApiError.notFound(`message ${messageId} does not exist (a /giphy preview lasts until it is sent or cancelled)`);
  }
  if (preview.userId !== actor.id) {
    throw ApiError.notAllowed(`message ${messageId} is another user's /giphy preview: only its author can send, shuffle or cancel it`);
  }
  const form = body.form_data;
  const action = isObject(form) ? form.image_action : undefined;
  if (typeof action !== 'string' || !IMAGE_ACTIONS.includes(action)) {
    throw ApiError.input(`form_data.image_action must be send, shuffle or cancel, not ${JSON.stringify(action ?? null)}`);
  }
  const named = typeof body.type === 'string' && typeof body.id === 'string' ? `${body.type}:${body.id}` : undefined;
  if (named && named !== preview.cid) throw ApiError.input(`message ${messageId} is not in channel ${named} but in ${preview.cid}`);
  const channel = ctx.store.channels.get(preview.cid);
  if (!channel) {
    dropPreview(ctx, messageId);
    throw ApiError.notFound(`channel ${preview.cid} of message ${messageId} no longer exists`);
  }

  if (action === 'cancel') {
    dropPreview(ctx, messageId);
    return undefined;
  }
  if (action === 'send') {
    // Gone before sending, so a second Send cannot send it twice; back if the send fails.
    dropPreview(ctx, messageId);
    const input: JsonObject = {
      id: preview.id,
      text: '',
      attachments: [giphyAttachment(preview.query, preview.gif, false) as JsonObject],
      ...(preview.parentId ? { parent_id: preview.parentId } : {}),
      ...(preview.showInChannel ? { show_in_channel: true } : {}),
    };
    try {
      return sendMessage(ctx, channel, actor, input);
    } catch (error) {
      keepPreview(ctx, preview);
      throw error;
    }
  }

  // shuffle
  const settings = ctx.config.giphy;
  if (!settings) throw ApiError.input('GIPHY is not available: this backend has no GIPHY API key (--giphy-api-key)');
  // A sender banned (or the channel frozen) since the preview asks the service no more.
  assertMaySend(ctx, channel, actor);
  let offset = preview.offset + 1;
  let gif = await searchGif(settings, preview.query, offset);
  if (!gif && offset > 0) gif = await searchGif(settings, preview.query, (offset = 0));
  if (!gif) throw ApiError.input(`No GIFs found for "${preview.query}".`);
  // The preview may have been sent or cancelled while the service answered.
  const current = getPreview(ctx, messageId);
  if (current !== preview) throw ApiError.notFound(`message ${messageId} was sent or cancelled meanwhile`);
  const shuffled = { ...preview, offset, gif };
  keepPreview(ctx, shuffled);
  const presenter = new Presenter(ctx, actor.id);
  const message = previewMessage(presenter, channel, actor, shuffled);
  message.updated_at = new Date().toISOString();
  ctx.hub.toUser(actor.id, {
    type: 'message.updated',
    ...envelope(channel),
    message_id: message.id,
    message,
    user: message.user ?? undefined,
    created_at: message.updated_at,
  });
  return message;
}
