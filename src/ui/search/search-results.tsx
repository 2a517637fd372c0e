// One row per search result: a person, a channel, or a message with its author and channel.
// Each row is a button that opens what it shows.
import type { Channel, MessageResponse, StreamChat, UserResponse } from 'stream-chat';
import { displayName, formatTime, initial, lazyDateFormat } from '../common/format';
import { useLocalization } from '../common/localization';
import { Highlight, snippet } from './highlight';

const dayFormat = lazyDateFormat({ month: 'short', day: 'numeric' });

/** Today's messages by their time, older ones by their day. */
function when(value: string | Date | undefined, locale: string): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return date.toDateString() === new Date().toDateString() ? formatTime(date, locale) : dayFormat(date, locale);
}

/** A channel's name; a direct conversation without one is named after the others in it. */
export function conversationName(client: StreamChat, channel: Channel | undefined, fallback: string): string {
  const name = (channel?.data as { name?: unknown } | undefined)?.name;
  if (typeof name === 'string' && name) return name;
  const others = Object.values(channel?.state.members ?? {})
    .filter((member) => member.user_id !== client.userID)
    .map((member) => displayName(member.user ?? { id: member.user_id ?? '' }));
  return others.length ? others.join(', ') : fallback;
}

interface HitProps {
  words: string[];
  busy?: boolean;
  onOpen: () => void;
}

export function UserHit({ user, words, busy, onOpen }: HitProps & { user: UserResponse }) {
  const name = displayName(user);
  const { t } = useLocalization();
  return (
    <button type="button" className="search-hit" part="search-result" aria-busy={busy || undefined} disabled={busy} onClick={onOpen}>
      <span className="avatar" aria-hidden="true">
        {initial(name)}
        <span className={`presence${user.online ? ' online' : ''}`} />
      </span>
      <span className="search-hit-text">
        <span className="search-hit-title">
          <Highlight text={name} words={words} />
        </span>
        <span className="search-hit-detail">
          {user.name ? <Highlight text={`@${user.id}`} words={words} /> : null}
          {busy ? t('search.opening') : user.online ? t('search.online') : ''}
        </span>
      </span>
    </button>
  );
}

export function ChannelHit({ client, channel, words, onOpen }: HitProps & { client: StreamChat; channel: Channel }) {
  const name = conversationName(client, channel, channel.id ?? channel.cid);
  const count = channel.data?.member_count ?? Object.keys(channel.state.members).length;
  const { t } = useLocalization();
  return (
    <button type="button" className="search-hit" part="search-result" onClick={onOpen}>
      <span className="avatar square" aria-hidden="true">
        {initial(name)}
      </span>
      <span className="search-hit-text">
        <span className="search-hit-title">
          <Highlight text={name} words={words} />
        </span>
        <span className="search-hit-detail">{t('search.memberCount', { count })}</span>
      </span>
    </button>
  );
}

export function MessageHit({ client, message, words, onOpen }: HitProps & { client: StreamChat; message: MessageResponse }) {
  const author = displayName(message.user);
  const { t, locale } = useLocalization();
  const cid = message.cid ?? '';
  // Hits carry their channel (the provider's search and ours add it); the SDK loads it too.
  const named = (message.channel as { name?: unknown } | undefined)?.name;
  const channel = conversationName(client, client.activeChannels[cid], typeof named === 'string' && named ? named : cid.split(':')[1] || cid);
  return (
    <button type="button" className="search-hit message-hit" part="search-result" onClick={onOpen}>
      <span className="avatar" aria-hidden="true">
        {initial(author)}
      </span>
      <span className="search-hit-text">
        <span className="search-hit-meta">
          <span className="search-hit-author">{author}</span>
          <span className="search-hit-channel">{t('search.inChannel', { name: channel })}</span>
          <time className="search-hit-time" dateTime={String(message.created_at ?? '')}>
            {when(message.created_at, locale)}
          </time>
        </span>
        <span className="search-hit-snippet">
          <Highlight text={snippet(message.text ?? '', words)} words={words} />
        </span>
      </span>
    </button>
  );
}
