// The last step of a send (send-message.ts), and of a pending message's commit
// (pending-messages.ts): the stored message reaches the channel.
import type { MessageResponse } from 'stream-chat';
import type { ServerContext } from '../../http/context';
import { Presenter } from '../../present/presenter';
import { notifyChannelVisible } from '../../events/channel-events';
import { dropDraftAfterSend } from '../../events/draft-events';
import { publishMessageEvent } from '../../events/message-events';
import { notifyMessageNew } from '../../events/notify';
import { recordThreadReply } from '../../events/thread-events';
import type { ChannelRow } from '../../store/channels';
import type { MessageRow } from '../../store/messages';
import { notifyMessageFlagged } from '../moderation/flag-events';
import type { SendPlan } from './prepare-send';

export type DeliveryOptions = {
  /** The request's `skip_push`: the message is delivered but no push notification is sent. */
  skipPush?: boolean;
  /** Members who hid the channel keep it hidden (a campaign sent without `show_channels`). */
  keepHidden?: boolean;
};

/**
 * Delivers a message just stored by a send and returns it as the sender sees it. A pending one
 * reaches nobody (no event, no counter) until it is committed; either way moderators hear of a
 * flag and the sender's draft is used up.
 */
export function deliverSent(ctx: ServerContext, channel: ChannelRow, stored: MessageRow, plan: SendPlan, options: DeliveryOptions): MessageResponse {
  const message = stored.pending ? presentOne(ctx, stored, true) : deliverMessage(ctx, channel, stored, options, true);
  if (plan.flagged) notifyMessageFlagged(ctx, channel, stored, null);
  dropDraftAfterSend(ctx, plan.message.userId, channel.cid, stored.parent_id);
  return message;
}

/**
 * Delivers a stored message to the channel: message.new (and its change: webhooks, push, the
 * sync log), hidden channels shown again, the thread's participants and parent. Returns the
 * message as sent. Used by a send (`justStored`: stored in the same call, so without reactions
 * to look up), and by a commit of a pending message.
 */
export function deliverMessage(ctx: ServerContext, row: ChannelRow, stored: MessageRow, options: DeliveryOptions = {}, justStored = false): MessageResponse {
  const message = presentOne(ctx, stored, justStored);
  const channel = ctx.store.channels.get(row.cid) ?? row;
  notifyMessageNew(ctx, channel, message, { skipPush: options.skipPush === true });
  // A new message brings a hidden channel back for everyone who hid it (not a shadowed one,
  // nor one only some users see).
  const everyone = !stored.shadowed && !stored.restricted_visibility;
  if (everyone && !options.keepHidden) {
    const shown = ctx.store.channelAdmin.unhideAll(channel.cid);
    if (shown.length) notifyChannelVisible(ctx, channel, shown);
  }
  // Thread participants and unread counts, before the parent is presented with them; a
  // shadowed or restricted reply exists for a few alone and changes neither.
  const threaded = stored.parent_id && everyone ? stored.parent_id : undefined;
  if (threaded) recordThreadReply(ctx, channel, stored);
  // The parent's reply_count changed; the SDK only learns that from message.updated.
  const parent = threaded ? ctx.store.messages.get(threaded) : undefined;
  // Per receiver, so a Thread's parent keeps each user's own_reactions.
  if (parent) publishMessageEvent(ctx, channel, 'message.updated', parent, null);
  return message;
}

function presentOne(ctx: ServerContext, stored: MessageRow, justStored: boolean): MessageResponse {
  const [message] = new Presenter(ctx).messages([stored], justStored);
  if (!message) throw new Error('stored message vanished');
  return message;
}
