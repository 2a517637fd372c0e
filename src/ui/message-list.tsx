import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import type { ChannelHandle, ChannelViewState, SendResult } from '../session/channel-handle';
import { useStateStore } from '../session/use-state-store';
import { MessageItem } from './message-item';

const selectList = (state: ChannelViewState) => ({
  messages: state.messages,
  typing: state.typing,
  unreadCount: state.unreadCount,
});

// Within this many pixels of the end counts as "at the bottom".
const BOTTOM_SLACK_PX = 48;

function typingText(names: string[]): string {
  if (names.length === 0) return '';
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length === 2) return `${names[0]} and ${names[1]} are typing…`;
  return `${names.length} people are typing…`;
}

interface MessageListProps {
  handle: ChannelHandle;
  ownUserId: string | null;
  onSendResult: (result: SendResult) => void;
}

/**
 * The channel's messages, newest at the bottom. It follows new messages while the
 * reader is at the bottom and stays put when they scrolled up to read history.
 */
export function MessageList({ handle, ownUserId, onSendResult }: MessageListProps) {
  const { messages, typing, unreadCount } = useStateStore(handle.state, selectList);
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);

  const markReadIfSeen = useCallback(() => {
    if (atBottom.current && document.visibilityState !== 'hidden') void handle.markRead();
  }, [handle]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_SLACK_PX;
    if (atBottom.current && unreadCount > 0) markReadIfSeen();
  };

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [messages, typing]);

  useEffect(() => {
    if (unreadCount > 0) markReadIfSeen();
  }, [unreadCount, markReadIfSeen]);

  useEffect(() => {
    document.addEventListener('visibilitychange', markReadIfSeen);
    return () => document.removeEventListener('visibilitychange', markReadIfSeen);
  }, [markReadIfSeen]);

  return (
    <div className="message-scroller" ref={scroller} onScroll={onScroll}>
      {messages.length === 0 ? (
        <p className="empty">No messages yet. Say hello!</p>
      ) : (
        <ol className="message-list" part="message-list" role="log" aria-live="polite" aria-label="Messages">
          {messages.map((message, index) => (
            <MessageItem
              key={message.id}
              message={message}
              own={message.user?.id === ownUserId}
              continued={index > 0 && messages[index - 1]?.user?.id === message.user?.id && messages[index - 1]?.type !== 'system'}
              onRetry={(id) => void handle.retry(id).then(onSendResult)}
            />
          ))}
        </ol>
      )}
      <p className="typing" part="typing-indicator" aria-live="polite">
        {typingText(typing)}
      </p>
    </div>
  );
}
