// The search view, shown in place of the channel body: one query box, people, channels and
// messages grouped, a filter to one group, the next page as the reader scrolls, and a
// readable state for searching, nothing found and failures. All searching is the SDK's
// SearchController (search-sources.ts); this renders its sources' state.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { SearchSourceState, StreamChat } from 'stream-chat';
import type { ChannelRef } from '../../contract/attributes';
import { openDirectConversation } from '../../session/direct-conversation';
import type { MessageKey } from '../../i18n/en';
import { text, type Text } from '../../i18n/translate';
import { describeApiError, why } from '../../session/session-error';
import { useSay, useT } from '../common/localization';
import { useStateStore } from '../../session/use-state-store';
import { SearchIcon } from '../common/icons';
import { queryWords } from './highlight';
import { ChannelHit, MessageHit, UserHit } from './search-results';
import { SOURCE_TYPES, type Search, type SourceType } from './search-sources';

type Filter = 'all' | SourceType;

const FILTERS: Array<{ value: Filter; label: MessageKey }> = [
  { value: 'all', label: 'search.all' },
  { value: 'users', label: 'search.people' },
  { value: 'channels', label: 'search.channels' },
  { value: 'messages', label: 'search.messages' },
];
const GROUP_TITLES = { users: 'search.people', channels: 'search.channels', messages: 'search.messages' } as const satisfies Record<SourceType, MessageKey>;
// Start loading the next page this close to the bottom, before the reader gets there.
const LOAD_AHEAD_PX = 120;
// The backend's limit for search text (and a sane one for the provider's).
const MAX_QUERY_LENGTH = 1000;
const MAX_ERROR_LENGTH = 200;

const selectSource = (state: SearchSourceState) => ({
  items: state.items as unknown[] | undefined,
  isLoading: state.isLoading,
  isActive: state.isActive,
  hasNext: state.hasNext,
  error: state.lastQueryError,
  searchQuery: state.searchQuery,
});
type SourceView = ReturnType<typeof selectSource>;

/** An error as a reason: the backend's own words for bad input, else the usual reading. */
function readable(error: Error): Text {
  const { code, text: reason } = describeApiError(error);
  const detail = (error as { response?: { data?: { message?: unknown } } }).response?.data?.message;
  if (code !== 4 || typeof detail !== 'string') return reason;
  // Some failures quote a whole request URL; a line is enough.
  return text('why.other', { detail: detail.length > MAX_ERROR_LENGTH ? `${detail.slice(0, MAX_ERROR_LENGTH)}…` : detail });
}

interface SearchViewProps {
  search: Search;
  client: StreamChat;
  ownUserId: string;
  /** Changes when the reader asks for search again (Ctrl+K): the query box takes the focus. */
  focusKey: number;
  onOpenChannel: (ref: ChannelRef) => void;
  onOpenMessage: (ref: ChannelRef, messageId: string) => void;
  onClose: () => void;
}

export function SearchView({ search, client, ownUserId, focusKey, onOpenChannel, onOpenMessage, onClose }: SearchViewProps) {
  const { controller, sources } = search;
  const states: Record<SourceType, SourceView> = {
    users: useStateStore(sources.users.state, selectSource),
    channels: useStateStore(sources.channels.state, selectSource),
    messages: useStateStore(sources.messages.state, selectSource),
  };
  const [typed, setTyped] = useState(() => controller.searchQuery);
  const [notice, setNotice] = useState<Text | null>(null);
  const t = useT();
  const say = useSay();
  const [opening, setOpening] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const results = useRef<HTMLDivElement>(null);

  useEffect(() => {
    controller.activate();
    return () => controller.cancelSearchQueries();
  }, [controller]);
  useEffect(() => input.current?.focus(), [focusKey]);

  const active = SOURCE_TYPES.filter((type) => states[type].isActive);
  const filter: Filter = active.length === 1 && active[0] ? active[0] : 'all';
  // The group that pages as the reader scrolls: the last one shown.
  const paged = active.at(-1);

  const loadMore = () => {
    const state = paged && states[paged];
    if (paged && state?.items?.length && state.hasNext && !state.isLoading) void sources[paged].executeQuery();
  };
  // A first page too short to scroll asks for the next one at once.
  useEffect(() => {
    const el = results.current;
    if (el && el.clientHeight > 0 && el.scrollHeight <= el.clientHeight) loadMore();
  });

  const changeQuery = (value: string) => {
    setTyped(value);
    setNotice(null);
    if (results.current) results.current.scrollTop = 0;
    const query = value.trim();
    if (query) void controller.search(query);
    else controller.clear();
  };

  const show = (next: Filter) => {
    for (const source of SOURCE_TYPES) {
      if (next === 'all' || next === source) sources[source].activate();
      else sources[source].deactivate();
    }
    controller.state.partialNext({ sources: [...controller.sources] });
    if (results.current) results.current.scrollTop = 0;
    // A group shown again answers the current query at once.
    const query = controller.searchQuery;
    for (const source of SOURCE_TYPES) {
      const shown = next === 'all' || next === source;
      if (shown && query && sources[source].searchQuery !== query) void sources[source].executeQuery(query);
    }
  };

  const openUser = (userId: string, name: string) => {
    setOpening(userId);
    setNotice(null);
    openDirectConversation(client, ownUserId, userId)
      .then(onOpenChannel)
      .catch((error: unknown) => setNotice(text('search.openFailed', { name, why: why(error) })))
      .finally(() => setOpening(null));
  };

  // Up and down move between the query box and the results.
  const moveFocus = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const hits = [...(results.current?.querySelectorAll<HTMLElement>('.search-hit') ?? [])];
    const at = hits.findIndex((hit) => hit === event.target);
    const next = event.key === 'ArrowDown' ? hits[at + 1] : at > 0 ? hits[at - 1] : input.current;
    if (!next) return;
    event.preventDefault();
    next.focus();
  };

  const onInputKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      // First Escape clears the query, the next one leaves search; the panel stays open.
      event.stopPropagation();
      if (typed) changeQuery('');
      else onClose();
      return;
    }
    moveFocus(event);
  };

  const query = typed.trim();
  // A source answers the query it last ran: until its debounced search for what was typed since
  // runs, it still holds the previous answer. Empty, that is "Searching…", never a blank list.
  const pending = (source: SourceType) => states[source].searchQuery !== query;
  const waiting = active.some((source) => states[source].isLoading || states[source].items === undefined || pending(source));
  const nothing = !waiting && active.every((source) => !states[source].items?.length && !states[source].error);

  const group = (source: SourceType) => {
    const state = states[source];
    const title = t(GROUP_TITLES[source]);
    const words = queryWords(state.searchQuery);
    const items = state.items ?? [];
    let content;
    if (state.error && items.length === 0) {
      content = (
        <p className="search-state search-error" role="alert">
          <span>{t(`search.${source}.failed`, { why: readable(state.error) })}</span>
          <button type="button" className="link-button" onClick={() => void sources[source].executeQuery(state.searchQuery)}>
            {t('panel.tryAgain')}
          </button>
        </p>
      );
    } else if (items.length > 0) {
      content = (
        <ul className="search-list" aria-label={title}>
          {source === 'users' &&
            sources.users.items?.map((user) => (
              <li key={user.id}>
                <UserHit user={user} words={words} busy={opening === user.id} onOpen={() => openUser(user.id, user.name || user.id)} />
              </li>
            ))}
          {source === 'channels' &&
            sources.channels.items?.map((channel) => (
              <li key={channel.cid}>
                <ChannelHit client={client} channel={channel} words={words} onOpen={() => onOpenChannel({ type: channel.type, id: channel.id ?? '' })} />
              </li>
            ))}
          {source === 'messages' &&
            sources.messages.items?.map((message) => (
              <li key={message.id}>
                <MessageHit
                  client={client}
                  message={message}
                  words={words}
                  onOpen={() => {
                    const [type = 'messaging', id = ''] = (message.cid ?? '').split(':');
                    onOpenMessage({ type, id }, message.id);
                  }}
                />
              </li>
            ))}
        </ul>
      );
    } else if (state.isLoading || pending(source)) {
      content = (
        <p className="search-state" role="status">
          <span className="spinner small" aria-hidden="true" /> {t(`search.${source}.searching`)}
        </p>
      );
    } else {
      return null;
    }
    let more = null;
    if (items.length > 0 && state.isLoading) {
      more = (
        <p className="search-state" role="status">
          <span className="spinner small" aria-hidden="true" /> {t('search.loadingMore')}
        </p>
      );
    } else if (items.length > 0 && state.hasNext && !state.error) {
      more =
        source === paged ? (
          <button type="button" className="search-more" onClick={loadMore}>
            {t(`search.${source}.loadMore`)}
          </button>
        ) : (
          <button type="button" className="search-more" onClick={() => show(source)}>
            {t(`search.${source}.more`)}
          </button>
        );
    }
    return (
      <section key={source} className="search-group" aria-label={title}>
        {filter === 'all' && <h3 className="search-group-title">{title}</h3>}
        {content}
        {more}
      </section>
    );
  };

  return (
    <div className="search" part="search">
      <div className="search-bar">
        <label className="search-field">
          <SearchIcon />
          <input
            ref={input}
            type="search"
            className="search-input"
            dir="auto"
            part="search-input"
            placeholder={t('search.placeholder')}
            aria-label={t('search.label')}
            autoComplete="off"
            maxLength={MAX_QUERY_LENGTH}
            enterKeyHint="search"
            value={typed}
            onChange={(event) => changeQuery(event.currentTarget.value)}
            onKeyDown={onInputKey}
          />
        </label>
        <div className="search-filters" role="group" aria-label={t('search.filters')}>
          {FILTERS.map(({ value, label }) => (
            <button key={value} type="button" className="search-filter" aria-pressed={filter === value} onClick={() => show(value)}>
              {t(label)}
            </button>
          ))}
        </div>
      </div>
      {notice && (
        <p className="notice" role="status">
          <span>{say(notice)}</span>
        </p>
      )}
      <div
        ref={results}
        className="search-results"
        part="search-results"
        onKeyDown={moveFocus}
        onScroll={(event) => {
          const el = event.currentTarget;
          if (el.scrollTop + el.clientHeight >= el.scrollHeight - LOAD_AHEAD_PX) loadMore();
        }}
      >
        {!query ? (
          <p className="search-hint">{t('search.hint')}</p>
        ) : nothing ? (
          <p className="search-hint" role="status">
            {filter === 'all' ? t('search.nothing', { query }) : t(`search.${filter}.none`, { query })}
          </p>
        ) : (
          active.map(group)
        )}
      </div>
    </div>
  );
}
