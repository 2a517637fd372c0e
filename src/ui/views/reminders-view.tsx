import { useEffect } from 'react';
import type { Reminder, ReminderManagerState, ReminderState, StreamChat } from 'stream-chat';
import { text, type Text } from '../../i18n/translate';
import { why } from '../../session/session-error';
import { useStateStore } from '../../session/use-state-store';
import { displayName, formatTime } from '../common/format';
import { useLocalization, useT } from '../common/localization';

const selectReminders = (state: ReminderManagerState) => ({ reminders: state.reminders });
const selectReminder = (state: ReminderState) => ({ ...state });

interface ReminderRowProps {
  reminder: Reminder;
  onJump: (cid: string, messageId: string) => void;
  onRemove: (messageId: string) => void;
}

function ReminderRow({ reminder, onJump, onRemove }: ReminderRowProps) {
  const { message, remind_at, timeLeftMs, channel_cid, message_id } = useStateStore(reminder.state, selectReminder);
  const due = timeLeftMs !== null && timeLeftMs <= 0;
  const { t, locale } = useLocalization();
  const when = !remind_at ? t('reminders.later') : due ? t('reminders.due') : t('reminders.at', { time: formatTime(remind_at, locale) });
  return (
    <li className={`member${due ? ' due' : ''}`} part="reminder">
      <button type="button" className="channel-text link-like" onClick={() => onJump(channel_cid, message_id)}>
        <span className="channel-name">{message ? t('list.lastMessage', { name: displayName(message.user), text: message.text ?? '' }) : t('reminders.message')}</span>
        <span className="channel-preview">{when}</span>
      </button>
      <button type="button" className="link-button" aria-label={t('reminders.remove')} onClick={() => onRemove(message_id)}>
        {t('reminders.removeShort')}
      </button>
    </li>
  );
}

interface RemindersViewProps {
  client: StreamChat;
  onJump: (cid: string, messageId: string) => void;
  onError: (notice: Text) => void;
}

/** The user's reminders (the SDK's ReminderManager), due ones marked, each removable. */
export function RemindersView({ client, onJump, onError }: RemindersViewProps) {
  const manager = client.reminders;
  const { reminders } = useStateStore(manager.state, selectReminders);
  const t = useT();
  useEffect(() => {
    manager.registerSubscriptions();
    void manager.queryNextReminders().catch((error: unknown) => onError(text('reminders.loadFailed', { why: why(error) })));
  }, [manager, onError]);
  const remove = (messageId: string) =>
    void manager.deleteReminder(messageId).catch((error: unknown) => onError(text('reminders.removeFailed', { why: why(error) })));
  const list = [...reminders.values()];
  if (list.length === 0) return <p className="empty">{t('reminders.empty')}</p>;
  return (
    <ul className="member-list reminders" part="reminders" aria-label={t('panel.reminders')}>
      {list.map((reminder) => (
        <ReminderRow key={reminder.id} reminder={reminder} onJump={onJump} onRemove={remove} />
      ))}
    </ul>
  );
}
