// Notifications that concern one user only, sent to every connection of that user: their mute
// lists changed (the SDK takes client.mutedUsers / mutedChannels from `me` in these events, never
// from HTTP responses) and their reminders were created, changed, deleted or came due.
import type { Event, EventTypes } from 'stream-chat';
import type { ServerContext } from '../http/context';
import { Presenter } from '../present/presenter';
import { presentReminder } from '../present/reminder';
import type { ReminderRow } from '../store/reminders';

export function notifyMutesUpdated(ctx: ServerContext, userId: string, kind: 'user' | 'channel'): void {
  const user = ctx.hub.registry.isOnline(userId) ? ctx.store.users.get(userId) : undefined;
  if (!user) return;
  ctx.hub.toUser(userId, {
    type: kind === 'user' ? 'notification.mutes_updated' : 'notification.channel_mutes_updated',
    me: new Presenter(ctx).ownUser(user),
    created_at: new Date().toISOString(),
  });
}

type ReminderEventType = Extract<EventTypes, 'reminder.created' | 'reminder.updated' | 'reminder.deleted' | 'notification.reminder_due'>;

export function notifyReminder(ctx: ServerContext, type: ReminderEventType, row: ReminderRow): Event {
  const [channelType = '', channelId = ''] = row.cid.split(/:(.*)/s);
  const event: Event = {
    type,
    cid: row.cid,
    channel_type: channelType,
    channel_id: channelId,
    message_id: row.message_id,
    user_id: row.user_id,
    reminder: presentReminder(ctx, row),
    created_at: new Date().toISOString(),
  };
  ctx.hub.toUser(row.user_id, event);
  return event;
}
