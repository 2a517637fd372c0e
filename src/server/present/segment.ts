// Segments as the SDK reads them (SegmentResponse). `size` is what the segment stands for now;
// `locked` says a scheduled or sending campaign uses it (it cannot be deleted meanwhile).
// `task_id` and `deleted_at` are not given: segments are deleted outright, and a filter is read
// when a campaign starts rather than built by a task beforehand.
import type { SegmentResponse } from 'stream-chat';
import { segmentSize } from '../store/segment-targets';
import type { ServerContext } from '../http/context';
import type { SegmentRow } from '../store/segments';

export type SegmentShown = Omit<SegmentResponse, 'task_id' | 'deleted_at'>;

export function presentSegment(ctx: ServerContext, row: SegmentRow): SegmentShown {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    description: row.description,
    ...(row.filter ? { filter: JSON.parse(row.filter) as object } : {}),
    all_users: row.all_users === 1,
    all_sender_channels: row.all_sender_channels === 1,
    size: segmentSize(ctx, row),
    locked: ctx.store.campaigns.activeUsingSegment(row.id).length > 0,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
