// Sending a message, whoever sends it (a user's composer, a channel update's or truncation's
// accompanying message, a campaign, a /giphy's Send): prepare (every check, prepare-send.ts),
// store (one transaction, store-message.ts), deliver (the events, deliver-message.ts). The client
// generates the message id (MessageComposer uses a UUID) and the server keeps it, so the SDK can
// match its optimistic copy to the stored one; sending the same id twice is an input error.
import type { MessageResponse } from 'stream-chat';
import type { UserActor } from '../../auth/actor';
import type { ServerContext } from '../../http/context';
import type { JsonObject } from '../../http/input';
import type { ChannelRow } from '../../store/channels';
import { deliverSent, type DeliveryOptions } from './deliver-message';
import { prepareSend } from './prepare-send';
import { storeMessage } from './store-message';

export type SendOptions = DeliveryOptions & {
  /**
   * Sent pending (server-side `pending: true`): stored and answered, delivered to nobody until
   * it is committed (features/messages/pending-messages.ts), with the sender's metadata.
   */
  pending?: { metadata: Record<string, string> | null };
};

/** Sends `input` as `actor` in `row` and returns the message as the sender sees it. */
export function sendMessage(ctx: ServerContext, row: ChannelRow, actor: UserActor, input: JsonObject, options: SendOptions = {}): MessageResponse {
  const prepared = prepareSend(ctx, row, actor, input);
  if ('reply' in prepared) return prepared.reply;
  const hold = options.pending ? { metadata: options.pending.metadata, skipPush: options.skipPush === true } : undefined;
  const stored = storeMessage(ctx, row, prepared.plan, hold);
  return deliverSent(ctx, row, stored, prepared.plan, options);
}
