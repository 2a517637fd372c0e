// Things that happen at a stored time: pins expire (message.updated, unpinned), mutes expire
// (the muter's mute list event) and reminders come due (notification.reminder_due). Each kind
// keeps one timer armed for its earliest pending row (see infra/timers.ts); whatever changes that row
// set calls its schedule function again, and startup arms all three.
import type { ServerContext } from '../http/context';
import { publishMessageEvent } from './message-events';
import { notifyMutesUpdated, notifyReminder } from './user-notifications';

export function scheduleAllExpiries(ctx: ServerContext): void {
  schedulePinExpiry(ctx);
  scheduleMuteExpiry(ctx);
  scheduleReminders(ctx);
}

export function schedulePinExpiry(ctx: ServerContext): void {
  arm(ctx, 'pins', ctx.store.messageEdits.nextPinExpiry(), () => {
    const now = new Date().toISOString();
    for (const row of ctx.store.messageEdits.expirePins(now)) {
      const channel = ctx.store.channels.get(row.cid);
      if (channel) publishMessageEvent(ctx, channel, 'message.updated', row, null);
    }
    schedulePinExpiry(ctx);
  });
}

export function scheduleMuteExpiry(ctx: ServerContext): void {
  arm(ctx, 'mutes', ctx.store.mutes.nextExpiry(), () => {
    const { users, channels } = ctx.store.mutes.expire(new Date().toISOString());
    for (const userId of users) notifyMutesUpdated(ctx, userId, 'user');
    for (const userId of channels) notifyMutesUpdated(ctx, userId, 'channel');
    scheduleMuteExpiry(ctx);
  });
}

export function scheduleReminders(ctx: ServerContext): void {
  arm(ctx, 'reminders', ctx.store.reminders.nextDue(), () => {
    for (const row of ctx.store.reminders.takeDue(new Date().toISOString())) {
      notifyReminder(ctx, 'notification.reminder_due', row);
    }
    scheduleReminders(ctx);
  });
}

function arm(ctx: ServerContext, name: string, at: string | null, fire: () => void): void {
  if (at === null) {
    ctx.timers.cancel(name);
    return;
  }
  ctx.timers.at(name, Date.parse(at), () => {
    try {
      fire();
    } catch (error) {
      // A timer firing after close() finds the database gone; anything else is worth a log line.
      ctx.log(`${name} timer failed`, error);
    }
  });
}
