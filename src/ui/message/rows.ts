import type { LocalMessage } from 'stream-chat';
import { lazyDateFormat } from '../common/format';

// What the list shows, in order: messages, a separator at each new day, and a "new
// messages" line before the first unread message. Built once per change, rendered windowed.

export type Row =
  | { kind: 'date'; key: string; day: Date }
  | { kind: 'unread'; key: string }
  | { kind: 'message'; key: string; message: LocalMessage; own: boolean; continued: boolean };

// Messages by one author within this long of each other are drawn as one group.
const GROUP_WINDOW_MS = 5 * 60 * 1000;

const dayKey = (date: Date) => `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`;

// Made once per locale: a list re-renders its separators often, and each Intl formatter made
// anew costs more than the formatting.
const relativeDays = new Map<string, Intl.RelativeTimeFormat>();
const dateThisYear = lazyDateFormat({ weekday: 'long', month: 'long', day: 'numeric' });
const dateOtherYear = lazyDateFormat({ weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });

/** A day separator's words in the panel's language: "Today", "Yesterday" (Intl's), or the date. */
export function dayLabel(date: Date, locale: string, now = new Date()): string {
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const day = new Date(date.getFullYear(), date.getMonth(), date.getDate());
  const daysAgo = Math.round((today.getTime() - day.getTime()) / 86_400_000);
  if (daysAgo === 0 || daysAgo === 1) {
    let relative = relativeDays.get(locale);
    if (!relative) relativeDays.set(locale, (relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })));
    const words = relative.format(-daysAgo, 'day');
    return words.charAt(0).toLocaleUpperCase(locale) + words.slice(1);
  }
  return (date.getFullYear() === now.getFullYear() ? dateThisYear : dateOtherYear)(date, locale);
}

const groupable = (message: LocalMessage) => message.type !== 'system' && message.type !== 'deleted';

export function buildRows(
  messages: LocalMessage[],
  ownUserId: string | null,
  unreadSince: Date | null,
  now = new Date(),
): Row[] {
  const rows: Row[] = [];
  let previous: LocalMessage | undefined;
  let unreadPlaced = false;
  for (const message of messages) {
    const created = message.created_at instanceof Date ? message.created_at : new Date(message.created_at);
    const own = message.user?.id === ownUserId;
    let separated = false;
    if (!previous || dayKey(previous.created_at) !== dayKey(created)) {
      rows.push({ kind: 'date', key: `date-${dayKey(created)}`, day: created });
      separated = true;
    }
    if (!unreadPlaced && unreadSince && !own && created > unreadSince) {
      rows.push({ kind: 'unread', key: 'unread' });
      unreadPlaced = true;
      separated = true;
    }
    const continued =
      !separated &&
      previous !== undefined &&
      groupable(previous) &&
      groupable(message) &&
      previous.user?.id === message.user?.id &&
      created.getTime() - previous.created_at.getTime() < GROUP_WINDOW_MS;
    rows.push({ kind: 'message', key: message.id, message, own, continued });
    previous = message;
  }
  return rows;
}
