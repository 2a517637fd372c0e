import { useEffect, useMemo, useState } from 'react';
import type { LocalMessage, ThreadState } from 'stream-chat';
import type { SendResult } from '../../session/channel-handle';
import type { ThreadHandle, ThreadLoadState } from '../../session/thread-handle';
import { useStateStore } from '../../session/use-state-store';
import { Composer } from '../composer/composer';
import { MessageItem, type MessageHandlers } from '../message/message-item';
import { StatusView } from '../common/status-view';
import { useSay, useT } from '../common/localization';

const selectLoad = (state: ThreadLoadState) => ({ ...state });
const selectThread = (state: ThreadState) => ({
  parent: state.parentMessage,
  replies: state.replies,
  pagination: state.pagination,
  replyCount: state.replyCount,
});

interface ThreadViewProps {
  handle: ThreadHandle;
  ownUserId: string | null;
  capabilities: string[];
  handlers: Omit<MessageHandlers, 'onOpenThread' | 'onRetry' | 'onDiscard'>;
  onSendResult: (result: SendResult) => void;
}

/** A thread: its parent message, the replies (earlier ones on request), and a reply composer. */
export function ThreadView({ handle, ...props }: ThreadViewProps) {
  const { status, error, thread } = useStateStore(handle.state, selectLoad);
  const t = useT();
  const say = useSay();
  useEffect(() => {
    void handle.open();
    return () => handle.close();
  }, [handle]);
  if (status === 'error') {
    return <StatusView tone="error" title={t('thread.failed')} detail={say(error?.text)} actionLabel={t('panel.tryAgain')} onAction={() => void handle.open()} />;
  }
  if (!thread) return <StatusView tone="info" title={t('thread.loading')} />;
  return <ThreadContent handle={handle} thread={thread} {...props} />;
}

function ThreadContent({ handle, thread, ownUserId, capabilities, handlers, onSendResult }: ThreadViewProps & { thread: NonNullable<ThreadLoadState['thread']> }) {
  const { parent, replies, pagination, replyCount } = useStateStore(thread.state, selectThread);
  const [loadingEarlier, setLoadingEarlier] = useState(false);
  const t = useT();
  const itemHandlers: MessageHandlers = useMemo(
    () => ({ ...handlers, onOpenThread: () => undefined, onRetry: (id) => void handle.retry(id).then(onSendResult), onDiscard: (id) => handle.discard(id) }),
    [handlers, handle, onSendResult],
  );
  const item = (message: LocalMessage, continued = false) => (
    <li key={message.id} className="row">
      <MessageItem
        inThread
        message={message}
        own={message.user?.id === ownUserId}
        continued={continued}
        highlighted={false}
        readBy={[]}
        ownUserId={ownUserId}
        capabilities={capabilities.filter((c) => c !== 'send-reply')}
        {...itemHandlers}
      />
    </li>
  );
  return (
    <>
      <div className="message-scroller thread" part="thread">
        <ol className="message-list" aria-label={t('channel.thread')}>
          {item(parent)}
          <li className="row thread-divider">
            <span>{replyCount === 0 ? t('thread.noReplies') : t('message.replies', { count: replyCount })}</span>
          </li>
          {pagination.prevCursor && (
            <li className="row">
              <button
                type="button"
                className="link-button load-earlier"
                disabled={loadingEarlier}
                onClick={() => {
                  setLoadingEarlier(true);
                  void thread.loadPrevPage().finally(() => setLoadingEarlier(false));
                }}
              >
                {t(loadingEarlier ? 'thread.loadingEarlier' : 'thread.earlier')}
              </button>
            </li>
          )}
          {replies.map((reply, i) => item(reply, i > 0 && replies[i - 1]?.user?.id === reply.user?.id))}
        </ol>
      </div>
      <Composer key={thread.id} composer={thread.messageComposer} disabled={false} send={() => handle.send()} onSendResult={onSendResult} inThread autoFocus />
    </>
  );
}
