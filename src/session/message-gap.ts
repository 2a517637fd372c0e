import type { Channel, MessageResponse } from 'stream-chat';

/**
 * Messages a catch-up asks for at once, after the last one this browser had. Up to this many
 * missed show in place; past it the list keeps the reader where they were and offers the jump.
 */
export const CATCH_UP_LIMIT = 100;

/**
 * A page of the channel's newest messages is about to be put in its state (the SDK recovering
 * after a reconnect, or a list re-query). The SDK adds such a page to the latest message set
 * even when it does not reach the newest message that set already holds: the messages between
 * would be a silent gap. So before that, the page becomes a message set of its own (the SDK's
 * set for messages loaded apart), and the set the reader has is told it has newer messages.
 * Returns the id of the last message before the gap, from which to catch up; null when the page
 * joins what is there.
 */
export function splitAtGap(channel: Channel, page: MessageResponse[], pageSize: number): string | null {
  const { state } = channel;
  const latest = state.messageSets.find((set) => set.isLatest);
  const last = latest?.messages.filter((message) => message.status === 'received').at(-1);
  const oldest = page[0];
  if (!latest || !last || !oldest?.created_at || page.length < pageSize) return null;
  if (page.some((message) => message.id === last.id) || new Date(oldest.created_at) <= last.created_at) return null;
  state.addMessagesSorted(page, false, false, true, 'new');
  latest.pagination = { ...latest.pagination, hasNext: true };
  return last.id;
}
