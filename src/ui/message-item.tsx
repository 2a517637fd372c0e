import type { LocalMessage } from 'stream-chat';
import { describeApiError } from '../session/session-error';
import { displayName, formatTime, initial } from './format';

interface MessageItemProps {
  message: LocalMessage;
  own: boolean;
  /** Same author as the message before: the avatar and name are not repeated. */
  continued: boolean;
  onRetry: (id: string) => void;
}

function MessageStatus({ message, onRetry }: Pick<MessageItemProps, 'message' | 'onRetry'>) {
  if (message.status === 'sending') return <span className="message-state">Sending…</span>;
  if (message.status !== 'failed') return null;
  return (
    <span className="message-state message-failed" role="alert">
      Not sent: {describeApiError(message.error).text}.{' '}
      <button type="button" className="link-button" onClick={() => onRetry(message.id)}>
        Retry
      </button>
    </span>
  );
}

/** One message: author, avatar initial, time and text. Text is rendered as text, never as HTML. */
export function MessageItem({ message, own, continued, onRetry }: MessageItemProps) {
  const author = displayName(message.user);
  const deleted = message.type === 'deleted' || Boolean(message.deleted_at);
  if (message.type === 'system') {
    return (
      <li className="message-system" part="message system-message">
        {message.text}
      </li>
    );
  }
  return (
    <li
      className={`message${own ? ' own' : ''}${continued ? ' continued' : ''}`}
      part={own ? 'message own-message' : 'message'}
      data-message-id={message.id}
    >
      <span className="avatar" aria-hidden="true">
        {continued ? '' : initial(author)}
      </span>
      <div className="message-body">
        {!continued && (
          <div className="message-meta">
            <span className="message-author">{own ? 'You' : author}</span>
            <time dateTime={message.created_at?.toISOString?.()}>{formatTime(message.created_at)}</time>
          </div>
        )}
        <div className={`bubble${message.type === 'error' ? ' bubble-error' : ''}`}>
          {deleted ? <em className="message-deleted">This message was deleted</em> : message.text}
          {message.message_text_updated_at && !deleted && <span className="message-edited"> (edited)</span>}
        </div>
        <MessageStatus message={message} onRetry={onRetry} />
      </div>
    </li>
  );
}
