import { useEffect, useState } from 'react';
import type { StateStore } from 'stream-chat';

/**
 * Reads a slice of a StateStore (the SDK's own, or one of ours built on the same class)
 * and re-renders only when a selected value changes. Declare selectors at module scope:
 * a new selector function resubscribes.
 */
export function useStateStore<T extends Record<string, unknown>, O extends Readonly<Record<string, unknown>>>(
  store: StateStore<T>,
  selector: (state: T) => O,
): O {
  const [selected, setSelected] = useState(() => selector(store.getLatestValue()));
  useEffect(() => store.subscribeWithSelector(selector, (next) => setSelected(next)), [store, selector]);
  return selected;
}
