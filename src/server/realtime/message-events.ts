// Events that carry a whole updated message (message.updated/deleted/undeleted, reaction.*) to
// every connection watching its channel, the actor's included. The message is presented once;
// only own_reactions and reminder are filled in per receiving user, because the SDK keeps
// event.message.own_reactions when the message is not in its channel state (a thread reply seen
// by Thread, or a message outside the loaded set: channel_state.ts addReaction/_updateMessage).
import type { Event, EventTypes, MessageResponse } from 'stream-chat';
import type { ServerContext } from '../http/context';
import { viewerFields } from '../present/message-extras';
import { Presenter } from '../present/presenter';
import type { ChannelRow } from '../store/channels';
import type { MessageRow } from '../store/messages';
import { messageAudience } from './message-audience';
import { envelope } from './notify';

export type MessageEventType = Extract<
  EventTypes,
  'message.updated' | 'message.deleted' | 'message.undeleted' | 'reaction.new' | 'reaction.updated' | 'reaction.deleted'
>;

/**
 * Publishes `type` for the stored `row` and returns the message as `actorId` sees it (what the
 * HTTP response carries).
 */
export function publishMessageEvent(
  ctx: ServerContext,
  channel: ChannelRow,
  type: MessageEventType,
  row: MessageRow,
  actorId: string | null,
  fields: Partial<Event> = {},
): MessageResponse {
  const presenter = new Presenter(ctx);
  const [shared] = presenter.messages([row]);
  if (!shared) throw new Error(`message ${row.id} could not be presented`);
  const base: Event = {
    type,
    ...envelope(channel),
    message_id: row.id,
    user: actorId ? presenter.user(actorId) : shared.user ?? undefined,
    created_at: new Date().toISOString(),
    ...fields,
    message: shared,
  };
  const perUser = new Map<string, MessageResponse>();
  const messageFor = (userId: string | null): MessageResponse => {
    if (userId === null) return shared;
    let message = perUser.get(userId);
    if (!message) {
      message = { ...shared, ...viewerFields(presenter, ctx.store, [row], userId).get(row.id) };
      perUser.set(userId, message);
    }
    return message;
  };
  ctx.changes.emit(base);
  ctx.hub.toChannel(
    channel.cid,
    (connection) => (connection.anonymous ? base : { ...base, message: messageFor(connection.userId) }),
    messageAudience(ctx, shared),
  );
  return messageFor(actorId);
}
