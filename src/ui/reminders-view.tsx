import { useEffect } from 'react';
import type { Reminder, ReminderManagerState, ReminderState, StreamChat } from 'stream-chat';
import { describeApiError } from '../session/session-error';
import { useStateStore } from '../session/use-state-store';
import { displayName, formatTime } from './format';

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
  const when = !remind_at ? 'Saved for later' : due ? 'Due now' : `At ${formatTime(remind_at)}`;
  return (
    <li className={`member${due ? ' due' : ''}`} part="reminder">
      <button type="button" className="channel-text link-like" onClick={() => onJump(channel_cid, message_id)}>
        <span className="channel-name">{message ? `${displayName(message.user)}: ${message.text ?? ''}` : 'A message'}</span>
        <span className="channel-preview">{when}</span>
      </button>
      <button type="button" className="link-button" aria-label="Remove reminder" onClick={() => onRemove(message_id)}>
        Remove
      </button>
    </li>
  );
}

interface RemindersViewProps {
  client: StreamChat;
  onJump: (cid: string, messageId: string) => void;
  onError: (text: string) => void;
}

/** The user's reminders (the SDK's ReminderManager), due ones marked, each removable. */
export function RemindersView({ client, onJump, onError }: RemindersViewProps) {
  const manager = client.reminders;
  const { reminders } = useStateStore(manager.state, selectReminders);
  useEffect(() => {
    manager.registerSubscriptions();
    void manager.queryNextReminders().catch((error: unknown) => onError(`Reminders could not be loaded: ${describeApiError(error).text}.`));
  }, [manager, onError]);
  const remove = (messageId: string) =>
    void manager.deleteReminder(messageId).catch((error: unknown) => onError(`The reminder was not removed: ${describeApiError(error).text}.`));
  const list = [...reminders.values()];
  if (list.length === 0) return <p className="empty">No reminders. Choose “Remind me” on a message to add one.</p>;
  return (
    <ul className="member-list reminders" part="reminders" aria-label="Reminders">
      {list.map((reminder) => (
        <ReminderRow key={reminder.id} reminder={reminder} onJump={onJump} onRemove={remove} />
      ))}
    </ul>
  );
}
