// The second step of a send (send-message.ts): everything a send writes, in one transaction, so a
// message lands with its counters, its pending hold, moderation's flag, its poll and its location,
// or not at all. The counters are also what committing a pending message moves
// (pending-messages.ts).
import type { ServerContext } from '../../http/context';
import type { ChannelRow } from '../../store/channels';
import type { MessageRow } from '../../store/messages';
import { restrictedTo } from '../../store/visibility';
import type { SendPlan } from './prepare-send';

/** What a message sent pending waits with until it is committed. */
export type PendingHold = { metadata: Record<string, string> | null; skipPush: boolean };

/** Stores the message prepareSend checked; `hold`: sent pending. */
export function storeMessage(ctx: ServerContext, channel: ChannelRow, plan: SendPlan, hold?: PendingHold): MessageRow {
  const { store } = ctx;
  const { access, location } = plan;
  const pending = hold !== undefined;
  return store.transaction(() => {
    const message = store.messages.add({ ...plan.message, pending });
    // A shadowed message exists for its author alone: it moves no counters others see. A
    // pending one moves them when it is committed.
    if (!plan.message.shadowed && !pending) countMessage(ctx, channel, message, access.type.config.read_events === true, access.member !== undefined);
    if (hold) store.pendingMessages.hold(message, hold.metadata, hold.skipPush);
    // Automatic moderation files its flag in the author's name (store/flags.ts).
    if (plan.flagged) store.flags.flag(message.user_id, 'message', message.id, null, message.created_at);
    if (plan.pollId) store.polls.attach(plan.pollId, message.id, channel.cid);
    if (location) {
      store.locations.add({
        ...location,
        message_id: message.id,
        cid: channel.cid,
        user_id: message.user_id,
        created_at: message.created_at,
        updated_at: message.created_at,
      });
    }
    return message;
  });
}

/**
 * The counters a delivered message moves: the parent's reply count, the channel's
 * last_message_at, the sender's read state and everyone else's unread count (in the storing
 * transaction, or the commit's). A message with restricted visibility moves only the counts of
 * the users it lists: the others' counters would tell them it exists.
 */
export function countMessage(ctx: ServerContext, row: ChannelRow, message: MessageRow, readEvents: boolean, senderIsMember: boolean): void {
  const { store } = ctx;
  const listed = restrictedTo(message);
  const inChannel = !message.parent_id || message.show_in_channel === 1;
  if (message.parent_id && !listed) store.messages.incrementReplyCount(message.parent_id);
  if (inChannel && !listed) store.channels.setLastMessageAt(row.cid, message.created_at);
  if (readEvents && inChannel) {
    // Sending reads the channel for the sender (the SDK assumes so on its own message.new);
    // everyone else has one more unread, unless the message is silent.
    // The read marker everyone sees never names a message only some may see.
    const marker = listed ? (store.reads.get(row.cid, message.user_id)?.last_read_message_id ?? null) : message.id;
    if (senderIsMember) store.reads.markRead(row.cid, message.user_id, message.created_at, marker);
    if ((JSON.parse(message.custom) as { silent?: unknown }).silent === true) return;
    if (listed) store.reads.incrementUnreadOf(row.cid, listed.filter((userId) => userId !== message.user_id));
    else store.reads.incrementUnread(row.cid, message.user_id);
  }
}
