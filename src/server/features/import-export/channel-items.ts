// One channel as import items, read a page at a time: the channel, its members (with their read
// positions), then its messages in the order they were stored, each page followed by its
// reactions. Both exports (a few channels, or the whole app) walk channels this way.
// - A reply is exported only after its parent: the provider refuses a reply whose parent the file
//   does not have, so replies to a message left out (out of range, hard-deleted) are left out too.
// - Shadowed, pending and hard-deleted messages are never exported; truncated ones only if asked.
// - The provider requires a creator: a channel whose creator is gone names its oldest member, or
//   else the author of its first message.
import type { ChannelRow } from '../../store/channels';
import type { MessageRow } from '../../store/messages';
import type { Store } from '../../store/store';
import { channelItem, channelRef, memberItem, messageItem, reactionItem, type ChannelRef, type ImportItem } from './import-items';

const PAGE = 500;

export type ChannelRange = {
  since?: string;
  until?: string;
  includeTruncated: boolean;
};

export type ChannelWalk = ChannelRange & {
  clearDeletedText: boolean;
  /** For a distinct channel exported by its members (channel_member_ids): those members. */
  distinctMembers?: string[];
  userExists: (id: string) => boolean;
  breathe: () => Promise<void>;
};

/** The channel's messages that an export of `range` writes, a page at a time, parents before replies. */
export async function* messagePages(store: Store, channel: ChannelRow, range: ChannelRange, breathe: () => Promise<void>) {
  const exported = new Set<string>();
  const inRange = (row: MessageRow) =>
    (!range.since || row.created_at >= range.since) && (!range.until || row.created_at <= range.until)
    && (range.includeTruncated || !channel.truncated_at || row.created_at > channel.truncated_at);
  let after = 0;
  for (;;) {
    const page = store.imports.messagesAfter(channel.cid, after, PAGE);
    if (!page.length) return;
    after = (page[page.length - 1] as MessageRow).seq;
    // A reply goes with its parent: in range or not itself, it is exported when its parent is.
    const kept: MessageRow[] = [];
    for (const row of page) {
      if (row.parent_id ? !exported.has(row.parent_id) : !inRange(row)) continue;
      kept.push(row);
      if (!row.parent_id) exported.add(row.id);
    }
    yield kept;
    await breathe();
  }
}

/** Who the file names as the channel's creator; undefined for a channel nobody can stand for. */
export function creatorOf(store: Store, channel: ChannelRow): string | undefined {
  if (channel.created_by_id && store.users.get(channel.created_by_id)) return channel.created_by_id;
  return store.imports.membersIn(channel.cid)[0]?.user_id ?? store.imports.messagesAfter(channel.cid, 0, 1)[0]?.user_id;
}

export async function* channelItems(store: Store, channel: ChannelRow, walk: ChannelWalk): AsyncGenerator<ImportItem> {
  const creator = creatorOf(store, channel);
  if (!creator) return;
  const ref: ChannelRef = channelRef(channel, walk.distinctMembers);
  yield channelItem(channel, creator, ref);
  const reads = new Map(store.reads.forChannel(channel.cid).map((read) => [read.user_id, read]));
  for (const member of store.imports.membersIn(channel.cid)) yield memberItem(ref, member, reads.get(member.user_id));
  for await (const page of messagePages(store, channel, walk, walk.breathe)) {
    for (const row of page) yield messageItem(row, ref, walk);
    for (const reaction of store.imports.reactionsOn(page.map((row) => row.id))) yield reactionItem(reaction);
  }
}
