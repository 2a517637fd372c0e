import r2wc from '@r2wc/react-to-web-component';
import { ChatApp, type ChatAppProps } from '../ui/chat-app';
import { parseBoolean, type RawAttributes } from './attributes';
import { emitFrom } from './events';
import { installStyles } from './styles';

/** Attribute name → property name: the element's public attribute surface. */
const ATTRIBUTES = {
  'api-key': 'apiKey',
  'token-endpoint': 'tokenEndpoint',
  channel: 'channel',
  'base-url': 'baseUrl',
  mode: 'mode',
  open: 'open',
  theme: 'theme',
  'user-name': 'userName',
  drafts: 'drafts',
  launcher: 'launcher',
  position: 'position',
} as const satisfies Record<string, keyof RawAttributes>;

type AttributeName = keyof typeof ATTRIBUTES;

// r2wc keeps the props it passes to the component under these registered symbols.
const PROPS = Symbol.for('r2wc.props');
const RENDER = Symbol.for('r2wc.render');
const MOUNTED = Symbol.for('r2wc.context');

interface R2wcInternals {
  [PROPS]: Partial<ChatAppProps>;
  [RENDER](): void;
  [MOUNTED]?: unknown;
  container: Element;
}

const Base = r2wc(ChatApp, {
  shadow: 'open',
  props: Object.fromEntries(Object.values(ATTRIBUTES).map((prop) => [prop, 'string'])) as Record<
    keyof RawAttributes,
    'string'
  >,
}) as unknown as { new (): HTMLElement & R2wcInternals };

/**
 * `<chat-widget>`: r2wc does the React mounting; this class fixes what r2wc leaves out.
 * r2wc ignores empty and removed attributes, so a bare `<chat-widget open>` would stay
 * closed and removing `channel` would keep the old value: every attribute change is
 * mapped here instead, a removed one to `undefined` (its default).
 */
export class ChatWidgetElement extends Base {
  /** What had the focus when the panel opened (the site's own button), given it back on close. */
  private opener: Element | null = null;

  constructor() {
    super();
    const shadow = this.shadowRoot as ShadowRoot;
    installStyles(shadow);
    // Render into a child of the shadow root, so the <style> fallback beside it survives.
    const root = document.createElement('div');
    root.className = 'cw-root';
    shadow.append(root);
    this.container = root;

    this.upgradeProperties();
    const props = this[PROPS];
    for (const [attribute, prop] of Object.entries(ATTRIBUTES)) {
      props[prop] = this.getAttribute(attribute) ?? undefined;
    }
    props.emit = emitFrom(this);
    props.onOpenChange = (open: boolean) => this.toggle(open);
  }

  attributeChangedCallback(name: string) {
    const prop = ATTRIBUTES[name as AttributeName];
    if (!prop) return;
    // The attribute as it is now: an upgrade queues these callbacks with the values from before
    // the constructor, which may have changed some since (upgradeProperties).
    this[PROPS][prop] = this.getAttribute(name) ?? undefined;
    // Only a mounted tree is updated: r2wc would also mount a detached or half-built element,
    // and connectedCallback mounts it with every attribute read.
    if (this[MOUNTED]) this[RENDER]();
  }

  /** Opens the panel (reflected as the `open` attribute). */
  open() {
    this.toggle(true);
  }

  /** Closes the panel. */
  close() {
    this.toggle(false);
  }

  /** Flips the panel, or sets it when `force` is given. */
  toggle(force?: boolean) {
    const next = force ?? !this.isOpen;
    if (next === this.isOpen) return;
    if (next) {
      this.opener = document.activeElement;
      this.setAttribute('open', '');
    } else {
      // Closed from inside the panel (its close button, Escape): the focus would be lost with it.
      if (document.activeElement === this) (this.opener as HTMLElement | null)?.focus();
      this.removeAttribute('open');
    }
  }

  /** Whether the panel is open; the `open` attribute is the single source of truth. */
  get isOpen(): boolean {
    return parseBoolean(this.getAttribute('open') ?? undefined);
  }

  /**
   * A page or framework may set properties on a `<chat-widget>` before this script defines it:
   * they land on the plain element and would hide the class's accessors. Each is taken off and
   * set again through them (the custom elements "lazy property" pattern). `open` and `isOpen`
   * are the panel's state, whose names belong to the method and the getter.
   */
  private upgradeProperties() {
    const own = this as unknown as Record<string, unknown>;
    for (const prop of [...Object.values(ATTRIBUTES), 'isOpen']) {
      if (!Object.hasOwn(own, prop)) continue;
      const value = own[prop];
      delete own[prop];
      if (prop === 'open' || prop === 'isOpen') this.toggle(!!value && value !== 'false');
      else own[prop] = value;
    }
  }
}
