// A channel as the SDK reads it (protocol-notes §4): `channel` with config and
// own_capabilities, then messages (oldest first), members, read, pinned_messages, watchers,
// watcher_count and membership. Used by channel queries, queryChannels and events that carry a
// whole channel (notification.message_new, notification.added_to_channel).
import type { ChannelAPIResponse, ChannelResponse } from 'stream-chat';
import type { Actor } from './actor';
import { CHANNEL_TYPES, channelAccess, type ChannelAccess, type ChannelType } from './channel-types';
import type { ServerContext } from './context';
import { presentDraft } from './drafts/draft-message';
import { ApiError } from './errors';
import type { Presenter } from './present';
import type { ChannelRow, MemberRow } from './store/channels';
import type { PageOptions } from './store/messages';

export type StateOptions = {
  /** false: only the channel, with empty lists. */
  state: boolean;
  messages: PageOptions;
  members: { limit: number; offset: number };
  watchers: { limit: number; offset: number };
};

export function channelType(name: string): ChannelType {
  const type = CHANNEL_TYPES[name];
  if (!type) throw ApiError.notFound(`channel type "${name}" does not exist`);
  return type;
}

/** The actor's member row (if any) and what they may do in the channel. */
export function accessTo(ctx: ServerContext, row: ChannelRow, actor: Actor): ChannelAccess & { member?: MemberRow } {
  const member = actor.id === null ? undefined : ctx.store.channels.member(row.cid, actor.id);
  return { ...channelAccess(channelType(row.type), actor, member), member };
}

/** Throws the provider's 403 (code 17) unless the actor may read the channel. */
export function assertCanRead(row: ChannelRow, actor: Actor, access: ChannelAccess): void {
  if (!access.canRead) {
    throw ApiError.notAllowed(
      `User '${actor.id ?? ''}' with role '${actor.role}' is not allowed to perform action ReadChannel in scope '${row.type}'`,
    );
  }
}

export function assertCapability(row: ChannelRow, actor: Actor, access: ChannelAccess, capability: string): void {
  if (!access.capabilities.includes(capability)) {
    throw ApiError.notAllowed(
      `User '${actor.id ?? ''}' with role '${actor.role}' is not allowed to ${capability} in channel ${row.cid}`,
    );
  }
}

export function presentChannel(
  presenter: Presenter,
  row: ChannelRow,
  access: ChannelAccess,
): ChannelResponse {
  const custom = JSON.parse(row.custom) as Record<string, unknown>;
  return {
    ...custom,
    id: row.id,
    type: row.type,
    cid: row.cid,
    ...(row.name !== null ? { name: row.name } : {}),
    created_by: row.created_by_id ? presenter.user(row.created_by_id) : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.last_message_at ? { last_message_at: row.last_message_at } : {}),
    member_count: row.member_count,
    frozen: false,
    disabled: false,
    hidden: false,
    config: { ...channelType(row.type).config, commands: presenter.commands() },
    own_capabilities: access.capabilities,
  };
}

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
  const messageRows = options.state ? store.messages.page(row.cid, options.messages) : [];
  const pinnedRows = options.state ? store.messageEdits.pinned(row.cid, new Date().toISOString()) : [];
  const viewer = presenter.forViewer(actor.id);
  // The viewer's draft of the channel's own composer (thread drafts come with their threads).
  const draftRow = options.state && actor.id !== null ? store.drafts.get(actor.id, row.cid, '') : undefined;
  const readRows = options.state && channelType(row.type).config.read_events ? store.reads.forChannel(row.cid) : [];
  const watcherIds = hub.registry.watcherUserIds(row.cid);
  const listedWatchers = watcherIds.slice(options.watchers.offset, options.watchers.offset + options.watchers.limit);
  presenter.preloadUsers([
    ...memberRows.map((m) => m.user_id),
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
    watcher_count: watcherIds.length,
    hidden: false,
    ...(draftRow ? { draft: presentDraft(ctx, viewer, draftRow) } : {}),
  };
}
