import { useEffect, useState } from 'react';
import type { StateStore } from 'stream-chat';

/**
 * Reads a slice of a StateStore (the SDK's own, or one of ours built on the same class)
 * and re-renders only when a selected value changes. Declare selectors at module scope:
 * a new selector function resubscribes. When the store itself is replaced (another channel,
 * another visitor's session), the first render already reads the new store, never a slice
 * of the previous one.
 */
export function useStateStore<T extends Record<string, unknown>, O extends Readonly<Record<string, unknown>>>(
  store: StateStore<T>,
  selector: (state: T) => O,
): O {
  const [read, setRead] = useState(() => ({ store, selected: selector(store.getLatestValue()) }));
  useEffect(() => store.subscribeWithSelector(selector, (selected) => setRead({ store, selected })), [store, selector]);
  return read.store === store ? read.selected : selector(store.getLatestValue());
}
