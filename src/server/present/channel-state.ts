// A channel as the SDK reads it (protocol-notes §4): `channel` with config and
// own_capabilities, then messages (oldest first), members, read, pinned_messages, watchers,
// watcher_count and membership. Used by channel queries, queryChannels and events that carry a
// whole channel (notification.message_new, notification.added_to_channel).
import type { ChannelAPIResponse } from 'stream-chat';
import { accessTo, messageVisibility, visibleMessages } from '../auth/channel-access';
import { presentChannel } from './channel';
import type { Actor } from '../auth/actor';
import type { ServerContext } from '../http/context';
import { presentDraft } from './draft';
import { pendingMessagesOf } from './pending-messages';
import type { Presenter } from './presenter';
import type { ChannelRow } from '../store/channels';
import type { PageOptions } from '../store/messages';

/**
 * Read states a channel response carries at most (besides the viewer's own): as many as the
 * members it lists by default. A room of thousands answers a watch with these, not with every
 * member's (1.3 MB for 5,000 members).
 */
export const READ_STATES = 100;

export type StateOptions = {
  /** false: only the channel, with empty lists. */
  state: boolean;
  messages: PageOptions;
  members: { limit: number; offset: number };
  watchers: { limit: number; offset: number };
};

export function channelState(
  ctx: ServerContext,
  presenter: Presenter,
  row: ChannelRow,
  actor: Actor,
  options: StateOptions,
): ChannelAPIResponse {
  const { store, hub } = ctx;
  const access = accessTo(ctx, row, actor);
  const memberRows = options.state ? store.channels.members(row.cid, options.members.limit, options.members.offset) : [];
  const messageRows = options.state ? store.messages.page(row.cid, options.messages, messageVisibility(row, actor, access.member)) : [];
  const pinnedRows = options.state ? visibleMessages(ctx, row, actor, access.member, store.messageEdits.pinned(row.cid, new Date().toISOString())) : [];
  const viewer = presenter.forViewer(actor.id);
  // The viewer's draft of the channel's own composer (thread drafts come with their threads).
  const draftRow = options.state && actor.id !== null ? store.drafts.get(actor.id, row.cid, '') : undefined;
  // Bounded whatever the room's size: the most recent readers and the viewer, a page of watchers.
  const readRows = options.state && access.type.config.read_events ? store.reads.recent(row.cid, actor.id, READ_STATES) : [];
  const listedWatchers = hub.registry.watcherPage(row.cid, options.watchers.offset, options.watchers.limit);
  presenter.preloadMembers(access.member ? [...memberRows, access.member] : memberRows);
  presenter.preloadUsers([
    ...readRows.map((r) => r.user_id),
    ...listedWatchers,
    ...(row.created_by_id ? [row.created_by_id] : []),
  ]);
  return {
    channel: presentChannel(presenter, row, access),
    messages: viewer.messages(messageRows),
    pinned_messages: viewer.messages(pinnedRows),
    members: memberRows.map((m) => presenter.member(m)),
    membership: access.member ? presenter.member(access.member) : null,
    read: readRows.map((r) => presenter.read(r)),
    watchers: listedWatchers.map((id) => presenter.user(id)),
    watcher_count: hub.registry.watcherCount(row.cid),
    hidden: access.member?.hidden === 1,
    ...(draftRow ? { draft: presentDraft(ctx, viewer, draftRow) } : {}),
    // The viewer's own pending messages, with their metadata (nobody else's, ever).
    ...(options.state && actor.id !== null ? { pending_messages: pendingMessagesOf(ctx, viewer, row.cid, actor.id) } : {}),
  };
}
