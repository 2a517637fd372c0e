import r2wc from '@r2wc/react-to-web-component';
import { ATTRIBUTES, readAttributes, type AttributeName, type RawAttributes } from '../../contract/attributes';
import { emitFrom } from '../../contract/events';
import type { ElementWords, PanelElement } from '../../contract/runtime';
import { ChatPanel, type ChatPanelProps } from './chat-panel';

export const PANEL_TAG = 'chat-widget-panel';

// r2wc keeps the props it passes to the component under these registered symbols.
const PROPS = Symbol.for('r2wc.props');
const RENDER = Symbol.for('r2wc.render');
const MOUNTED = Symbol.for('r2wc.context');

interface R2wcInternals {
  [PROPS]: Partial<ChatPanelProps>;
  [RENDER](): void;
  [MOUNTED]?: unknown;
}

// No shadow root of its own: the panel renders into the element, inside `<chat-widget>`'s
// shadow root, whose stylesheets it shares.
const Base = r2wc(ChatPanel, {
  props: Object.fromEntries(Object.values(ATTRIBUTES).map((prop) => [prop, 'string'])) as Record<keyof RawAttributes, 'string'>,
}) as unknown as { new (): HTMLElement & R2wcInternals };

/**
 * `<chat-widget-panel>`: r2wc mounts the React UI; this class fixes what r2wc leaves out. r2wc
 * ignores empty and removed attributes, so a bare `open` would stay closed and a removed
 * `channel` would keep its old value: every attribute change is mapped here instead, a removed
 * one to `undefined` (its default). Events go out through `<chat-widget>`'s shadow root to the page.
 */
class ChatPanelElement extends Base implements PanelElement {
  onOpenChange?: (open: boolean) => void;
  onWords?: (words: ElementWords) => void;

  constructor() {
    super();
    const props = Object.assign(this[PROPS], readAttributes(this));
    props.emit = emitFrom(this);
    props.onOpenChange = (open: boolean) => this.onOpenChange?.(open);
    props.onWords = (words: ElementWords) => this.onWords?.(words);
  }

  /** The site's own strings as an object (the `translations` attribute can only be a URL). */
  set translations(value: string | Record<string, unknown> | undefined) {
    this[PROPS].translations = value;
    if (this[MOUNTED]) this[RENDER]();
  }

  get translations() {
    return this[PROPS].translations;
  }

  attributeChangedCallback(name: string) {
    const prop = ATTRIBUTES[name as AttributeName];
    if (!prop) return;
    this[PROPS][prop] = this.getAttribute(name) ?? undefined;
    // Only a mounted tree is updated: r2wc would also mount a detached element, and
    // connectedCallback mounts it with every attribute read.
    if (this[MOUNTED]) this[RENDER]();
  }
}

export function createPanel(): PanelElement {
  if (!customElements.get(PANEL_TAG)) customElements.define(PANEL_TAG, ChatPanelElement);
  return document.createElement(PANEL_TAG) as PanelElement;
}
