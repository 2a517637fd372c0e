import { useCallback, useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import type { SearchSourceState, Suggestions, TextComposer, TextComposerState, TextComposerSuggestion } from 'stream-chat';
import { StateStore } from 'stream-chat';
import { useStateStore } from '../../session/use-state-store';

const selectSuggestions = (state: TextComposerState) => ({ suggestions: state.suggestions });
// Only the number of items: the composer need not re-render for each new page of results.
const selectCount = (state: SearchSourceState) => ({ count: state.items?.length ?? 0 });
const NO_SOURCE = new StateStore<SearchSourceState>({ hasNext: false, isActive: false, isLoading: false, items: undefined, searchQuery: '' });

export interface ActiveSuggestions {
  /** The SDK's search source for the trigger: the same object while one `@…` or `/…` is typed. */
  searchSource: Suggestions['searchSource'];
  trigger: string;
  /** Where the list reads the query from, for its "no matches" line. */
  textComposer: TextComposer;
  index: number;
  setIndex: (index: number) => void;
  choose: (item: TextComposerSuggestion) => void;
}

/**
 * The keyboard side of the SDK's suggestions: ↑ ↓ move, Enter or Tab choose, Esc closes.
 * What to suggest, and what choosing does to the text, is the text composer's own logic.
 */
export function useSuggestions(textComposer: TextComposer) {
  const { suggestions } = useStateStore(textComposer.state, selectSuggestions);
  const { count } = useStateStore(suggestions?.searchSource.state ?? NO_SOURCE, selectCount);
  const [index, setIndex] = useState(0);
  useEffect(() => setIndex(0), [suggestions?.query, suggestions?.trigger]);

  const choose = useCallback((item: TextComposerSuggestion) => void textComposer.handleSelect(item), [textComposer]);
  // The SDK makes a new `suggestions` object for every keystroke (its query changes), but the
  // search source and the trigger stay: the list, which renders the source's state, is kept
  // while they and the highlighted row stay, so typing alone does not re-render it.
  const searchSource = suggestions?.searchSource;
  const trigger = suggestions?.trigger;
  const active = useMemo<ActiveSuggestions | null>(
    () => (searchSource && trigger !== undefined ? { searchSource, trigger, textComposer, index, setIndex, choose } : null),
    [searchSource, trigger, textComposer, index, choose],
  );

  /** Handles the key if the list is open; returns whether it did. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!suggestions) return false;
    if (event.key === 'Escape') {
      textComposer.closeSuggestions();
    } else if (count === 0) {
      return false;
    } else if (event.key === 'ArrowDown') {
      setIndex((index + 1) % count);
    } else if (event.key === 'ArrowUp') {
      setIndex((index - 1 + count) % count);
    } else if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
      const items = suggestions.searchSource.items ?? [];
      const item = items[Math.min(index, items.length - 1)];
      if (item) choose(item);
    } else {
      return false;
    }
    event.preventDefault();
    event.stopPropagation();
    return true;
  };

  return { active, onKeyDown, activeOptionId: (listId: string) => (suggestions && count ? `${listId}-${index}` : undefined) };
}
