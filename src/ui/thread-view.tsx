import { useEffect, useMemo, useState } from 'react';
import type { LocalMessage, ThreadState } from 'stream-chat';
import type { SendResult } from '../session/channel-handle';
import type { ThreadHandle, ThreadLoadState } from '../session/thread-handle';
import { useStateStore } from '../session/use-state-store';
import { Composer } from './composer/composer';
import { MessageItem, type MessageHandlers } from './message/message-item';
import { StatusView } from './status-view';

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
  offline: boolean;
  capabilities: string[];
  handlers: Omit<MessageHandlers, 'onOpenThread' | 'onRetry'>;
  onSendResult: (result: SendResult) => void;
}

/** A thread: its parent message, the replies (earlier ones on request), and a reply composer. */
export function ThreadView({ handle, ...props }: ThreadViewProps) {
  const { status, error, thread } = useStateStore(handle.state, selectLoad);
  useEffect(() => {
    void handle.open();
    return () => handle.close();
  }, [handle]);
  if (status === 'error') {
    return <StatusView tone="error" title="This thread could not be opened." detail={error?.message} actionLabel="Try again" onAction={() => void handle.open()} />;
  }
  if (!thread) return <StatusView tone="info" title="Loading the thread…" />;
  return <ThreadContent handle={handle} thread={thread} {...props} />;
}

function ThreadContent({ handle, thread, ownUserId, offline, capabilities, handlers, onSendResult }: ThreadViewProps & { thread: NonNullable<ThreadLoadState['thread']> }) {
  const { parent, replies, pagination, replyCount } = useStateStore(thread.state, selectThread);
  const [loadingEarlier, setLoadingEarlier] = useState(false);
  const itemHandlers: MessageHandlers = useMemo(
    () => ({ ...handlers, onOpenThread: () => undefined, onRetry: (id) => void handle.retry(id).then(onSendResult) }),
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
        <ol className="message-list" role="log" aria-label="Thread">
          {item(parent)}
          <li className="row thread-divider" role="separator">
            <span>{replyCount === 0 ? 'No replies yet' : replyCount === 1 ? '1 reply' : `${replyCount} replies`}</span>
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
                {loadingEarlier ? 'Loading…' : 'Show earlier replies'}
              </button>
            </li>
          )}
          {replies.map((reply, i) => item(reply, i > 0 && replies[i - 1]?.user?.id === reply.user?.id))}
        </ol>
      </div>
      <Composer composer={thread.messageComposer} disabled={offline} send={() => handle.send()} onSendResult={onSendResult} inThread />
    </>
  );
}
