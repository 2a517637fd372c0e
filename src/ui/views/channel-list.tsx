import { useEffect, useMemo, useReducer, useRef, useState, type ReactNode } from 'react';
import type { Channel, ChannelFilters, ChannelManagerState, ChannelSort, StreamChat } from 'stream-chat';
import type { ChannelRef } from '../../contract/attributes';
import { channelName } from '../../session/channel-handle';
import type { MessageKey } from '../../i18n/en';
import { text, type Text, type Translate } from '../../i18n/translate';
import { why } from '../../session/session-error';
import { useStateStore } from '../../session/use-state-store';
import { initial } from '../common/format';
import { PushpinIcon } from '../common/icons';
import { loadSideViews } from './side-views-loader';
import { StatusView } from '../common/status-view';
import { PartPending, usePart } from '../common/use-part';
import { useSay, useT } from '../common/localization';

const selectChannels = (state: ChannelManagerState) => ({
  channels: state.channels,
  initialized: state.initialized,
  error: state.error,
});

// Pinned channels first (the SDK's ChannelManager keeps them there when the sort says so),
// then by latest activity; archived channels are listed apart.
const SORT: ChannelSort = [{ pinned_at: -1 }, { last_message_at: -1 }];
const MUTE_FOR_MS = 60 * 60 * 1000;
// Events that change what a row shows without reordering the list.
const ROW_EVENTS = ['notification.mark_read', 'message.read', 'notification.channel_mutes_updated', 'member.updated', 'channel.updated'];

function lastMessagePreview(t: Translate, channel: Channel): string {
  const last = channel.state.latestMessages.at(-1);
  if (!last) return t('list.noMessages');
  if (last.type === 'deleted') return t('message.deleted');
  const said = last.text || (last.attachments?.length ? t('message.attachment') : '');
  return t('list.lastMessage', { name: last.user?.name || last.user?.id || '', text: said });
}

interface ChannelRowProps {
  channel: Channel;
  /** Shown in the archived conversations: its menu unarchives. */
  archived: boolean;
  onPick: (ref: ChannelRef) => void;
  onError: (notice: Text) => void;
}

function ChannelRow({ channel, archived, onPick, onError }: ChannelRowProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const t = useT();
  const name = channelName(channel);
  const unread = channel.countUnread();
  const pinned = Boolean(channel.state.membership?.pinned_at);
  const muted = channel.muteStatus().muted;
  const act = (label: MessageKey, run: () => Promise<unknown>) => () => {
    setMenuOpen(false);
    run().catch((error: unknown) => onError(text('actions.failed', { action: text(label), why: why(error) })));
  };
  return (
    <li className="channel-row">
      <button type="button" className={`channel-item${unread ? ' unread' : ''}`} part="channel-item" onClick={() => onPick({ type: channel.type, id: channel.id ?? '' })}>
        <span className="avatar" aria-hidden="true">
          {initial(name)}
        </span>
        <span className="channel-text">
          <span className="channel-name">
            {pinned && (
              <span className="inline-icon" aria-label={t('list.pinned')}>
                <PushpinIcon />
              </span>
            )}
            {name}
            {muted && <span className="muted-label">{t('list.muted')}</span>}
          </span>
          <span className="channel-preview" dir="auto">{lastMessagePreview(t, channel)}</span>
        </span>
        {/* A muted conversation's unread (from before the mute) is shown, but not as an alert. */}
        {unread > 0 && <span className={`badge inline-badge${muted ? ' muted-badge' : ''}`} aria-label={t('list.unread', { count: unread })}>{unread}</span>}
      </button>
      <div className="action-menu">
        <button type="button" className="menu-trigger visible" aria-label={t('list.options', { name })} aria-haspopup="menu" aria-expanded={menuOpen} onClick={() => setMenuOpen(!menuOpen)}>
          ⋯
        </button>
        {menuOpen && (
          <div className="menu" role="menu" onKeyDown={(event) => event.key === 'Escape' && setMenuOpen(false)}>
            <button type="button" role="menuitem" className="menu-item" onClick={act(pinned ? 'list.unpin' : 'list.pinShort', () => (pinned ? channel.unpin() : channel.pin()))}>
              {t(pinned ? 'list.unpin' : 'list.pin')}
            </button>
            <button type="button" role="menuitem" className="menu-item" onClick={act(muted ? 'list.unmute' : 'list.muteShort', () => (muted ? channel.unmute() : channel.mute({ expiration: MUTE_FOR_MS })))}>
              {t(muted ? 'list.unmute' : 'list.mute')}
            </button>
            {archived ? (
              <button type="button" role="menuitem" className="menu-item" onClick={act('list.unarchive', () => channel.unarchive())}>
                {t('list.unarchive')}
              </button>
            ) : (
              <button type="button" role="menuitem" className="menu-item" onClick={act('list.archive', () => channel.archive())}>
                {t('list.archive')}
              </button>
            )}
          </div>
        )}
      </div>
    </li>
  );
}

interface ChannelListProps {
  client: StreamChat;
  userId: string;
  onPick: (ref: ChannelRef) => void;
  /** Shown from what this browser kept (the chat not connected): these conversations, not asked for. */
  kept?: Channel[];
  /** Connected: the list as the backend answered it, for this browser to keep. */
  onKeep?: (channels: Channel[]) => void;
}

/** The list's own page of archived conversations reaches this many; more shows as "30+". */
const ARCHIVED_PAGE = 30;

/**
 * How many conversations the visitor archived, counted again when they archive or unarchive one
 * here or on another device: member.updated, which carries their membership's archived_at, comes
 * for both (once per change, so one count).
 */
function useArchivedCount(client: StreamChat, userId: string): number {
  const [count, setCount] = useState(0);
  const [asked, recount] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    let current = true;
    client
      .queryChannels({ members: { $in: [userId] }, archived: true }, SORT, { limit: ARCHIVED_PAGE, watch: false, presence: false })
      .then((channels) => current && setCount(channels.length))
      .catch(() => undefined); // the entry stays as it was; the list itself says if loading fails
    return () => {
      current = false;
    };
  }, [client, userId, asked]);
  useEffect(() => {
    const mine = (event: { member?: { user_id?: string; user?: { id: string } } }) =>
      (event.member?.user_id ?? event.member?.user?.id) === userId && recount();
    return client.on('member.updated', mine).unsubscribe;
  }, [client, userId]);
  return count;
}

/**
 * The user's channels, kept live by the SDK's ChannelManager (it reorders on new messages,
 * keeps pinned channels on top, drops archived ones, and adds channels the user joins). At the
 * end, "Archived (N)" opens the archived ones, each with "Unarchive", kept live the same way.
 */
export function ChannelList({ client, userId, onPick, kept, onKeep }: ChannelListProps) {
  const [showArchived, setShowArchived] = useState(false);
  const archivedCount = useArchivedCount(client, userId);
  const t = useT();
  if (showArchived) {
    return (
      <div className="channel-list-view">
        <button type="button" className="new-conversation-button" part="archived-back" onClick={() => setShowArchived(false)}>
          {t('panel.backToConversations')}
        </button>
        <Conversations client={client} userId={userId} archived onPick={onPick} />
      </div>
    );
  }
  return (
    <Conversations client={client} userId={userId} archived={false} onPick={onPick} kept={kept} onKeep={onKeep}>
      {archivedCount > 0 && (
        <button type="button" className="archived-entry" part="archived-entry" onClick={() => setShowArchived(true)}>
          {t('list.archived', { count: archivedCount >= ARCHIVED_PAGE ? `${ARCHIVED_PAGE}+` : archivedCount })}
        </button>
      )}
    </Conversations>
  );
}

interface ConversationsProps {
  client: StreamChat;
  userId: string;
  archived: boolean;
  onPick: (ref: ChannelRef) => void;
  /** What follows the list (the archived entry). */
  children?: ReactNode;
  kept?: Channel[];
  onKeep?: (channels: Channel[]) => void;
}

/**
 * The list is kept for the next open a moment after it loads, then at most this often: it changes
 * with every message in any of its conversations, and a save writes them all.
 */
const KEEP_AFTER_MS = 1000;
const KEEP_EVERY_MS = 30_000;

function Conversations({ client, userId, archived, onPick, children, kept, onKeep }: ConversationsProps) {
  const manager = useMemo(() => client.createChannelManager({}), [client]);
  const { channels, initialized, error } = useStateStore(manager.state, selectChannels);
  const [notice, setNotice] = useState<Text | null>(null);
  const [starting, setStarting] = useState(false);
  const sideViews = usePart(loadSideViews, starting);
  const t = useT();
  const say = useSay();
  const [, refresh] = useReducer((n: number) => n + 1, 0);
  const filters: ChannelFilters = useMemo(() => ({ members: { $in: [userId] }, archived }), [userId, archived]);
  const load = () => void manager.queryChannels(filters, SORT, { limit: 30 });

  useEffect(() => {
    manager.registerSubscriptions();
    if (kept) manager.state.partialNext({ channels: kept, initialized: true });
    else load();
    const stops = ROW_EVENTS.map((type) => client.on(type, refresh).unsubscribe);
    // Back after a lost connection: the list is asked again (order, previews and counts may all
    // have changed, and conversations may be new), keeping the rows shown meanwhile.
    stops.push(client.on('connection.recovered', load).unsubscribe);
    return () => {
      manager.unregisterSubscriptions();
      stops.forEach((stop) => stop());
    };
  }, [manager, filters, client]);

  const keeping = useRef<{ timer?: ReturnType<typeof setTimeout>; kept: boolean; channels: Channel[] }>({ kept: false, channels });
  keeping.current.channels = channels;
  useEffect(() => {
    const keep = keeping.current;
    if (!onKeep || !initialized || !channels.length || keep.timer) return;
    keep.timer = setTimeout(
      () => {
        keep.timer = undefined;
        keep.kept = true;
        onKeep(keep.channels);
      },
      keep.kept ? KEEP_EVERY_MS : KEEP_AFTER_MS,
    );
  }, [onKeep, initialized, channels]);
  useEffect(() => () => clearTimeout(keeping.current.timer), []);

  if (error) {
    return <StatusView tone="error" title={t('list.failed')} detail={say(why(error))} actionLabel={t('panel.tryAgain')} onAction={load} />;
  }
  if (!initialized) return <StatusView tone="info" title={t('list.loading')} />;
  return (
    <div className="channel-list-view">
      {archived ? null : starting ? (
        sideViews.part ? (
          <sideViews.part.NewConversation client={client} userId={userId} onStarted={onPick} onCancel={() => setStarting(false)} onError={setNotice} />
        ) : (
          <PartPending {...sideViews} />
        )
      ) : (
        <button type="button" className="new-conversation-button" part="new-conversation" onClick={() => setStarting(true)}>
          {t('list.newConversation')}
        </button>
      )}
      {notice && (
        <p className="notice" role="status">
          <span>{say(notice)}</span>
        </p>
      )}
      {channels.length === 0 ? (
        <p className="empty">{t(archived ? 'list.archivedEmpty' : 'list.empty')}</p>
      ) : (
        <ul className="channel-list" part="channel-list" aria-label={archived ? t('list.archived', { count: channels.length }) : t('panel.conversations')}>
          {channels.map((channel) => (
            <ChannelRow key={channel.cid} channel={channel} archived={archived} onPick={onPick} onError={setNotice} />
          ))}
        </ul>
      )}
      {children}
    </div>
  );
}
