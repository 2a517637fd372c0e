import { useLayoutEffect, useRef, useState } from 'react';
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
  const [read, setRead] = useState(() => ({ store, selected: selector(store.getLatestValue()) }));
  const selected = read.store === store ? read.selected : selector(store.getLatestValue());
  // The slice last rendered or asked for: A → B → A before the next render ends at A.
  const latest = useRef(selected);
  latest.current = selected;
  useLayoutEffect(
    () =>
      store.subscribeWithSelector(selector, (next) => {
        if (sameSlice(next, latest.current)) return;
        latest.current = next;
        setRead({ store, selected: next });
      }),
    [store, selector],
  );
  return selected;
}
