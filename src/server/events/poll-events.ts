// poll.* events. The SDK's poll state (PollManager) changes only through these events, never
// through HTTP responses, so they go to every connection watching the channel whose message
// carries the poll, and to every connection of the user who acted (the voter may be looking
// at the poll from a channel list without watching it). Each receiver gets the poll as they see
// it: their own_votes, and their own votes un-anonymised.
import type { Event, EventTypes } from 'stream-chat';
import type { ServerContext } from '../http/context';
import { pollView, type PollView } from '../present/poll';
import { Presenter } from '../present/presenter';
import type { PollRow, PollVoteRow } from '../store/polls';
import type { Connection } from '../realtime/registry';
import { storedAudience } from './message-audience';

export type PollEventType =
  | 'poll.updated'
  | 'poll.closed'
  | 'poll.deleted'
  | 'poll.vote_casted'
  | 'poll.vote_changed'
  | 'poll.vote_removed';

export function notifyPoll(
  ctx: ServerContext,
  row: PollRow,
  type: PollEventType,
  actorId: string | null,
  { vote, view }: { vote?: PollVoteRow; view?: PollView } = {},
): void {
  const presenter = new Presenter(ctx);
  const poll = view ?? pollView(presenter, ctx.store, row);
  const receivers = new Map<string, Connection>();
  // A poll's events reach whoever may see its message.
  const message = row.message_id ? ctx.store.messages.get(row.message_id) : undefined;
  const audience = message ? storedAudience(ctx, message) : undefined;
  if (row.cid) for (const connection of ctx.hub.registry.watchers(row.cid)) if (!audience || audience(connection)) receivers.set(connection.id, connection);
  if (actorId) for (const connection of ctx.hub.registry.ofUser(actorId)) receivers.set(connection.id, connection);
  if (!receivers.size) return;

  const [channelType = '', channelId = ''] = row.cid ? row.cid.split(/:(.*)/s) : [];
  const base = {
    // poll.deleted is sent by the provider but missing from the SDK's EVENT_MAP; listeners
    // still receive it by name.
    type: type as EventTypes,
    ...(row.cid ? { cid: row.cid, channel_type: channelType, channel_id: channelId } : {}),
    ...(row.message_id ? { message_id: row.message_id } : {}),
    ...(actorId ? { user: presenter.user(actorId) } : {}),
    created_at: new Date().toISOString(),
  };
  const perUser = new Map<string, Event>();
  ctx.hub.publish(receivers.values(), (connection) => {
    let event = perUser.get(connection.userId);
    if (!event) {
      event = {
        ...base,
        poll: poll.forViewer(connection.userId),
        ...(vote ? { poll_vote: poll.vote(vote, connection.userId) } : {}),
      };
      perUser.set(connection.userId, event);
    }
    return event;
  });
}
