// Campaigns as the SDK reads them (CampaignResponse): the settings as given, the sender and the
// segments presented, a page of the `user_ids` users, the status, and the progress in `stats`:
// `progress` is the percentage of the targets taken at start that have been sent to or skipped;
// `stats_users_read` counts receivers who have read the channel since the message reached it.
import type { CampaignResponse, CampaignStats, UserResponse } from 'stream-chat';
import { settingsOf, type CampaignRow } from '../store/campaigns';
import type { ServerContext } from '../http/context';
import { cursors, type Page } from '../http/paging';
import { Presenter } from './presenter';
import { presentSegment, type SegmentShown } from './segment';

/** The SDK's type, with `stop_at` (the provider's field, absent from the SDK's type). */
export type CampaignShown = Omit<CampaignResponse, 'segments'> & { segments: SegmentShown[]; stop_at?: string };
export type UserCursors = { next?: string; prev?: string };

export function presentCampaign(ctx: ServerContext, row: CampaignRow, usersPage: Page): { campaign: CampaignShown; users: UserCursors } {
  const settings = settingsOf(row);
  const presenter = new Presenter(ctx);
  const pageIds = settings.user_ids.slice(usersPage.offset, usersPage.offset + usersPage.limit);
  presenter.preloadUsers([row.sender_id, ...pageIds]);
  const users: UserResponse[] = pageIds.flatMap((id) => (ctx.store.users.get(id) ? [presenter.user(id)] : []));
  const segments = settings.segment_ids.flatMap((id) => {
    const segment = ctx.store.segments.get(id);
    return segment ? [presentSegment(ctx, segment)] : [];
  });
  const campaign: CampaignShown = {
    id: row.id,
    name: row.name,
    description: row.description,
    sender_id: row.sender_id,
    sender: presenter.user(row.sender_id),
    message_template: settings.message_template,
    segment_ids: settings.segment_ids,
    segments,
    user_ids: settings.user_ids,
    users,
    sender_mode: settings.sender_mode,
    sender_visibility: settings.sender_visibility,
    ...(settings.channel_template ? { channel_template: settings.channel_template } : {}),
    create_channels: settings.create_channels,
    show_channels: settings.show_channels,
    skip_push: settings.skip_push,
    skip_webhook: settings.skip_webhook,
    status: row.status,
    ...(row.scheduled_for ? { scheduled_for: row.scheduled_for } : {}),
    ...(row.stop_at ? { stop_at: row.stop_at } : {}),
    stats: stats(ctx, row),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  return { campaign, users: cursors(usersPage, pageIds.length) };
}

function stats(ctx: ServerContext, row: CampaignRow): CampaignStats {
  const total = row.targets_total;
  const progress = total === null ? 0 : total === 0 ? 100 : Math.round((row.targets_done / total) * 10_000) / 100;
  return {
    progress,
    stats_messages_sent: row.messages_sent,
    stats_channels_created: row.channels_created,
    stats_users_sent: row.users_sent,
    stats_users_read: row.messages_sent ? ctx.store.campaigns.usersRead(row.id, row.sender_id) : 0,
    ...(row.started_at ? { stats_started_at: row.started_at } : {}),
    ...(row.completed_at ? { stats_completed_at: row.completed_at } : {}),
  };
}
