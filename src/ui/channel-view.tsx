import { useCallback, useEffect, useMemo, useState } from 'react';
import type { LocalMessage } from 'stream-chat';
import type { ChannelHandle, ChannelViewState, SendResult } from '../session/channel-handle';
import { runAction } from '../session/message-actions';
import { describeApiError, SessionError } from '../session/session-error';
import { ThreadHandle } from '../session/thread-handle';
import { useStateStore } from '../session/use-state-store';
import { Composer } from './composer/composer';
import { BackIcon, CloseIcon, PushpinIcon } from './icons';
import { MembersView } from './members-view';
import { MessageList } from './message/message-list';
import { formatTime, lazyDateFormat } from './format';
import { StatusView } from './status-view';
import { RemindersView } from './reminders-view';
import { ThreadList } from './thread-list';
import { ThreadView } from './thread-view';

const selectView = (state: ChannelViewState) => ({
  status: state.status,
  error: state.error,
  notice: state.notice,
  pinned: state.pinned,
  name: state.name,
  capabilities: state.capabilities,
  ban: state.ban,
  deleted: state.deleted,
});

const NOTICE_MS = 6000;
const MESSAGE_HASH = /^#message-([\w-]+)$/;

export type ChannelPanel = 'messages' | 'members' | 'threads' | 'reminders';

const PANEL_TITLES: Record<Exclude<ChannelPanel, 'messages'>, string> = { members: 'Members', threads: 'Threads', reminders: 'Reminders' };

interface ChannelViewProps {
  handle: ChannelHandle;
  panel: ChannelPanel;
  setPanel: (panel: ChannelPanel) => void;
  ownUserId: string | null;
  offline: boolean;
  onSendResult: (result: SendResult) => void;
}

function PinnedBar({ pinned, onJump }: { pinned: LocalMessage[]; onJump: (id: string) => void }) {
  const latest = pinned.at(-1);
  if (!latest) return null;
  return (
    <button type="button" className="pinned-bar" part="pinned-bar" onClick={() => onJump(latest.id)}>
      <PushpinIcon />
      <span className="pinned-text">{latest.text || 'Pinned message'}</span>
      {pinned.length > 1 && <span className="pinned-count">{pinned.length} pinned</span>}
    </button>
  );
}

export function ChannelView({ handle, panel, setPanel, ownUserId, offline, onSendResult }: ChannelViewProps) {
  const { status, error, notice, pinned, name, capabilities, ban, deleted } = useStateStore(handle.state, selectView);
  const [thread, setThread] = useState<ThreadHandle | null>(null);

  const openThread = useCallback(
    (parentId: string) => {
      setThread(new ThreadHandle(handle.channel.getClient(), parentId));
      setPanel('messages');
    },
    [handle, setPanel],
  );

  const setNotice = useCallback((text: string | null) => handle.setNotice(text), [handle]);
  // A send refused for its rate says so above the composer too, with when to retry.
  const sent = useCallback(
    (result: SendResult) => {
      if (result instanceof SessionError && result.notice) handle.setNotice(result.message);
      onSendResult(result);
    },
    [handle, onSendResult],
  );

  // A reminder that comes due is shown at once, wherever the reader is.
  useEffect(
    () =>
      handle.channel.getClient().on('notification.reminder_due', (event) => {
        const reminder = (event as { reminder?: { message?: { text?: string } } }).reminder;
        handle.setNotice(`⏰ Reminder: ${reminder?.message?.text || 'a message you saved'}`);
      }).unsubscribe,
    [handle],
  );

  // A passing notice clears itself.
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => handle.setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice, handle]);

  // `#message-<id>` in the page address jumps to that message.
  useEffect(() => {
    if (status !== 'ready') return;
    const jumpToHash = () => {
      const id = MESSAGE_HASH.exec(location.hash)?.[1];
      if (id) void handle.jumpTo(id);
    };
    jumpToHash();
    window.addEventListener('hashchange', jumpToHash);
    return () => window.removeEventListener('hashchange', jumpToHash);
  }, [status, handle]);

  const threadHandlers = useMemo(
    () => ({
      onAction: (message: LocalMessage, action: Parameters<typeof runAction>[2]) =>
        void runAction(handle.channel, message, action).then((text) => text && handle.setNotice(text)),
      onReact: (message: LocalMessage, type: string, remove: boolean) =>
        void (remove ? handle.channel.deleteReaction(message.id, type) : handle.channel.sendReaction(message.id, { type })).catch(
          (failure: unknown) => handle.setNotice(`The reaction was not saved: ${describeApiError(failure).text}.`),
        ),
      onJumpTo: (id: string) => {
        setThread(null);
        void handle.jumpTo(id);
      },
    }),
    [handle],
  );

  if (status === 'error') {
    return (
      <StatusView
        tone="error"
        title="This conversation could not be opened."
        detail={error?.message}
        actionLabel="Try again"
        onAction={() => void handle.load()}
      />
    );
  }
  if (deleted) return <StatusView tone="info" title="This conversation was deleted." detail="Its messages are no longer available." />;
  if (status !== 'ready') return <StatusView tone="info" title="Loading messages…" />;
  if (panel !== 'messages') {
    return (
      <>
        <div className="subheader" part="subheader">
          <button type="button" className="icon-button small" aria-label={`Back to ${name}`} onClick={() => setPanel('messages')}>
            <BackIcon />
          </button>
          <span>{PANEL_TITLES[panel]}</span>
        </div>
        {panel === 'members' && <MembersView handle={handle} ownUserId={ownUserId} />}
        {panel === 'threads' && <ThreadList client={handle.channel.getClient()} cid={handle.cid} ownUserId={ownUserId} onOpen={openThread} />}
        {panel === 'reminders' && (
          <RemindersView
            client={handle.channel.getClient()}
            onError={setNotice}
            onJump={(cid, messageId) => {
              setPanel('messages');
              if (cid === handle.cid) void handle.jumpTo(messageId);
              else setNotice('That reminder is in another conversation.');
            }}
          />
        )}
      </>
    );
  }
  return (
    <>
      {thread ? (
        <div className="subheader" part="thread-header">
          <button type="button" className="icon-button small" aria-label={`Back to ${name}`} onClick={() => setThread(null)}>
            <BackIcon />
          </button>
          <span>Thread</span>
        </div>
      ) : (
        <PinnedBar pinned={pinned} onJump={(id) => void handle.jumpTo(id)} />
      )}
      {notice && (
        <p className="notice" part="notice" role="status">
          <span>{notice}</span>
          <button type="button" className="icon-button small" aria-label="Dismiss" onClick={() => handle.setNotice(null)}>
            <CloseIcon />
          </button>
        </p>
      )}
      {thread ? (
        <ThreadView
          key={thread.parentId}
          handle={thread}
          ownUserId={ownUserId}
          offline={offline}
          capabilities={capabilities}
          handlers={threadHandlers}
          onSendResult={sent}
        />
      ) : (
        <>
          <MessageList handle={handle} ownUserId={ownUserId} onSendResult={sent} onOpenThread={(message) => openThread(message.id)} />
          {ban && (
            <p className="notice banned" part="banned-notice" role="status">
              {`You are banned from ${ban.app ? 'the chat' : 'this conversation'}${ban.until ? ` until ${formatBanEnd(ban.until)}` : ''}.`}
            </p>
          )}
          <Composer
            composer={handle.channel.messageComposer}
            disabled={offline || !!ban || !capabilities.includes('send-message')}
            send={() => handle.send()}
            onSendResult={sent}
          />
        </>
      )}
    </>
  );
}

const banEndFormat = lazyDateFormat({ month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** A ban's end: the time alone when it is today. */
function formatBanEnd(until: string): string {
  const end = new Date(until);
  return end.toDateString() === new Date().toDateString() ? formatTime(end) : banEndFormat(end);
}
