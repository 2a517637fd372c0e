// A stored reminder as the SDK's ReminderResponse: the reminder with its user, message (as its
// owner sees it) and channel.
import type { ReminderResponse } from 'stream-chat';
import { userActor } from '../auth/actor';
import { accessTo } from '../auth/channel-access';
import { presentChannel } from './channel';
import type { ServerContext } from '../http/context';
import { presentReminderBase } from './message-extras';
import { Presenter } from './presenter';
import type { ReminderRow } from '../store/reminders';

export function presentReminder(ctx: ServerContext, row: ReminderRow, presenter = new Presenter(ctx)): ReminderResponse {
  const viewer = presenter.forViewer(row.user_id);
  const messageRow = ctx.store.messages.get(row.message_id);
  const [message] = messageRow ? viewer.messages([messageRow]) : [];
  const channel = ctx.store.channels.get(row.cid);
  const user = ctx.store.users.get(row.user_id);
  return {
    ...presentReminderBase(row),
    user: viewer.user(row.user_id),
    message: message ?? { id: row.message_id, type: 'deleted' },
    ...(channel && user ? { channel: presentChannel(viewer, channel, accessTo(ctx, channel, userActor(user))) } : {}),
  };
}
