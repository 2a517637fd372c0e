// A thread as the SDK's ThreadResponse (the Thread constructor, stream-chat src/thread.ts): its
// channel, parent message, latest replies (oldest first), participants and every participant's
// read state, which Thread turns into its unread counts.
import type { ReadResponse, ThreadResponse } from 'stream-chat';
import type { Actor } from '../auth/actor';
import { accessTo, visibleMessages } from '../auth/channel-access';
import { presentChannel } from './channel';
import type { ServerContext } from '../http/context';
import type { Presenter } from './presenter';
import type { ChannelRow } from '../store/channels';
import type { MessageRow } from '../store/messages';
import type { ThreadRow } from '../store/threads';

export type ThreadOptions = { replyLimit: number; participantLimit: number };

/** Thread fields clients may not set (the SDK's partialUpdateThread list). */
export const RESERVED_THREAD_FIELDS = new Set([
  'created_at', 'id', 'last_message_at', 'type', 'updated_at', 'user', 'reply_count', 'participants', 'channel', 'custom',
]);

export function presentThread(
  ctx: ServerContext,
  presenter: Presenter,
  actor: Actor,
  channel: ChannelRow,
  parent: MessageRow,
  thread: ThreadRow | undefined,
  options: ThreadOptions,
): ThreadResponse {
  const viewer = presenter.forViewer(actor.id);
  const participants = thread ? ctx.store.threads.participants(parent.id) : [];
  const member = actor.id === null ? undefined : ctx.store.channels.member(channel.cid, actor.id);
  const replies = visibleMessages(ctx, channel, actor, member, ctx.store.messageQueries.latestReplies(parent.id, options.replyLimit));
  viewer.preloadUsers(participants.map((p) => p.user_id));
  const [parentMessage] = viewer.messages([parent]);
  if (!parentMessage) throw new Error(`message ${parent.id} could not be presented`);
  const custom = thread ? (JSON.parse(thread.custom) as Record<string, unknown>) : {};
  const read: ReadResponse[] = participants.map((p) => ({
    user: viewer.user(p.user_id),
    last_read: p.last_read_at,
    unread_messages: p.unread_messages,
    ...(p.last_read_message_id ? { last_read_message_id: p.last_read_message_id } : {}),
  }));
  return {
    ...custom,
    channel: presentChannel(viewer, channel, accessTo(ctx, channel, actor)),
    channel_cid: channel.cid,
    parent_message_id: parent.id,
    parent_message: parentMessage,
    latest_replies: viewer.messages(replies),
    reply_count: parent.reply_count,
    participant_count: participants.length,
    active_participant_count: participants.length,
    thread_participants: participants.slice(0, options.participantLimit).map((p) => ({
      channel_cid: channel.cid,
      thread_id: parent.id,
      user_id: p.user_id,
      user: viewer.user(p.user_id),
      created_at: p.created_at,
      last_read_at: p.last_read_at,
      ...(p.last_thread_message_at ? { last_thread_message_at: p.last_thread_message_at } : {}),
    })),
    read,
    title: thread?.title ?? '',
    created_by_user_id: thread?.created_by_id ?? parent.user_id,
    created_at: thread?.created_at ?? parent.created_at,
    updated_at: thread?.updated_at ?? parent.updated_at,
    ...(thread ? { last_message_at: thread.last_message_at } : {}),
    ...(parent.deleted_at ? { deleted_at: parent.deleted_at } : {}),
  };
}
