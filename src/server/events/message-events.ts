// Events that carry a whole updated message (message.updated/deleted/undeleted, reaction.*) to
// every connection watching its channel, the actor's included. The message is presented and
// serialised once; only own_reactions and reminder are filled in for the receivers who have any, because the SDK keeps
// event.message.own_reactions when the message is not in its channel state (a thread reply seen
// by Thread, or a message outside the loaded set: channel_state.ts addReaction/_updateMessage).
import type { Event, EventTypes, MessageResponse } from 'stream-chat';
import type { ServerContext } from '../http/context';
import { viewerFields, viewerFieldsOfMany } from '../present/message-extras';
import { Presenter } from '../present/presenter';
import type { ChannelRow } from '../store/channels';
import type { MessageRow } from '../store/messages';
import { Grouped } from '../realtime/hub';
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
  ctx.changes.emit(base);
  // Watchers with reactions or a reminder on the message get their own frame; everyone else
  // shares one, serialised once.
  const { registry } = ctx.hub;
  const viewers = viewerFieldsOfMany(presenter, ctx.store, row, {
    count: registry.watcherCount(channel.cid),
    has: (userId) => registry.isWatcher(channel.cid, userId),
    ids: () => registry.watcherUserIds(channel.cid),
  });
  const everyone = JSON.stringify(base);
  ctx.hub.toChannel(
    channel.cid,
    new Grouped(
      (connection) => (!connection.anonymous && viewers.has(connection.userId) ? connection.userId : ''),
      (userId) => (userId ? JSON.stringify({ ...base, message: { ...shared, ...viewers.get(userId) } }) : everyone),
    ),
    messageAudience(ctx, shared),
  );
  return actorId === null ? shared : { ...shared, ...viewerFields(presenter, ctx.store, [row], actorId).get(row.id) };
}
