// The floating bubble, drawn without the UI framework: a first-time visitor's page pays for
// this button alone until the chat is wanted. Its badge shows the unread count while closed.

import type { ElementWords } from '../contract/runtime';

const SVG = 'http://www.w3.org/2000/svg';
const CHAT = 'M21 12a8 8 0 0 1-11.6 7.1L4 20.5l1.4-4.9A8 8 0 1 1 21 12z';
const CLOSE = 'M6 6l12 12M18 6L6 18';
const ICON_ATTRIBUTES = [
  ['viewBox', '0 0 24 24'],
  ['fill', 'none'],
  ['stroke', 'currentColor'],
  ['stroke-width', '2'],
  ['stroke-linecap', 'round'],
  ['stroke-linejoin', 'round'],
  ['aria-hidden', 'true'],
] as const;

/**
 * An inline stroke icon (created node by node: no innerHTML, which Trusted Types would refuse).
 * The stroke is set on the svg, whose path inherits it.
 */
function icon(path: string, size: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('width', size);
  svg.setAttribute('height', size);
  for (const [name, value] of ICON_ATTRIBUTES) svg.setAttribute(name, value);
  svg.appendChild(document.createElementNS(SVG, 'path')).setAttribute('d', path);
  return svg;
}

export interface LauncherState {
  open: boolean;
  unread: number;
  /** The panel's words for the label, once it has them. */
  words?: Pick<ElementWords, 'open' | 'close' | 'unread'>;
}

export function createLauncher(onToggle: () => void) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'launcher';
  button.setAttribute('part', 'launcher');
  button.addEventListener('click', onToggle);
  const chat = icon(CHAT, '26');
  // Made the first time they are shown: the panel open, or an unread count.
  let close: SVGSVGElement | undefined;
  let badge: HTMLElement | undefined;
  let drawn = '';

  return {
    button,
    update({ open, unread, words }: LauncherState) {
      const opener = words?.open ?? 'Open chat';
      const unreadLabel = words ? words.unread(unread) : `${unread} unread`;
      const label = open ? (words?.close ?? 'Close chat') : unread > 0 ? `${opener}, ${unreadLabel}` : opener;
      if (label === drawn) return;
      drawn = label;
      button.setAttribute('aria-label', label);
      button.setAttribute('aria-expanded', String(open));
      if (open) return button.replaceChildren((close ??= icon(CLOSE, '20')));
      if (unread <= 0) return button.replaceChildren(chat);
      if (!badge) {
        badge = document.createElement('span');
        badge.className = 'badge';
        badge.setAttribute('part', 'badge');
        badge.setAttribute('aria-hidden', 'true');
      }
      badge.textContent = unread > 99 ? '99+' : String(unread);
      button.replaceChildren(chat, badge);
    },
  };
}
