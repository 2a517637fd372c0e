import { useCallback, useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import type { SearchSourceState, Suggestions, TextComposer, TextComposerState, TextComposerSuggestion } from 'stream-chat';
import { StateStore } from 'stream-chat';
import { useStateStore } from '../../session/use-state-store';

// The search source and trigger, not the SDK's `suggestions` object, which is new on every
// keystroke (its query changes): typing in an open list re-renders neither composer nor list.
const selectSource = (state: TextComposerState) => ({ searchSource: state.suggestions?.searchSource, trigger: state.suggestions?.trigger });
const selectQuery = (state: TextComposerState) => ({ query: state.suggestions?.query, trigger: state.suggestions?.trigger });
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
  const { searchSource, trigger } = useStateStore(textComposer.state, selectSource);
  const { count } = useStateStore(searchSource?.state ?? NO_SOURCE, selectCount);
  const [index, setIndex] = useState(0);
  // A new query starts again at the first row. Followed on the store rather than through a
  // render and an effect: a keystroke that changes only the query schedules no render at all.
  useEffect(() => textComposer.state.subscribeWithSelector(selectQuery, () => setIndex(0)), [textComposer]);

  const choose = useCallback((item: TextComposerSuggestion) => void textComposer.handleSelect(item), [textComposer]);
  // Kept while the source, the trigger and the highlighted row stay, so the list, which
  // renders the source's state, is not re-rendered by typing.
  const active = useMemo<ActiveSuggestions | null>(
    () => (searchSource && trigger !== undefined ? { searchSource, trigger, textComposer, index, setIndex, choose } : null),
    [searchSource, trigger, textComposer, index, choose],
  );

  /** Handles the key if the list is open; returns whether it did. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!searchSource) return false;
    if (event.key === 'Escape') {
      textComposer.closeSuggestions();
    } else if (count === 0) {
      return false;
    } else if (event.key === 'ArrowDown') {
      setIndex((index + 1) % count);
    } else if (event.key === 'ArrowUp') {
      setIndex((index - 1 + count) % count);
    } else if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
      const items = (searchSource.items ?? []) as TextComposerSuggestion[];
      const item = items[Math.min(index, items.length - 1)];
      if (item) choose(item);
    } else {
      return false;
    }
    event.preventDefault();
    event.stopPropagation();
    return true;
  };

  return { active, onKeyDown, activeOptionId: (listId: string) => (searchSource && count ? `${listId}-${index}` : undefined) };
}
