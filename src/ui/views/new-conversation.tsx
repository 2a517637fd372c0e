import { useEffect, useState } from 'react';
import type { StreamChat, UserResponse } from 'stream-chat';
import type { ChannelRef } from '../../contract/attributes';
import { openDirectConversation } from '../../session/direct-conversation';
import { text, type Text } from '../../i18n/translate';
import { why } from '../../session/session-error';
import { useT } from '../common/localization';
import { displayName, initial } from '../common/format';

const SEARCH_DEBOUNCE_MS = 300;

interface NewConversationProps {
  client: StreamChat;
  userId: string;
  onStarted: (ref: ChannelRef) => void;
  onCancel: () => void;
  onError: (notice: Text) => void;
}

/** Finds a person and opens (or creates) the direct conversation with them: the channel of a member list. */
export function NewConversation({ client, userId, onStarted, onCancel, onError }: NewConversationProps) {
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<UserResponse[]>([]);
  const t = useT();

  useEffect(() => {
    if (!query.trim()) {
      setFound([]);
      return;
    }
    const timer = setTimeout(() => {
      void client
        .queryUsers({ $or: [{ id: { $autocomplete: query } }, { name: { $autocomplete: query } }] }, { id: 1 }, { limit: 9 })
        .then(({ users }) => setFound(users.filter((user) => user.id !== userId).slice(0, 8)))
        .catch((error: unknown) => onError(text('new.searchFailed', { why: why(error) })));
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query, client, userId, onError]);

  const start = async (other: UserResponse) => {
    try {
      onStarted(await openDirectConversation(client, userId, other.id));
    } catch (error) {
      onError(text('new.startFailed', { why: why(error) }));
    }
  };

  return (
    <div className="member-add new-conversation">
      <div className="new-conversation-row">
        <input
          type="search"
          className="member-search"
          placeholder={t('new.placeholder')}
          aria-label={t('new.label')}
          value={query}
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the person asked to start typing a name
          autoFocus
          onChange={(event) => setQuery(event.currentTarget.value)}
          onKeyDown={(event) => event.key === 'Escape' && onCancel()}
        />
        <button type="button" className="link-button" onClick={onCancel}>
          {t('new.cancel')}
        </button>
      </div>
      {found.length > 0 && (
        <ul className="member-results" aria-label={t('new.people')}>
          {found.map((user) => (
            <li key={user.id}>
              <button type="button" className="channel-item" onClick={() => void start(user)}>
                <span className="avatar" aria-hidden="true">{initial(displayName(user))}</span>
                <span className="channel-text">{displayName(user)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
