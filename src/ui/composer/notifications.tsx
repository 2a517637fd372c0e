import { memo, useEffect, useRef } from 'react';
import type { Notification, NotificationState, StreamChat } from 'stream-chat';
import type { MessageKey } from '../../i18n/en';
import { isText, text, type Text, type Translate } from '../../i18n/translate';
import { errorDetail } from '../../session/session-error';
import { useStateStore } from '../../session/use-state-store';
import { CloseIcon } from '../common/icons';
import { useT } from '../common/localization';

const selectNotifications = (state: NotificationState) => ({ notifications: state.notifications });
// Long enough to read a sentence; the SDK's own default (3 s) is tuned for toasts beside a form.
const SHOW_MS = 6000;

/** Why the SDK's upload check (UploadPermissionCheckResult) blocked a file, as a reader understands it. */
export const blockedReason = (reason: string | undefined): Text | undefined =>
  reason === 'size_limit' ? text('upload.tooLarge') : reason?.includes('_') ? text('upload.typeNotAllowed') : undefined;

/** The SDK's own English sentence in the visitor's words, where the catalogue has it. */
export function sdkText(t: Translate, message: string): string {
  const key = `sdk.${message}`;
  const said = t(key as MessageKey);
  return said === key ? message : said;
}

/** A notification in words: the widget's own carry their text; the SDK's are its English sentences. */
function describe(t: Translate, notification: Notification): string {
  const own = notification.metadata?.text;
  if (isText(own)) return t(own.key, own.params);
  const message = sdkText(t, notification.message);
  const reason = notification.metadata?.reason;
  if (typeof reason !== 'string' || !reason) return message;
  return t('composer.notification', { message, why: blockedReason(reason) ?? errorDetail(reason) });
}

/**
 * What the SDK's managers report to the user ('Wait until all attachments have uploaded', a
 * blocked or failed upload, a poll that could not be created, …): `client.notifications`,
 * each shown for a few seconds or until dismissed.
 */
export const Notifications = memo(function Notifications({ client }: { client: StreamChat }) {
  const { notifications } = useStateStore(client.notifications.store, selectNotifications);
  const t = useT();
  const timed = useRef(new Set<string>());
  useEffect(() => {
    for (const { id } of notifications) {
      if (timed.current.has(id)) continue;
      timed.current.add(id);
      client.notifications.startTimeout(id, SHOW_MS);
    }
  }, [notifications, client]);
  // Always there, empty or not: a live region is heard when what is in it changes, not when it
  // appears. A list that is polite, not a status, so its items stay list items.
  return (
    <ul className="notifications" part="notifications" aria-live="polite">
      {notifications.map((notification) => (
        <li key={notification.id} className={`notification ${notification.severity ?? 'info'}`} part="notification">
          <span>{describe(t, notification)}</span>
          <button type="button" className="icon-button small" aria-label={t('panel.dismiss')} onClick={() => client.notifications.remove(notification.id)}>
            <CloseIcon />
          </button>
        </li>
      ))}
    </ul>
  );
});
