// Which targets a segment stands for, page by page: the ids it lists, or the users (by its
// filter, or all of them) or channels (by its filter, or every channel the campaign's sender is
// a member of) it selects at the moment it is read. Campaigns take these once when they start;
// a segment's `size` counts them now.
import type { ServerContext } from '../http/context';
import type { SegmentRow } from './segments';

type Selection = Pick<SegmentRow, 'type' | 'filter' | 'all_users' | 'all_sender_channels'> & { id?: string };

export const TARGET_PAGE = 500;

/**
 * The segment's targets in pages of at most `pageSize` ids: user ids for user segments, cids for
 * channel segments. `senderId` is the campaign's sender (for `all_sender_channels`); without one
 * that rule selects nothing. Rules leave out deleted and deactivated users and deleted channels;
 * listed ids are given as listed (they need not exist yet), and a campaign skips what is not there.
 */
export function* selectedTargets(ctx: ServerContext, segment: Selection, senderId: string | null, pageSize = TARGET_PAGE): Generator<string[]> {
  const { store } = ctx;
  if (segment.filter || segment.all_users) {
    const filter: unknown = segment.filter ? JSON.parse(segment.filter) : null;
    for (let offset = 0; ; offset += pageSize) {
      const ids =
        segment.type === 'user'
          ? store.users
              .query({ filter, sort: [{ field: 'id', direction: 1 }], limit: pageSize, offset, onlineIds: ctx.hub.registry.onlineUserIds(), includeDeactivated: false })
              .map((row) => row.id)
          : store.channels
              .query({ filter, sort: [{ field: 'cid', direction: 1 }], limit: pageSize, offset, viewerId: null, openTypes: [] })
              .map((row) => row.cid);
      if (ids.length) yield ids;
      if (ids.length < pageSize) return;
    }
  }
  if (segment.all_sender_channels) {
    const cids = senderId ? store.memberships.channelsOf(senderId).sort() : [];
    for (let i = 0; i < cids.length; i += pageSize) yield cids.slice(i, i + pageSize);
    return;
  }
  if (!segment.id) return;
  for (let after = ''; ; ) {
    const rows = store.segments.targetsAfter(segment.id, after, pageSize);
    if (rows.length) yield rows.map((row) => row.target_id);
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1]?.target_id ?? after;
  }
}

/**
 * How many targets the segment stands for now. A segment of the sender's channels depends on
 * the campaign that uses it, so it counts none of its own.
 */
export function segmentSize(ctx: ServerContext, segment: SegmentRow): number {
  if (!segment.filter && !segment.all_users && !segment.all_sender_channels) return ctx.store.segments.targetCount(segment.id);
  let size = 0;
  for (const page of selectedTargets(ctx, segment, null)) size += page.length;
  return size;
}
