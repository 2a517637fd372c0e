import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { StateStore, type MessageResponse } from 'stream-chat';
import type { ChannelRef, Presentation, WidgetConfig } from '../element/attributes';
import type { Emit, MessageSummary } from '../element/events';
import type { ChannelViewState, SendResult } from '../session/channel-handle';
import { SessionError } from '../session/session-error';
import type { SessionState } from '../session/chat-session';
import { sessionFor } from '../session/sessions';
import { useStateStore } from '../session/use-state-store';
import { ChannelList } from './channel-list';
import { ChannelView, type ChannelPanel } from './channel-view';
import { Frame } from './frame';
import { BellIcon, MembersIcon, ThreadsIcon } from './icons';
import { StatusView } from './status-view';

const selectSession = (state: SessionState) => ({ ...state });
const selectSummary = (state: ChannelViewState) => ({
  status: state.status,
  error: state.error,
  name: state.name,
  watcherCount: state.watcherCount,
  unreadCount: state.unreadCount,
});
// Read when no channel is open, so the hooks above run the same way every render.
const NO_CHANNEL = new StateStore<ChannelViewState>({
  status: 'idle', error: null, messages: [], hasOlder: false, hasNewer: false, atLatest: true,
  loadingOlder: false, loadingNewer: false, highlightedId: null, notice: null, unreadSince: null,
  pinned: [], read: {}, members: [], capabilities: [], name: '', watcherCount: 0, memberCount: 0, unreadCount: 0, typing: [],
});

const summarize = (message: MessageResponse): MessageSummary => ({
  id: message.id,
  text: message.text ?? '',
  cid: message.cid ?? '',
  user: { id: message.user?.id ?? '', name: message.user?.name },
  createdAt: String(message.created_at ?? ''),
});

interface ConnectedWidgetProps {
  config: WidgetConfig;
  presentation: Presentation;
  emit: Emit;
  setOpen: (open: boolean) => void;
}

/** A valid configuration: the shared session, the channel, and the events the host page hears. */
export function ConnectedWidget({ config, presentation, emit, setOpen }: ConnectedWidgetProps) {
  const { apiKey, baseUrl, tokenEndpoint, userName } = config;
  const session = useMemo(
    () => sessionFor({ apiKey, baseUrl, tokenEndpoint, userName }),
    [apiKey, baseUrl, tokenEndpoint, userName],
  );
  // A layout effect holds the session synchronously, so moving the element releases and
  // re-takes it in one task and the connection survives.
  useLayoutEffect(() => session.retain(), [session]);
  const { status, error, userId, totalUnread } = useStateStore(session.state, selectSession);

  // No request and no socket until the visitor opens the chat, unless this browser chatted before.
  const [eager] = useState(() => session.connectsEagerly);
  const visible = presentation.open || presentation.mode === 'inline';
  useEffect(() => {
    if ((visible || eager) && status === 'idle') session.connect().catch(() => undefined);
  }, [visible, eager, status, session]);
  const reportError = (failure: SessionError) => emit('chat-widget-error', { reason: failure.reason, message: failure.message });
  useEffect(() => {
    if (error) reportError(error);
  }, [error]);

  const connected = status === 'connected' || status === 'offline';
  const [picked, setPicked] = useState<ChannelRef | null>(null);
  const [panel, setPanel] = useState<ChannelPanel>('messages');
  const ref = config.channel ?? picked;
  const handle = useMemo(
    () => (connected && ref ? session.channel(ref) : null),
    [connected, session, ref?.type, ref?.id],
  );
  useEffect(() => {
    if (handle) void handle.load();
  }, [handle]);
  const channel = useStateStore(handle?.state ?? NO_CHANNEL, selectSummary);
  useEffect(() => {
    if (channel.error) reportError(channel.error);
  }, [channel.error]);
  const onSendResult = (result: SendResult) => {
    if (result instanceof SessionError) reportError(result);
    else if (result) emit('chat-widget-message-sent', { message: summarize(result) });
  };

  const unread = config.channel ? channel.unreadCount : totalUnread;
  const lastUnread = useRef(0);
  useEffect(() => {
    if (unread === lastUnread.current) return;
    lastUnread.current = unread;
    emit('chat-widget-unread', { count: unread });
  }, [unread, emit]);

  const readyKey = connected && (config.channel ? channel.status === 'ready' : true) ? `${userId}|${ref?.id ?? ''}` : null;
  useEffect(() => {
    if (readyKey && userId) emit('chat-widget-ready', { userId, channel: handle?.cid ?? null });
  }, [readyKey]);

  useEffect(() => {
    if (!handle) return;
    return handle.channel.on('message.new', (event) => {
      if (event.message && event.user?.id !== session.client.userID) {
        emit('chat-widget-message', { message: summarize(event.message) });
      }
    }).unsubscribe;
  }, [handle, session, emit]);

  let body;
  if (status === 'error') {
    body = (
      <StatusView
        tone="error"
        title="Chat is unavailable right now."
        detail={error?.message}
        actionLabel="Try again"
        onAction={() => session.connect().catch(() => undefined)}
      />
    );
  } else if (!connected || !userId) {
    body = <StatusView tone="info" title="Connecting…" />;
  } else if (!handle) {
    body = <ChannelList client={session.client} userId={userId} onPick={setPicked} />;
  } else {
    body = (
      <ChannelView
        handle={handle}
        panel={panel}
        setPanel={setPanel}
        ownUserId={userId}
        offline={status === 'offline'}
        onSendResult={onSendResult}
      />
    );
  }

  const toggle = (which: ChannelPanel) => setPanel(panel === which ? 'messages' : which);
  const actions = handle && channel.status === 'ready' && (
    <>
      <button type="button" className="icon-button" part="threads-button" aria-label="Threads" aria-pressed={panel === 'threads'} onClick={() => toggle('threads')}>
        <ThreadsIcon />
      </button>
      <button type="button" className="icon-button" part="reminders-button" aria-label="Reminders" aria-pressed={panel === 'reminders'} onClick={() => toggle('reminders')}>
        <BellIcon />
      </button>
      <button type="button" className="icon-button" part="members-button" aria-label="Members" aria-pressed={panel === 'members'} onClick={() => toggle('members')}>
        <MembersIcon />
      </button>
    </>
  );
  const title = config.channel || picked ? channel.name || 'Chat' : 'Conversations';
  const subtitle = handle && channel.status === 'ready' ? `${channel.watcherCount} online` : undefined;
  return (
    <Frame
      {...presentation}
      setOpen={setOpen}
      unread={unread}
      title={title}
      subtitle={subtitle}
      onBack={picked && !config.channel ? () => setPicked(null) : undefined}
      actions={actions}
    >
      {status === 'offline' && (
        <p className="banner" part="offline-banner" role="status">
          You are offline. The chat reconnects when the network is back.
        </p>
      )}
      {body}
    </Frame>
  );
}
