import { useCallback, useEffect, useMemo, useState } from 'react';
import type { LocalMessage } from 'stream-chat';
import type { ChannelHandle, ChannelViewState, SendResult } from '../../session/channel-handle';
import { runAction } from '../../session/message-actions';
import { SessionError, why } from '../../session/session-error';
import type { MessageKey } from '../../i18n/en';
import { text, type Text } from '../../i18n/translate';
import { useLocalization, useSay, useT } from '../common/localization';
import { ThreadHandle } from '../../session/thread-handle';
import { useStateStore } from '../../session/use-state-store';
import { Composer } from '../composer/composer';
import { BackIcon, CloseIcon, PushpinIcon } from '../common/icons';
import { MessageList } from '../message/message-list';
import { formatTime, lazyDateFormat } from '../common/format';
import { StatusView } from '../common/status-view';
import { PartPending, usePart } from '../common/use-part';
import { loadSideViews } from './side-views-loader';
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

const PANEL_TITLES = { members: 'panel.members', threads: 'panel.threads', reminders: 'panel.reminders' } as const satisfies Record<Exclude<ChannelPanel, 'messages'>, MessageKey>;

interface ChannelViewProps {
  handle: ChannelHandle;
  panel: ChannelPanel;
  setPanel: (panel: ChannelPanel) => void;
  ownUserId: string | null;
  onSendResult: (result: SendResult) => void;
}

function PinnedBar({ pinned, onJump }: { pinned: LocalMessage[]; onJump: (id: string) => void }) {
  const t = useT();
  const latest = pinned.at(-1);
  if (!latest) return null;
  return (
    <button type="button" className="pinned-bar" part="pinned-bar" onClick={() => onJump(latest.id)}>
      <PushpinIcon />
      <span className="pinned-text" dir="auto">{latest.text || t('channel.pinnedMessage')}</span>
      {pinned.length > 1 && <span className="pinned-count">{t('channel.pinnedCount', { count: pinned.length })}</span>}
    </button>
  );
}

export function ChannelView({ handle, panel, setPanel, ownUserId, onSendResult }: ChannelViewProps) {
  const { status, error, notice, pinned, name, capabilities, ban, deleted } = useStateStore(handle.state, selectView);
  const [thread, setThread] = useState<ThreadHandle | null>(null);
  const { t, locale } = useLocalization();
  const say = useSay();
  const sideViews = usePart(loadSideViews, panel !== 'messages');

  const openThread = useCallback(
    (parentId: string) => {
      setThread(new ThreadHandle(handle.channel.getClient(), parentId));
      setPanel('messages');
    },
    [handle, setPanel],
  );

  const setNotice = useCallback((notice: Text | null) => handle.setNotice(notice), [handle]);
  // A send refused for its rate says so above the composer too, with when to retry.
  const sent = useCallback(
    (result: SendResult) => {
      if (result instanceof SessionError && result.notice) handle.setNotice(result.text);
      onSendResult(result);
    },
    [handle, onSendResult],
  );

  // A reminder that comes due is shown at once, wherever the reader is.
  useEffect(
    () =>
      handle.channel.getClient().on('notification.reminder_due', (event) => {
        const reminder = (event as { reminder?: { message?: { text?: string } } }).reminder;
        const saved = reminder?.message?.text;
        handle.setNotice(saved ? text('channel.reminderDue', { text: saved }) : text('channel.reminderDueUntitled'));
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
        void runAction(handle.channel, message, action).then((notice) => notice && handle.setNotice(notice)),
      onReact: (message: LocalMessage, type: string, remove: boolean) =>
        void handle.react(message, type, remove).catch(
          (failure: unknown) => handle.setNotice(text('channel.reactionFailed', { why: why(failure) })),
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
        title={t('channel.failed')}
        detail={say(error?.text)}
        actionLabel={t('panel.tryAgain')}
        onAction={() => void handle.load()}
      />
    );
  }
  if (deleted) return <StatusView tone="info" title={t('channel.deleted')} detail={t('channel.deletedDetail')} />;
  if (status !== 'ready') return <StatusView tone="info" title={t('channel.loading')} />;
  if (panel !== 'messages') {
    const views = sideViews.part;
    return (
      <>
        <div className="subheader" part="subheader">
          <button type="button" className="icon-button small" aria-label={t('channel.backTo', { name })} onClick={() => setPanel('messages')}>
            <BackIcon />
          </button>
          <span>{t(PANEL_TITLES[panel])}</span>
        </div>
        {!views && <PartPending {...sideViews} />}
        {panel === 'members' && views && <views.MembersView handle={handle} ownUserId={ownUserId} />}
        {panel === 'threads' && views && <views.ThreadList client={handle.channel.getClient()} cid={handle.cid} ownUserId={ownUserId} onOpen={openThread} />}
        {panel === 'reminders' && views && (
          <views.RemindersView
            client={handle.channel.getClient()}
            onError={setNotice}
            onJump={(cid, messageId) => {
              setPanel('messages');
              if (cid === handle.cid) void handle.jumpTo(messageId);
              else setNotice(text('channel.reminderElsewhere'));
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
          <button type="button" className="icon-button small" aria-label={t('channel.backTo', { name })} onClick={() => setThread(null)}>
            <BackIcon />
          </button>
          <span>{t('channel.thread')}</span>
        </div>
      ) : (
        <PinnedBar pinned={pinned} onJump={(id) => void handle.jumpTo(id)} />
      )}
      {notice && (
        <p className="notice" part="notice" role="status">
          <span>{say(notice)}</span>
          <button type="button" className="icon-button small" aria-label={t('panel.dismiss')} onClick={() => handle.setNotice(null)}>
            <CloseIcon />
          </button>
        </p>
      )}
      {thread ? (
        <ThreadView
          key={thread.parentId}
          handle={thread}
          ownUserId={ownUserId}
          capabilities={capabilities}
          handlers={threadHandlers}
          onSendResult={sent}
        />
      ) : (
        <>
          <MessageList handle={handle} ownUserId={ownUserId} onSendResult={sent} onOpenThread={(message) => openThread(message.id)} />
          {ban && (
            <p className="notice banned" part="banned-notice" role="status">
              {ban.until
                ? t(ban.app ? 'channel.bannedAppUntil' : 'channel.bannedHereUntil', { until: formatBanEnd(ban.until, locale) })
                : t(ban.app ? 'channel.bannedApp' : 'channel.bannedHere')}
            </p>
          )}
          <Composer
            // One per conversation: what is under way in one (a recording, a sheet) stays with it.
            key={handle.channel.cid}
            composer={handle.channel.messageComposer}
            disabled={!!ban || !capabilities.includes('send-message')}
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
function formatBanEnd(until: string, locale: string): string {
  const end = new Date(until);
  return end.toDateString() === new Date().toDateString() ? formatTime(end, locale) : banEndFormat(end, locale);
}
