import { memo } from 'react';
import type { CommandSuggestion, SearchSourceState, TextComposerSuggestion, UserSuggestion } from 'stream-chat';
import { useStateStore } from '../../session/use-state-store';
import type { ActiveSuggestions } from './use-suggestions';
import { displayName, initial } from '../format';
import { useT } from '../localization';

// "Searching…" shows only while there is nothing to list: with results on screen, a new
// search starting and ending need not re-render the list.
const selectSource = (state: SearchSourceState) => ({
  items: state.items,
  searching: state.isLoading && !state.items?.length,
  error: state.lastQueryError,
});

function isCommand(item: TextComposerSuggestion): item is CommandSuggestion {
  return typeof (item as CommandSuggestion).name === 'string' && 'args' in item;
}

// Memoized: a search's loading flag flipping re-renders the list, not every row.
const Item = memo(function Item({ item }: { item: TextComposerSuggestion }) {
  if (isCommand(item)) {
    return (
      <>
        <span className="suggestion-name">/{item.name}</span>
        {item.args && <span className="suggestion-args">{item.args}</span>}
        {item.description && <span className="suggestion-detail">{item.description}</span>}
      </>
    );
  }
  const user = item as UserSuggestion;
  return (
    <>
      <span className="avatar" aria-hidden="true">
        {initial(displayName(user))}
      </span>
      <span className="suggestion-name">{displayName(user)}</span>
      <span className="suggestion-detail">@{user.id}</span>
    </>
  );
});

/** The `@` mention or `/` command list the SDK's text composer is searching for. */
export const SuggestionList = memo(function SuggestionList({ active, listId }: { active: ActiveSuggestions; listId: string }) {
  const { items = [], searching, error } = useStateStore(active.suggestions.searchSource.state, selectSource);
  const t = useT();
  const commands = active.suggestions.trigger === '/';
  const query = active.suggestions.query;
  return (
    <div className="suggestions" part="suggestions">
      {error ? (
        <p className="suggestion-status">{t('composer.suggestionsFailed')}</p>
      ) : items.length === 0 ? (
        <p className="suggestion-status">{searching ? t('composer.searching') : t(commands ? 'composer.noCommands' : 'composer.noPeople', { query })}</p>
      ) : (
        <ul id={listId} role="listbox" aria-label={t(commands ? 'composer.commands' : 'composer.people')}>
          {items.map((item, index) => (
            <li
              key={item.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active.index}
              className={`suggestion${index === active.index ? ' active' : ''}`}
              // mousedown, not click: the textarea must keep focus and its selection
              onMouseDown={(event) => {
                event.preventDefault();
                active.choose(item);
              }}
              onMouseEnter={() => active.setIndex(index)}
            >
              <Item item={item} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
});
