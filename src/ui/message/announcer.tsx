// Screen readers hear each new message from someone else once, with its author: a live region
// of its own, not the list, whose rows the windowing re-renders as the reader scrolls (a live
// list would read them again). A burst is said as a count, at most one line every so often,
// and the visitor's own messages are never read back to them.
import { useEffect, useRef, useState } from 'react';
import type { Channel, Event } from 'stream-chat';
import { displayName } from '../common/format';
import { useT } from '../common/localization';

/** The least time between two announcements. */
const QUIET_MS = 1500;

export function NewMessageAnnouncer({ channel, ownUserId }: { channel: Channel; ownUserId: string | null }) {
  const t = useT();
  const [said, setSaid] = useState('');
  const queue = useRef<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    const flush = () => {
      timer.current = null;
      const waiting = queue.current.splice(0);
      if (waiting.length === 0) return;
      setSaid(waiting.length === 1 ? waiting[0]! : t('announce.many', { count: waiting.length }));
      timer.current = setTimeout(flush, QUIET_MS);
    };
    const onNew = (event: Event) => {
      const message = event.message;
      if (!message || (message.parent_id && !message.show_in_channel)) return;
      if (!message.user || message.user.id === ownUserId) return;
      const name = displayName(message.user);
      queue.current.push(message.text ? t('announce.message', { name, text: message.text }) : t('announce.attachment', { name }));
      timer.current ??= setTimeout(flush, 0);
    };
    const subscription = channel.on('message.new', onNew);
    return () => {
      subscription.unsubscribe();
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
    };
  }, [channel, ownUserId, t]);

  return (
    <p className="visually-hidden" part="announcer" role="status" aria-live="polite" aria-atomic="true">
      {said}
    </p>
  );
}
