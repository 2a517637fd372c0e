import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import type { ChannelState, LocalMessage } from 'stream-chat';
import type { ChannelHandle, ChannelViewState, SendResult } from '../../session/channel-handle';
import { runAction, type MessageActionId } from '../../session/message-actions';
import { why } from '../../session/session-error';
import { text, type Translate } from '../../i18n/translate';
import { useLocalization } from '../common/localization';
import { useStateStore } from '../../session/use-state-store';
import { NewMessageAnnouncer } from './announcer';
import { MessageItem, type MessageHandlers } from './message-item';
import { buildRows, dayLabel, type Row } from './rows';
import { rowOffset, useVirtualWindow } from './use-virtual-window';

const selectList = (state: ChannelViewState) => ({
  messages: state.messages,
  typing: state.typing,
  unreadCount: state.unreadCount,
  unreadSince: state.unreadSince,
  hasOlder: state.hasOlder,
  hasNewer: state.hasNewer,
  atLatest: state.atLatest,
  loadingOlder: state.loadingOlder,
  highlightedId: state.highlightedId,
  read: state.read,
  capabilities: state.capabilities,
});

// Within this many pixels of the end counts as "at the bottom"; within LOAD_EDGE_PX of an
// edge the next page loads.
const BOTTOM_SLACK_PX = 48;
const LOAD_EDGE_PX = 400;

function typingText(t: Translate, names: string[]): string {
  if (names.length === 0) return '';
  if (names.length === 1) return t('typing.one', { name: names[0] });
  if (names.length === 2) return t('typing.two', { first: names[0], second: names[1] });
  return t('typing.many', { count: names.length });
}

/** For each own message, the others whose read position reached it (and not a later own message). */
function readReceipts(messages: LocalMessage[], read: ChannelState['read'], ownUserId: string | null) {
  const receipts = new Map<string, string[]>();
  const own = messages.filter((m) => m.user?.id === ownUserId && m.status !== 'failed' && m.status !== 'sending');
  for (const { user, last_read } of Object.values(read)) {
    if (!user || user.id === ownUserId || !last_read) continue;
    let seen: LocalMessage | undefined;
    for (const message of own) if (message.created_at <= last_read) seen = message;
    if (seen) receipts.set(seen.id, [...(receipts.get(seen.id) ?? []), user.name || user.id]);
  }
  return receipts;
}

interface MessageListProps {
  handle: ChannelHandle;
  ownUserId: string | null;
  onSendResult: (result: SendResult) => void;
  onOpenThread: (message: LocalMessage) => void;
}

/**
 * The channel's messages, newest at the bottom, windowed so the DOM stays small however
 * far back the reader goes. It follows new messages while the reader is at the bottom,
 * keeps the reader's place when older pages load above, and marks read what they see.
 */
export function MessageList({ handle, ownUserId, onSendResult, onOpenThread }: MessageListProps) {
  const s = useStateStore(handle.state, selectList);
  const { t, locale } = useLocalization();
  const rows = useMemo(() => buildRows(s.messages, ownUserId, s.unreadSince), [s.messages, ownUserId, s.unreadSince]);
  const keys = useMemo(() => rows.map((row) => row.key), [rows]);
  const receipts = useMemo(() => readReceipts(s.messages, s.read, ownUserId), [s.messages, s.read, ownUserId]);
  const scroller = useRef<HTMLDivElement>(null);
  const { window: view, heights, update } = useVirtualWindow(scroller, keys);
  // Following: pinned to the newest message. Otherwise the anchor row keeps its place on screen.
  const following = useRef(true);
  const anchor = useRef<{ key: string; delta: number } | null>(null);

  const markReadIfSeen = useCallback(() => {
    if (following.current && handle.state.getLatestValue().atLatest && document.visibilityState !== 'hidden') {
      void handle.markRead();
    }
  }, [handle]);

  const rememberAnchor = () => {
    const el = scroller.current;
    if (!el) return;
    let offset = 0;
    for (const key of keys) {
      const height = heights.get(key) ?? 64;
      if (offset + height > el.scrollTop) {
        anchor.current = { key, delta: el.scrollTop - offset };
        return;
      }
      offset += height;
    }
  };

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const fromBottom = el.scrollHeight - el.scrollTop - el.clientHeight;
    following.current = fromBottom <= BOTTOM_SLACK_PX && !s.hasNewer;
    rememberAnchor();
    update();
    if (el.scrollTop < LOAD_EDGE_PX) void handle.loadOlder();
    if (fromBottom < LOAD_EDGE_PX) void handle.loadNewer();
    markReadIfSeen();
  };

  // After every render: stay at the bottom, or put the anchor row back where it was.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (following.current) {
      el.scrollTop = el.scrollHeight;
      return;
    }
    const index = anchor.current ? keys.indexOf(anchor.current.key) : -1;
    if (anchor.current && index >= 0) el.scrollTop = rowOffset(keys, heights, index) + anchor.current.delta;
  });

  // A jump puts the message in the middle of the view.
  useEffect(() => {
    const el = scroller.current;
    if (!s.highlightedId || !el) return;
    following.current = false;
    anchor.current = { key: s.highlightedId, delta: -Math.max(0, el.clientHeight / 2 - 40) };
    update();
  }, [s.highlightedId, update]);

  useEffect(() => {
    if (s.unreadCount > 0) markReadIfSeen();
  }, [s.unreadCount, markReadIfSeen]);

  // Opening the list is reading it: any hold from "mark unread" ends here.
  useEffect(() => handle.resumeReading(), [handle]);

  useEffect(() => {
    document.addEventListener('visibilitychange', markReadIfSeen);
    return () => document.removeEventListener('visibilitychange', markReadIfSeen);
  }, [markReadIfSeen]);

  const handlers: MessageHandlers = useMemo(
    () => ({
      onRetry: (id) => void handle.retry(id).then(onSendResult),
      onDiscard: (id) => handle.discard(id),
      onAction: (message, action: MessageActionId) =>
        action === 'mark-unread'
          ? void handle.markUnread(message.id).then(
              () => handle.setNotice(text('messages.markedUnread')),
              (error: unknown) => handle.setNotice(text('actions.failed', { action: text('actions.mark-unread'), why: why(error) })),
            )
          : void runAction(handle.channel, message, action).then((notice) => notice && handle.setNotice(notice)),
      onReact: (message, type, remove) =>
        void handle.react(message, type, remove).catch(
          (error: unknown) => handle.setNotice(text('channel.reactionFailed', { why: why(error) })),
        ),
      onOpenThread,
      onJumpTo: (id) => void handle.jumpTo(id),
    }),
    [handle, onSendResult, onOpenThread],
  );

  const renderRow = (row: Row) => {
    if (row.kind === 'date') {
      return (
        <li key={row.key} data-row-key={row.key} className="row date-separator">
          <span>{dayLabel(row.day, locale)}</span>
        </li>
      );
    }
    if (row.kind === 'unread') {
      return (
        <li key={row.key} data-row-key={row.key} className="row unread-separator" part="unread-separator">
          <span>{t('messages.new')}</span>
        </li>
      );
    }
    return (
      <li key={row.key} data-row-key={row.key} className="row">
        <MessageItem
          message={row.message}
          own={row.own}
          continued={row.continued}
          highlighted={row.key === s.highlightedId}
          readBy={receipts.get(row.key) ?? []}
          ownUserId={ownUserId}
          capabilities={s.capabilities}
          {...handlers}
        />
      </li>
    );
  };

  const showJump = !s.atLatest || s.hasNewer;
  return (
    <div className="message-area">
      <NewMessageAnnouncer channel={handle.channel} ownUserId={ownUserId} />
      <div className="message-scroller" ref={scroller} onScroll={onScroll}>
        {s.loadingOlder && <p className="loading-more">{t('messages.loadingOlder')}</p>}
        {rows.length === 0 ? (
          <p className="empty">{t('messages.empty')}</p>
        ) : (
          <ol className="message-list" part="message-list" aria-label={t('messages.label')}>
            <li aria-hidden="true" className="spacer" style={{ height: view.padTop }} />
            {rows.slice(view.start, view.end).map(renderRow)}
            <li aria-hidden="true" className="spacer" style={{ height: view.padBottom }} />
          </ol>
        )}
        <p className="typing" part="typing-indicator" aria-live="polite">
          {typingText(t, s.typing)}
        </p>
      </div>
      {showJump && (
        <button
          type="button"
          className="jump-latest"
          part="jump-to-latest"
          onClick={() => {
            following.current = true;
            void handle.jumpToLatest();
          }}
        >
          {/* Away from the newest with messages unread (a jump, or more missed offline than a catch-up brings): say how many. */}
          ↓ {s.unreadCount > 0 && s.hasNewer ? t('messages.newCount', { count: s.unreadCount }) : t('messages.jumpToLatest')}
        </button>
      )}
    </div>
  );
}
