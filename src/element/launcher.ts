// The floating bubble, drawn without the UI framework: a first-time visitor's page pays for
// this button alone until the chat is wanted. Its badge shows the unread count while closed.

import type { ElementWords } from './runtime-contract';

const SVG = 'http://www.w3.org/2000/svg';
const CHAT = 'M21 12a8 8 0 0 1-11.6 7.1L4 20.5l1.4-4.9A8 8 0 1 1 21 12z';
const CLOSE = 'M6 6l12 12M18 6L6 18';

/**
 * An inline stroke icon (created node by node: no innerHTML, which Trusted Types would refuse).
 * The stroke is set on the svg, whose path inherits it.
 */
function icon(path: string, size: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  const attributes = {
    width: size,
    height: size,
    viewBox: '0 0 24 24',
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': '2',
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
    'aria-hidden': 'true',
  };
  for (const [name, value] of Object.entries(attributes)) svg.setAttribute(name, value);
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
  let close: SVGSVGElement | undefined; // drawn the first time the panel opens
  const badge = document.createElement('span');
  badge.className = 'badge';
  badge.setAttribute('part', 'badge');
  badge.setAttribute('aria-hidden', 'true');

  return {
    button,
    update({ open, unread, words }: LauncherState) {
      const opener = words?.open ?? 'Open chat';
      const unreadLabel = words ? words.unread(unread) : `${unread} unread`;
      const label = open ? (words?.close ?? 'Close chat') : unread > 0 ? `${opener}, ${unreadLabel}` : opener;
      button.setAttribute('aria-label', label);
      button.setAttribute('aria-expanded', String(open));
      badge.textContent = unread > 99 ? '99+' : String(unread);
      const showBadge = !open && unread > 0;
      button.replaceChildren(...(open ? [(close ??= icon(CLOSE, '20'))] : showBadge ? [chat, badge] : [chat]));
    },
  };
}
