import { memo, useEffect, useRef } from 'react';
import type { Notification, NotificationState, StreamChat } from 'stream-chat';
import { errorDetail } from '../../session/session-error';
import { useStateStore } from '../../session/use-state-store';
import { CloseIcon } from '../icons';

const selectNotifications = (state: NotificationState) => ({ notifications: state.notifications });
// Long enough to read a sentence; the SDK's own default (3 s) is tuned for toasts beside a form.
const SHOW_MS = 6000;

/** Why the SDK's upload check (UploadPermissionCheckResult) blocked a file, as a reader understands it. */
export const blockedReason = (reason: string | undefined) =>
  reason === 'size_limit' ? 'the file is too large' : reason?.includes('_') ? 'this type of file is not allowed' : undefined;

function text(notification: Notification): string {
  const reason = notification.metadata?.reason;
  if (typeof reason !== 'string' || !reason) return notification.message;
  return `${notification.message}: ${blockedReason(reason) ?? errorDetail(reason)}.`;
}

/**
 * What the SDK's managers report to the user ('Wait until all attachments have uploaded', a
 * blocked or failed upload, a poll that could not be created, …): `client.notifications`,
 * each shown for a few seconds or until dismissed.
 */
export const Notifications = memo(function Notifications({ client }: { client: StreamChat }) {
  const { notifications } = useStateStore(client.notifications.store, selectNotifications);
  const timed = useRef(new Set<string>());
  useEffect(() => {
    for (const { id } of notifications) {
      if (timed.current.has(id)) continue;
      timed.current.add(id);
      client.notifications.startTimeout(id, SHOW_MS);
    }
  }, [notifications, client]);
  if (notifications.length === 0) return null;
  return (
    <ul className="notifications" part="notifications" role="status" aria-live="polite">
      {notifications.map((notification) => (
        <li key={notification.id} className={`notification ${notification.severity ?? 'info'}`} part="notification">
          <span>{text(notification)}</span>
          <button type="button" className="icon-button small" aria-label="Dismiss" onClick={() => client.notifications.remove(notification.id)}>
            <CloseIcon />
          </button>
        </li>
      ))}
    </ul>
  );
});
