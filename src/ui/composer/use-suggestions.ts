import { useEffect, useState, type KeyboardEvent } from 'react';
import type { SearchSourceState, Suggestions, TextComposer, TextComposerState, TextComposerSuggestion } from 'stream-chat';
import { StateStore } from 'stream-chat';
import { useStateStore } from '../../session/use-state-store';

const selectSuggestions = (state: TextComposerState) => ({ suggestions: state.suggestions });
const selectItems = (state: SearchSourceState) => ({ items: state.items });
const NO_SOURCE = new StateStore<SearchSourceState>({ hasNext: false, isActive: false, isLoading: false, items: undefined, searchQuery: '' });

export interface ActiveSuggestions {
  suggestions: Suggestions;
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
  const { items = [] } = useStateStore(suggestions?.searchSource.state ?? NO_SOURCE, selectItems);
  const [index, setIndex] = useState(0);
  useEffect(() => setIndex(0), [suggestions?.query, suggestions?.trigger]);

  const choose = (item: TextComposerSuggestion) => void textComposer.handleSelect(item);
  const active: ActiveSuggestions | null = suggestions ? { suggestions, index, setIndex, choose } : null;

  /** Handles the key if the list is open; returns whether it did. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!suggestions) return false;
    if (event.key === 'Escape') {
      textComposer.closeSuggestions();
    } else if (items.length === 0) {
      return false;
    } else if (event.key === 'ArrowDown') {
      setIndex((index + 1) % items.length);
    } else if (event.key === 'ArrowUp') {
      setIndex((index - 1 + items.length) % items.length);
    } else if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
      const item = items[Math.min(index, items.length - 1)];
      if (item) choose(item);
    } else {
      return false;
    }
    event.preventDefault();
    event.stopPropagation();
    return true;
  };

  return { active, onKeyDown, activeOptionId: (listId: string) => (suggestions && items.length ? `${listId}-${index}` : undefined) };
}
