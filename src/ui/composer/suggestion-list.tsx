import type { CommandSuggestion, SearchSourceState, TextComposerSuggestion, UserSuggestion } from 'stream-chat';
import { useStateStore } from '../../session/use-state-store';
import type { ActiveSuggestions } from './use-suggestions';
import { displayName, initial } from '../format';

const selectSource = (state: SearchSourceState) => ({ items: state.items, isLoading: state.isLoading, error: state.lastQueryError });

function isCommand(item: TextComposerSuggestion): item is CommandSuggestion {
  return typeof (item as CommandSuggestion).name === 'string' && 'args' in item;
}

function Item({ item }: { item: TextComposerSuggestion }) {
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
}

/** The `@` mention or `/` command list the SDK's text composer is searching for. */
export function SuggestionList({ active, listId }: { active: ActiveSuggestions; listId: string }) {
  const { items = [], isLoading, error } = useStateStore(active.suggestions.searchSource.state, selectSource);
  const label = active.suggestions.trigger === '/' ? 'Commands' : 'People';
  return (
    <div className="suggestions" part="suggestions">
      {error ? (
        <p className="suggestion-status">Suggestions are unavailable right now.</p>
      ) : items.length === 0 ? (
        <p className="suggestion-status">{isLoading ? 'Searching…' : `No ${label.toLowerCase()} match “${active.suggestions.query}”.`}</p>
      ) : (
        <ul id={listId} role="listbox" aria-label={label}>
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
}
