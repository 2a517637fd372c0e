import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';

// Keeps the list's DOM bounded however many messages the SDK holds: only the rows near the
// viewport are rendered, with spacers standing in for the rest. Heights are measured as rows
// render and estimated before that.

const ESTIMATED_ROW_PX = 64;
const OVERSCAN_PX = 800;
// Before layout (a hidden panel, or a DOM without layout) the newest rows are shown.
const UNMEASURED_ROWS = 40;
const MAX_ROWS = 120;

export interface VirtualWindow {
  start: number;
  end: number;
  padTop: number;
  padBottom: number;
}

export function computeWindow(
  keys: string[],
  heights: Map<string, number>,
  scrollTop: number,
  viewport: number,
): VirtualWindow {
  const size = (i: number) => heights.get(keys[i] as string) ?? ESTIMATED_ROW_PX;
  const total = keys.reduce((sum, _, i) => sum + size(i), 0);
  let start: number;
  let end: number;
  if (viewport <= 0) {
    start = Math.max(0, keys.length - UNMEASURED_ROWS);
    end = keys.length;
  } else {
    let offset = 0;
    start = 0;
    while (start < keys.length && offset + size(start) < scrollTop - OVERSCAN_PX) offset += size(start++);
    end = start;
    while (end < keys.length && offset < scrollTop + viewport + OVERSCAN_PX && end - start < MAX_ROWS) offset += size(end++);
  }
  let padTop = 0;
  for (let i = 0; i < start; i++) padTop += size(i);
  let rendered = 0;
  for (let i = start; i < end; i++) rendered += size(i);
  return { start, end, padTop, padBottom: Math.max(0, total - padTop - rendered) };
}

/** Offset of row `index` from the top of the list, by measured or estimated heights. */
export function rowOffset(keys: string[], heights: Map<string, number>, index: number): number {
  let offset = 0;
  for (let i = 0; i < index; i++) offset += heights.get(keys[i] as string) ?? ESTIMATED_ROW_PX;
  return offset;
}

export function useVirtualWindow(scroller: RefObject<HTMLElement | null>, keys: string[]) {
  const heights = useRef(new Map<string, number>()).current;
  const [window, setWindow] = useState<VirtualWindow>(() => computeWindow(keys, heights, 0, 0));

  const update = useCallback(() => {
    const el = scroller.current;
    const next = computeWindow(keys, heights, el?.scrollTop ?? 0, el?.clientHeight ?? 0);
    setWindow((current) =>
      current.start === next.start && current.end === next.end && current.padTop === next.padTop && current.padBottom === next.padBottom
        ? current
        : next,
    );
  }, [keys, heights, scroller]);

  // After each render, record the real heights of the rows on screen.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let changed = false;
    for (const row of el.querySelectorAll<HTMLElement>('[data-row-key]')) {
      const key = row.dataset.rowKey as string;
      const height = row.offsetHeight;
      if (height > 0 && heights.get(key) !== height) {
        heights.set(key, height);
        changed = true;
      }
    }
    if (changed) update();
  });

  useLayoutEffect(update, [update]);

  return { window, heights, update };
}
