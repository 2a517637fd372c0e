// Creating a channel, whoever creates it: a client's or server-side query of a channel that does
// not exist (routes/channels.ts), a campaign's message to a channel it may create
// (features/campaigns), an import's channel item (features/import-export). The id rule, the distinct
// channel of a member set and what of `data` is custom live here so that all three agree. The
// route and campaigns check an id they are given with `isChannelId`, each in its own words; an
// import keeps the ids of the file it imports, as the provider's import does.
import { createHash } from 'node:crypto';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { optionalString, withoutKeys, type JsonObject } from '../../http/input';
import { announceChannelCreated } from '../../events/channel-events';
import type { ChannelRow } from '../../store/channels';

const CHANNEL_ID = /^[A-Za-z0-9_!-]{1,64}$/;

/** Keys of `data` that are not the channel's own custom fields. */
export const RESERVED_DATA = new Set([
  'id', 'type', 'cid', 'name', 'members', 'created_by', 'created_by_id', 'created_at', 'updated_at',
  'deleted_at', 'last_message_at', 'member_count', 'message_count', 'config', 'own_capabilities',
  'frozen', 'disabled', 'hidden', 'truncated_at', 'team', 'filter_tags', 'blocked', 'invites',
]);

/** Whether `id` is one a channel can have: letters, numbers and "!-_", 1 to 64 characters. */
export function isChannelId(id: string): boolean {
  return CHANNEL_ID.test(id);
}

/**
 * The id of the distinct channel of a member set (creator included, when there is one): the
 * same members always give the same id, so the channel is found again instead of duplicated.
 */
export function distinctChannelId(creatorId: string | null, memberIds: string[]): string {
  const members = new Set(memberIds);
  if (creatorId !== null) members.add(creatorId);
  if (members.size === 0) {
    throw ApiError.input('When creating a channel without an id you must specify its members');
  }
  const hash = createHash('sha256').update([...members].sort().join(',')).digest('hex');
  return `!members-${hash.slice(0, 40)}`;
}

export type NewChannel = {
  type: string;
  id: string;
  creatorId: string;
  /** The creator joins as the channel's owner (a campaign's sender may stay out; an import's creator does). */
  creatorJoins: boolean;
  /**
   * Who the channel starts with, in order: each starts with a read state, and each but the
   * creator joins as a member. Every one of them must exist.
   */
  memberIds: string[];
  /**
   * Who is invited rather than added (`data.invites`): they are members with an invitation to
   * accept or reject, listed in `memberIds` or not, and start reading when they accept.
   */
  invitedIds?: string[];
  /** Channel roles to give members on creation (a campaign's `members_template`). */
  channelRoles?: ReadonlyMap<string, string>;
  /** The channel's `data`: its name and custom fields. */
  data: JsonObject;
  /** The keys of `data` that are not custom fields (an import's item has its own). */
  notCustom?: ReadonlySet<string>;
  /** When it was created (an import keeps the item's time); now by default. */
  now?: string;
  /** channel.created and the members' notifications; an import raises no events. */
  announce: boolean;
};

/**
 * Creates the channel, the caller having found none alive with that cid and checked who may
 * create it. One soft-deleted is created anew, as if it never existed: its old rows go, in the
 * same transaction, once everything asked of the new one has been checked.
 */
export function createChannel(ctx: ServerContext, channel: NewChannel): ChannelRow {
  const { store } = ctx;
  const { type, id, creatorId, creatorJoins } = channel;
  const cid = `${type}:${id}`;
  const invited = new Set((channel.invitedIds ?? []).filter((userId) => userId !== creatorId));
  const listed = [...new Set(channel.memberIds)].filter((userId) => !invited.has(userId));
  const readers = creatorJoins && !listed.includes(creatorId) ? [creatorId, ...listed] : listed;
  const others = listed.filter((memberId) => memberId !== creatorId);
  const known = store.users.getMany([...others, ...invited]);
  const unknown = [...others, ...invited].filter((memberId) => !known.has(memberId));
  if (unknown.length) {
    throw ApiError.input(
      `The following users are involved in channel create operation, but don't exist: [${unknown.join(', ')}]`,
    );
  }
  const name = optionalString(channel.data.name, 'data.name') ?? null;
  const custom = withoutKeys(channel.data, channel.notCustom ?? RESERVED_DATA);
  const now = channel.now ?? new Date().toISOString();
  const row = store.transaction(() => {
    // A soft-deleted channel of this cid is replaced only once the new one is known to be valid.
    if (store.channels.get(cid)) store.channelAdmin.hardDelete(cid);
    store.channels.create({ type, id, name, custom, createdById: creatorId, now });
    if (creatorJoins) store.channels.addMembers(cid, [creatorId], 'owner', now);
    store.channels.addMembers(cid, others, 'member', now);
    store.channelAdmin.invite(cid, [...invited], now);
    for (const [userId, channelRole] of channel.channelRoles ?? []) {
      if (userId === creatorId && creatorJoins) continue;
      store.channelAdmin.setRole(cid, userId, channelRole === 'channel_moderator' ? 'moderator' : 'member', channelRole, now);
    }
    store.reads.start(cid, readers, now);
    return store.channels.get(cid) as ChannelRow;
  });
  if (channel.announce) announceChannelCreated(ctx, row, others, [...invited], creatorId, now);
  return row;
}
