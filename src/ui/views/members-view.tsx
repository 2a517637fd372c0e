import { useEffect, useState } from 'react';
import type { UserResponse } from 'stream-chat';
import type { ChannelHandle, ChannelViewState } from '../../session/channel-handle';
import { useStateStore } from '../../session/use-state-store';
import { displayName, initial } from '../common/format';
import { useLocalization } from '../common/localization';

const selectMembers = (state: ChannelViewState) => ({ members: state.members, capabilities: state.capabilities, watcherCount: state.watcherCount });

const SEARCH_DEBOUNCE_MS = 300;

/** Who is in the channel and who is online; members are added and removed here where allowed. */
export function MembersView({ handle, ownUserId }: { handle: ChannelHandle; ownUserId: string | null }) {
  const { members, capabilities, watcherCount } = useStateStore(handle.state, selectMembers);
  const canManage = capabilities.includes('update-channel-members');
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<UserResponse[]>([]);
  const { t, locale } = useLocalization();

  // The SDK's user search: id or name autocomplete, members left out, sorted by id.
  useEffect(() => {
    if (!canManage || !query.trim()) {
      setFound([]);
      return;
    }
    const timer = setTimeout(() => {
      const client = handle.channel.getClient();
      void client
        .queryUsers({ $or: [{ id: { $autocomplete: query } }, { name: { $autocomplete: query } }] }, { id: 1 }, { limit: 8 })
        .then(({ users }) => setFound(users.filter((user) => !members.some((m) => m.user_id === user.id))))
        .catch(() => setFound([]));
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query, canManage, handle, members]);

  const sorted = [...members].sort((a, b) => Number(Boolean(b.user?.online)) - Number(Boolean(a.user?.online)) || displayName(a.user).localeCompare(displayName(b.user), locale));
  return (
    <div className="members" part="members">
      <p className="members-summary">
        {t('members.summary', { count: members.length, watching: watcherCount })}
      </p>
      {canManage && (
        <div className="member-add">
          <input
            type="search"
            className="member-search"
            placeholder={t('members.addPlaceholder')}
            aria-label={t('members.addLabel')}
            value={query}
            onChange={(event) => setQuery(event.currentTarget.value)}
          />
          {found.length > 0 && (
            <ul className="member-results" aria-label={t('members.results')}>
              {found.map((user) => (
                <li key={user.id}>
                  <button
                    type="button"
                    className="channel-item"
                    onClick={() => {
                      setQuery('');
                      void handle.changeMembers({ add: [user.id] });
                    }}
                  >
                    <span className="avatar" aria-hidden="true">{initial(displayName(user))}</span>
                    <span className="channel-text">{displayName(user)}</span>
                    <span className="member-add-label">{t('members.add')}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <ul className="member-list" aria-label={t('panel.members')}>
        {sorted.map((member) => (
          <li key={member.user_id} className="member" part="member">
            <span className="avatar" aria-hidden="true">
              {initial(displayName(member.user))}
              <span className={`presence${member.user?.online ? ' online' : ''}`} />
            </span>
            <span className="channel-text">
              <span className="channel-name">
                {displayName(member.user)}
                {member.user_id === ownUserId && t('members.you')}
              </span>
              <span className="channel-preview">{t(member.user?.online ? 'members.online' : 'members.offline')}</span>
            </span>
            {canManage && member.user_id !== ownUserId && (
              <button type="button" className="link-button" aria-label={t('members.remove', { name: displayName(member.user) })} onClick={() => void handle.changeMembers({ remove: [member.user_id as string] })}>
                {t('members.removeShort')}
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
