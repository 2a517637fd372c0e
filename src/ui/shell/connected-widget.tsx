import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { StateStore, type Channel } from 'stream-chat';
import { panelShown, type ChannelRef, type NotifyOptions, type Presentation, type WidgetConfig } from '../../contract/attributes';
import { summarizeMessage, type Emit } from '../../contract/events';
import type { ChannelViewState, SendResult } from '../../session/channel-handle';
import { SessionError } from '../../session/session-error';
import type { SessionState } from '../../session/chat-session';
import { sessionFor } from '../../session/sessions';
import { useStateStore } from '../../session/use-state-store';
import { ChannelList } from '../views/channel-list';
import { ChatClientContext } from '../common/chat-client';
import { ChannelView, type ChannelPanel } from '../views/channel-view';
import { Frame } from './frame';
import { BellIcon, MembersIcon, SearchIcon, ThreadsIcon } from '../common/icons';
import { createSearch } from '../search/search-sources';
import { loadSearch } from '../search/search-loader';
import { PartPending, usePart } from '../common/use-part';
import { StatusView } from '../common/status-view';
import { prepareFormats } from '../common/format';
import { useLocalization, useSay } from '../common/localization';
import { useNotify } from '../notify/use-notify';

const selectSession = (state: SessionState) => ({ ...state });
const selectSummary = (state: ChannelViewState) => ({
  status: state.status,
  error: state.error,
  name: state.name,
  onlineCount: state.onlineCount,
  unreadCount: state.unreadCount,
});
// Read when no channel is open, so the hooks above run the same way every render.
const NO_CHANNEL = new StateStore<ChannelViewState>({
  status: 'idle', error: null, messages: [], hasOlder: false, hasNewer: false, atLatest: true,
  loadingOlder: false, loadingNewer: false, highlightedId: null, notice: null, unreadSince: null,
  pinned: [], read: {}, members: [], capabilities: [], name: '', watcherCount: 0, onlineCount: 0, memberCount: 0, unreadCount: 0, typing: [],
  ban: null, deleted: false,
});

interface ConnectedWidgetProps {
  config: WidgetConfig;
  presentation: Presentation;
  notify: NotifyOptions;
  emit: Emit;
  setOpen: (open: boolean) => void;
}

/** A valid configuration: the shared session, the channel, and the events the host page hears. */
export function ConnectedWidget({ config, presentation, notify, emit, setOpen }: ConnectedWidgetProps) {
  const { apiKey, baseUrl, tokenEndpoint, userName } = config;
  const { t, locale } = useLocalization();
  const say = useSay();
  const session = useMemo(
    () => sessionFor({ apiKey, baseUrl, tokenEndpoint, userName }),
    [apiKey, baseUrl, tokenEndpoint, userName],
  );
  // A layout effect holds the session synchronously, so moving the element releases and
  // re-takes it in one task and the connection survives.
  useLayoutEffect(() => session.retain(), [session]);
  useEffect(() => session.setComposerOptions({ drafts: config.drafts }), [session, config.drafts]);
  const { status, error, warning, userId, totalUnread, channel: granted, cached } = useStateStore(session.state, selectSession);
  // The conversation the site's token endpoint chose for this visitor wins over the attribute.
  const home = granted ?? config.channel;

  // This panel exists only once the chat is wanted (the element makes it when the panel is shown,
  // or at once for a browser that chatted here before): it connects at once, and again after a
  // sign-out or an identity change. A layout effect, so the requests leave before the first paint;
  // the channel's watch goes out with the socket (often already opened on the visitor's intent).
  useLayoutEffect(() => session.watchEarly(config.channel), [session, config.channel?.type, config.channel?.id]);
  useLayoutEffect(() => {
    if (status === 'idle') session.connect().catch(() => undefined);
  }, [status, session]);
  const reportError = (failure: SessionError) => emit('chat-widget-error', { reason: failure.reason, message: failure.message });
  useEffect(() => {
    if (error) reportError(error);
  }, [error]);
  // The chat works, but the site should fix this (its policy blocks the socket; the SDK polls).
  useEffect(() => {
    if (warning) reportError(warning);
  }, [warning]);

  const live = status === 'connected' || status === 'offline';
  // Not connected (yet, or the chat cannot be reached), the panel shows what this browser kept.
  const fromCache = !live && cached > 0;
  const connected = live || fromCache;
  const keptConversations = useMemo(() => (fromCache ? session.keptConversations() : []), [fromCache, session, cached]);
  const keepList = useCallback((channels: Channel[]) => session.keep(...channels), [session]);
  const [picked, setPicked] = useState<ChannelRef | null>(null);
  const [panel, setPanel] = useState<ChannelPanel>('messages');
  // A channel opened from search replaces the configured one until the reader goes back.
  const ref = picked ?? home;
  const handle = useMemo(
    () => (connected && ref ? session.channel(ref) : null),
    [connected, session, ref?.type, ref?.id, cached],
  );
  useEffect(() => {
    if (handle && live) void handle.load();
    else if (handle) void handle.showCached();
  }, [handle, live]);
  // A shown panel's message list would pay for the page's ICU set-up (its first Intl formatter,
  // 11–16 ms) just as the channel's answer arrives. The chat connects in the socket's own task,
  // whose microtasks send the early watch; a task queued from here runs after that, while the
  // answer travels. Not for a closed bubble (a returning visitor's connects at once) nor for the
  // channel list, which shows no dates.
  const shown = panelShown(presentation);
  useLayoutEffect(() => {
    if (!handle || !shown) return;
    const timer = setTimeout(() => prepareFormats(locale));
    return () => clearTimeout(timer);
  }, [handle, shown, locale]);

  // Search shows in place of the channel body. Opening a result switches the open channel as the
  // channel list does; a message result then jumps to its message once the channel is loaded.
  const [searching, setSearching] = useState(false);
  const [searchFocus, setSearchFocus] = useState(0);
  // Another visitor (the site signed someone in or out): nothing of the previous one's panel stays.
  useEffect(() => {
    setPicked(null);
    setPanel('messages');
    setSearching(false);
  }, [session]);
  const [jump, setJump] = useState<{ cid: string; messageId: string } | null>(null);
  const search = useMemo(() => (live && userId ? createSearch(session.client, userId) : null), [live, session, userId]);
  const searchPart = usePart(loadSearch, searching);
  useEffect(() => {
    if (!handle || !jump || handle.cid !== jump.cid) return;
    setJump(null);
    void handle.load().then(() => handle.jumpTo(jump.messageId));
  }, [handle, jump]);
  const openFromSearch = (next: ChannelRef, messageId?: string) => {
    const configured = home?.type === next.type && home.id === next.id;
    setPicked(configured ? null : next);
    setPanel('messages');
    setSearching(false);
    if (messageId) setJump({ cid: `${next.type}:${next.id}`, messageId });
  };
  // Ctrl+K / Cmd+K anywhere in the panel opens search, or gives its query box the focus again.
  const onPanelKey = (event: KeyboardEvent<HTMLElement>) => {
    if (!search || event.key.toLowerCase() !== 'k' || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    event.preventDefault();
    setSearching(true);
    setSearchFocus((n) => n + 1);
  };
  const channel = useStateStore(handle?.state ?? NO_CHANNEL, selectSummary);
  useEffect(() => {
    if (channel.error) reportError(channel.error);
  }, [channel.error]);
  const onSendResult = (result: SendResult) => {
    if (result instanceof SessionError) reportError(result);
    else if (result) emit('chat-widget-message-sent', { message: summarizeMessage(result) });
  };

  const unread = home ? channel.unreadCount : totalUnread;
  const lastUnread = useRef(0);
  // The launcher's badge (the element's) follows this event too.
  useEffect(() => {
    if (unread === lastUnread.current) return;
    lastUnread.current = unread;
    emit('chat-widget-unread', { count: unread });
  }, [unread, emit]);
  useNotify(session.client, notify, unread, shown);

  const readyKey = live && (home ? channel.status === 'ready' : true) ? `${userId}|${ref?.id ?? ''}` : null;
  useEffect(() => {
    if (readyKey && userId) emit('chat-widget-ready', { userId, channel: handle?.cid ?? null });
  }, [readyKey]);

  useEffect(() => {
    if (!handle) return;
    return handle.channel.on('message.new', (event) => {
      if (event.message && event.user?.id !== session.client.userID) {
        emit('chat-widget-message', { message: summarizeMessage(event.message) });
      }
    }).unsubscribe;
  }, [handle, session, emit]);

  let body;
  if (status === 'error' && error?.reason.startsWith('account-')) {
    // A closed account is the site's decision: there is nothing to try again.
    body = <StatusView tone="error" title={say(error.text)} detail={t('panel.contactSite')} />;
  } else if (status === 'error' && !(fromCache && (handle ? channel.status === 'ready' : keptConversations.length > 0))) {
    body = (
      <StatusView
        tone="error"
        title={t('panel.unavailable')}
        detail={say(error?.text)}
        actionLabel={t('panel.tryAgain')}
        onAction={() => session.connect().catch(() => undefined)}
      />
    );
  } else if (!connected || !userId || (!live && !handle && !keptConversations.length)) {
    body = <StatusView tone="info" title={t('panel.connecting')} />;
  } else if (searching && search && !searchPart.part) {
    body = <PartPending {...searchPart} />;
  } else if (searching && search && searchPart.part) {
    const { SearchView } = searchPart.part;
    body = (
      <SearchView
        search={search}
        client={session.client}
        ownUserId={userId}
        focusKey={searchFocus}
        onOpenChannel={(next) => openFromSearch(next)}
        onOpenMessage={openFromSearch}
        onClose={() => setSearching(false)}
      />
    );
  } else if (!handle) {
    // Shown from the cache until the connection comes; then a list of its own asks the backend.
    body = live ? (
      <ChannelList key="live" client={session.client} userId={userId} onPick={setPicked} onKeep={keepList} />
    ) : (
      <ChannelList key="kept" client={session.client} userId={userId} onPick={setPicked} kept={keptConversations} />
    );
  } else {
    body = (
      <ChannelView
        handle={handle}
        panel={panel}
        setPanel={setPanel}
        ownUserId={userId}
        onSendResult={onSendResult}
      />
    );
  }

  const toggle = (which: ChannelPanel) => setPanel(panel === which ? 'messages' : which);
  const channelActions = live && !searching && handle && channel.status === 'ready' && (
    <>
      <button type="button" className="icon-button" part="threads-button" aria-label={t('panel.threads')} aria-pressed={panel === 'threads'} onClick={() => toggle('threads')}>
        <ThreadsIcon />
      </button>
      <button type="button" className="icon-button" part="reminders-button" aria-label={t('panel.reminders')} aria-pressed={panel === 'reminders'} onClick={() => toggle('reminders')}>
        <BellIcon />
      </button>
      <button type="button" className="icon-button" part="members-button" aria-label={t('panel.members')} aria-pressed={panel === 'members'} onClick={() => toggle('members')}>
        <MembersIcon />
      </button>
    </>
  );
  const actions = (
    <>
      {search && (
        <button type="button" className="icon-button" part="search-button" aria-label={t('panel.search')} aria-keyshortcuts="Control+K Meta+K" aria-pressed={searching} onClick={() => setSearching(!searching)}>
          <SearchIcon />
        </button>
      )}
      {channelActions}
    </>
  );
  const title = searching ? t('panel.search') : home || picked ? channel.name || t('panel.chat') : t('panel.conversations');
  const subtitle = live && !searching && handle && channel.status === 'ready' ? t('panel.online', { count: channel.onlineCount }) : undefined;
  return (
    <ChatClientContext.Provider value={session.client}>
      <Frame
        {...presentation}
        setOpen={setOpen}
        title={title}
        subtitle={subtitle}
        onBack={searching ? () => setSearching(false) : picked ? () => setPicked(null) : undefined}
        backLabel={t(searching ? 'panel.closeSearch' : home ? 'panel.backToChat' : 'panel.backToConversations')}
        actions={actions}
        onKeyDown={onPanelKey}
      >
        {(status === 'offline' || (fromCache && status === 'error')) && (
          <p className="banner" part="offline-banner" role="status">
            {t('panel.offline')}
          </p>
        )}
        {body}
      </Frame>
    </ChatClientContext.Provider>
  );
}
