import { memo } from 'react';
import type { CommandSuggestion, SearchSourceState, StateStore, TextComposer, TextComposerState, TextComposerSuggestion, UserSuggestion } from 'stream-chat';
import { useStateStore } from '../../session/use-state-store';
import type { ActiveSuggestions } from './use-suggestions';
import { displayName, initial } from '../common/format';
import { useT } from '../common/localization';

type Listed = { items: TextComposerSuggestion[] | undefined; searching: boolean; error: Error | undefined };

// "Searching…" shows only while there is nothing to list: with results on screen, a new
// search starting and ending need not re-render the list.
const selectSource = (state: SearchSourceState): Listed => ({
  items: state.items as TextComposerSuggestion[] | undefined,
  searching: state.isLoading && !state.items?.length,
  error: state.lastQueryError,
});
const selectQuery = (state: TextComposerState) => ({ query: state.suggestions?.query ?? '' });

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

/** "No one matches …": the only part of the list that follows the query as it is typed. */
function NoMatches({ textComposer, commands }: { textComposer: TextComposer; commands: boolean }) {
  const { query } = useStateStore(textComposer.state, selectQuery);
  const t = useT();
  return <>{t(commands ? 'composer.noCommands' : 'composer.noPeople', { query })}</>;
}

/** The `@` mention or `/` command list the SDK's text composer is searching for. */
export const SuggestionList = memo(function SuggestionList({ active, listId }: { active: ActiveSuggestions; listId: string }) {
  const { items = [], searching, error } = useStateStore(active.searchSource.state as StateStore<SearchSourceState>, selectSource);
  const t = useT();
  const commands = active.trigger === '/';
  return (
    <div className="suggestions" part="suggestions">
      {error ? (
        <p className="suggestion-status">{t('composer.suggestionsFailed')}</p>
      ) : items.length === 0 ? (
        <p className="suggestion-status">{searching ? t('composer.searching') : <NoMatches textComposer={active.textComposer} commands={commands} />}</p>
      ) : (
        <ul id={listId} role="listbox" aria-label={t(commands ? 'composer.commands' : 'composer.people')}>
          {items.map((item, index) => (
            // Keyed by position, as the option ids are: the next answer's rows reuse these
            // elements and only their text changes.
            <li
              key={index}
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
