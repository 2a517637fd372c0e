import { useLayoutEffect, useReducer, useRef } from 'react';
import type { StateStore } from 'stream-chat';

/** The same keys holding the same values (what subscribeWithSelector itself compares). */
function sameSlice(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  for (const key in a) if (a[key] !== b[key]) return false;
  for (const key in b) if (!(key in a)) return false;
  return true;
}

/**
 * Reads a slice of a StateStore (the SDK's own, or one of ours built on the same class)
 * and re-renders only when a selected value changes. Declare selectors at module scope:
 * a new selector function resubscribes. When the store itself is replaced (another channel,
 * another visitor's session), the first render already reads the new store, never a slice
 * of the previous one.
 *
 * It subscribes as the component is committed (a layout effect), not after the next paint: a
 * change that lands in between (a channel's answer arriving while the panel that shows it
 * mounts) is rendered at once, not a frame and a timer later. The store hands a new
 * subscriber the current slice straight away; the same slice as the one just rendered
 * changes nothing, so a component mounts with one render, not two.
 */
export function useStateStore<T extends Record<string, unknown>, O extends Readonly<Record<string, unknown>>>(
  store: StateStore<T>,
  selector: (state: T) => O,
): O {
  // The slice of this store last rendered or asked for: A → B → A before the next render ends at A.
  const read = useRef<{ store: StateStore<T>; selected: O } | null>(null);
  if (read.current?.store !== store) read.current = { store, selected: selector(store.getLatestValue()) };
  const [, changed] = useReducer((renders: number) => renders + 1, 0);
  useLayoutEffect(
    () =>
      store.subscribeWithSelector(selector, (next) => {
        const held = read.current;
        // A store no longer rendered (replaced, its subscription not yet ended), or its slice unchanged.
        if (held?.store !== store || sameSlice(next, held.selected)) return;
        read.current = { store, selected: next };
        changed();
      }),
    [store, selector],
  );
  return read.current.selected;
}
