import { memo, useState } from 'react';
import type { LocalMessage } from 'stream-chat';
import { text, type Text } from '../../i18n/translate';
import { availableActions, type MessageActionId } from '../../session/message-actions';
import { why } from '../../session/session-error';
import { useChatClient } from '../common/chat-client';
import { displayName, formatList, formatTime, initial } from '../common/format';
import { PushpinIcon } from '../common/icons';
import { useLocalization, useT } from '../common/localization';
import { ActionMenu } from './action-menu';
import { giphyPreviewOf } from './giphy';
import { hasExtras, MessageExtras } from './message-extras';
import { MessageText } from './message-text';
import { translatedText, useTranslationLanguage } from './translation';
import { Reactions } from './reactions';

export interface MessageHandlers {
  onRetry: (id: string) => void;
  /** Drops a message the backend refused. */
  onDiscard: (id: string) => void;
  onAction: (message: LocalMessage, action: MessageActionId) => void;
  onReact: (message: LocalMessage, type: string, remove: boolean) => void;
  onOpenThread: (message: LocalMessage) => void;
  onJumpTo: (messageId: string) => void;
}

interface MessageItemProps extends MessageHandlers {
  message: LocalMessage;
  own: boolean;
  /** Same author as the message before, moments apart: the avatar and name are not repeated. */
  continued: boolean;
  highlighted: boolean;
  /** Who has read up to this message; shown under the newest own message they have read. */
  readBy: string[];
  ownUserId: string | null;
  capabilities: string[];
  /** Shown inside a thread view: no link to the thread it is already in. */
  inThread?: boolean;
}

function Status({ message, readBy, onRetry, onDiscard }: Pick<MessageItemProps, 'message' | 'readBy' | 'onRetry' | 'onDiscard'>) {
  const { t, locale } = useLocalization();
  if (message.status === 'sending') return <span className="message-state">{t('message.sending')}</span>;
  if (message.status === 'failed') {
    return (
      <span className="message-state message-failed" role="alert">
        {t('message.failed', { why: why(message.error) })}{' '}
        <button type="button" className="link-button" onClick={() => onRetry(message.id)}>
          {t('message.retry')}
        </button>{' '}
        <button type="button" className="link-button" onClick={() => onDiscard(message.id)}>
          {t('actions.delete')}
        </button>
      </span>
    );
  }
  if (readBy.length === 0) return null;
  const shown = readBy.length > 3 ? readBy.slice(0, 3) : readBy;
  const names = formatList(locale, shown);
  return (
    <span className="message-state read-receipt" part="read-receipt">
      {readBy.length > 3 ? t('message.seenByMore', { names, count: readBy.length - 3 }) : t('message.seenBy', { names })}
    </span>
  );
}

function Quoted({ message, onJumpTo }: { message: LocalMessage; onJumpTo: (id: string) => void }) {
  const quoted = message.quoted_message;
  const t = useT();
  if (!quoted) return null;
  return (
    <button type="button" className="quoted" part="quoted-message" onClick={() => onJumpTo(quoted.id)}>
      <span className="quoted-author">{displayName(quoted.user)}</span>
      <span className="quoted-text" dir="auto">{quoted.type === 'deleted' ? t('message.deleted') : quoted.text}</span>
    </button>
  );
}

/** One message: author, avatar initial, time, text, reactions, thread replies and its menu. */
export const MessageItem = memo(function MessageItem(props: MessageItemProps) {
  const { message, own, continued, highlighted, readBy, ownUserId, capabilities } = props;
  const author = displayName(message.user);
  const { t, locale } = useLocalization();
  const client = useChatClient();
  const language = useTranslationLanguage();
  const translation = translatedText(message, language);
  const [original, setOriginal] = useState(false);
  const [translateError, setTranslateError] = useState<Text | null>(null);
  // The translation comes back on the message by the backend's message.updated event.
  const translate = () => {
    if (!client || !language) return;
    setTranslateError(null);
    client.translateMessage(message.id, language).then(
      () => setOriginal(false),
      (error: unknown) => setTranslateError(text('message.translateFailed', { why: why(error) })),
    );
  };
  if (message.type === 'system') {
    return (
      <div className="message-system" part="message system-message">
        {message.text}
      </div>
    );
  }
  const deleted = message.type === 'deleted' || Boolean(message.deleted_at);
  // A poll, a location or files alone need no empty text bubble above them.
  const extras = !deleted && hasExtras(message);
  // A /giphy preview says itself that only its sender sees it: no "/giphy cats" bubble.
  const showBubble = (!extras || Boolean(message.text || message.quoted_message) || message.type !== 'regular') && !giphyPreviewOf(message);
  const actions = availableActions(message, ownUserId, capabilities, Boolean(language) && !translation);
  const canReact = !deleted && capabilities.includes('send-reaction') && message.status !== 'failed' && message.type !== 'ephemeral' && message.type !== 'error';
  const classes = ['message', own && 'own', continued && 'continued', highlighted && 'highlighted', message.pinned && 'pinned'];
  return (
    <div className={classes.filter(Boolean).join(' ')} part={own ? 'message own-message' : 'message'} data-message-id={message.id}>
      <span className="avatar" aria-hidden="true">
        {continued ? '' : initial(author)}
      </span>
      <div className="message-body">
        {!continued && (
          <div className="message-meta">
            <span className="message-author">{own ? t('message.you') : author}</span>
            <time dateTime={message.created_at?.toISOString?.()}>{formatTime(message.created_at, locale)}</time>
          </div>
        )}
        {message.pinned && (
          <span className="pinned-label">
            <PushpinIcon /> {t('message.pinned')}
          </span>
        )}
        <div className="bubble-row">
          <div className="message-content">
            {showBubble && (
              <div className={`bubble${message.type === 'error' ? ' bubble-error' : ''}${message.type === 'ephemeral' ? ' bubble-ephemeral' : ''}`}>
                <Quoted message={message} onJumpTo={props.onJumpTo} />
                {deleted ? (
                  <em className="message-deleted">{t('message.deleted')}</em>
                ) : (
                  <MessageText text={(!original && translation) || message.text || ''} mentioned={message.mentioned_users} />
                )}
                {message.message_text_updated_at && !deleted && <span className="message-edited">{t('message.edited')}</span>}
                {translation && !deleted && (
                  <button type="button" className="link-button message-edited" part="translation-toggle" onClick={() => setOriginal(!original)}>
                    {t(original ? 'message.showTranslation' : 'message.showOriginal')}
                  </button>
                )}
                {(message.type === 'ephemeral' || message.type === 'error') && <span className="message-edited">{t('message.onlyYou')}</span>}
              </div>
            )}
            {extras && <MessageExtras message={message} own={own} canVote={capabilities.includes('cast-poll-vote')} />}
          </div>
          {!deleted && (
            <ActionMenu
              actions={actions}
              canReact={canReact}
              onAction={(action) => {
                if (action === 'reply') props.onOpenThread(message);
                else if (action === 'translate') translate();
                else props.onAction(message, action);
              }}
              onReact={(type) => props.onReact(message, type, false)}
            />
          )}
        </div>
        {!deleted && <Reactions message={message} onToggle={(type, mine) => props.onReact(message, type, mine)} />}
        {!deleted && !props.inThread && (message.reply_count ?? 0) > 0 && (
          <button type="button" className="link-button thread-link" part="thread-link" onClick={() => props.onOpenThread(message)}>
            {t('message.replies', { count: message.reply_count ?? 0 })}
          </button>
        )}
        {translateError && (
          <span className="message-state message-failed" role="alert">
            {t(translateError.key, translateError.params)}
          </span>
        )}
        <Status message={message} readBy={readBy} onRetry={props.onRetry} onDiscard={props.onDiscard} />
      </div>
    </div>
  );
});
