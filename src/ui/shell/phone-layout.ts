// On a phone the floating panel becomes the whole screen, as every support widget's does:
// below 640 px wide, or on a touch screen with little height (a phone held sideways). CSS
// places it (widget.styles.ts); this follows the visual viewport, which the iOS keyboard and
// pinch-zoom shrink and move but 100dvh does not, and holds the page behind still while it is open.
import { useEffect, useState, type RefObject } from 'react';

export const PHONE_QUERY = '(max-width: 639.98px), (pointer: coarse) and (max-height: 500px)';

/** Whether the screen is phone-sized now, kept current (a rotation changes it). */
export function usePhoneScreen(): boolean {
  const [phone, setPhone] = useState(() => typeof matchMedia === 'function' && matchMedia(PHONE_QUERY).matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const query = matchMedia(PHONE_QUERY);
    const update = () => setPhone(query.matches);
    query.addEventListener('change', update);
    update();
    return () => query.removeEventListener('change', update);
  }, []);
  return phone;
}

/**
 * The panel's box follows the visual viewport: its offset and size as custom properties that
 * the phone layout's CSS reads (with 100dvh as the fallback where there is no visualViewport).
 */
export function useVisualViewport(panel: RefObject<HTMLElement | null>, active: boolean) {
  useEffect(() => {
    const viewport = window.visualViewport;
    const el = panel.current;
    if (!active || !viewport || !el) return;
    const place = () => {
      el.style.setProperty('--cw-vv-left', `${viewport.offsetLeft}px`);
      el.style.setProperty('--cw-vv-top', `${viewport.offsetTop}px`);
      el.style.setProperty('--cw-vv-width', `${viewport.width}px`);
      el.style.setProperty('--cw-vv-height', `${viewport.height}px`);
    };
    place();
    viewport.addEventListener('resize', place);
    viewport.addEventListener('scroll', place);
    return () => {
      viewport.removeEventListener('resize', place);
      viewport.removeEventListener('scroll', place);
      for (const name of ['left', 'top', 'width', 'height']) el.style.removeProperty(`--cw-vv-${name}`);
    };
  }, [panel, active]);
}

/** Inline styles the lock sets on the page's root and body, restored exactly afterwards. */
const LOCKED = ['overflow', 'position', 'top', 'left', 'right', 'width'] as const;

/**
 * The page behind a full-screen panel does not scroll (iOS scrolls the body under a fixed
 * element unless the body itself is fixed in place). On release the page's own inline styles
 * and its scroll position come back exactly as they were.
 */
export function useScrollLock(active: boolean) {
  useEffect(() => {
    if (!active) return;
    const { documentElement: root, body } = document;
    const x = window.scrollX;
    const y = window.scrollY;
    const saved = [root, body].map((el) => ({
      hadStyle: el.hasAttribute('style'),
      values: LOCKED.map((name) => [name, el.style.getPropertyValue(name), el.style.getPropertyPriority(name)] as const),
    }));
    root.style.setProperty('overflow', 'hidden', 'important');
    Object.assign(body.style, { overflow: 'hidden', position: 'fixed', top: `${-y}px`, left: `${-x}px`, right: '0', width: '100%' });
    return () => {
      [root, body].forEach((el, i) => {
        const { hadStyle, values } = saved[i]!;
        for (const [name, value, priority] of values) {
          if (value) el.style.setProperty(name, value, priority);
          else el.style.removeProperty(name);
        }
        if (!hadStyle && !el.getAttribute('style')) el.removeAttribute('style');
      });
      // Instantly, whatever the page's scroll-behavior says.
      window.scrollTo({ left: x, top: y, behavior: 'instant' });
    };
  }, [active]);
}
