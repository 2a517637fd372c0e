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
} as const satisfies Record<string, keyof RawAttributes>;

type AttributeName = keyof typeof ATTRIBUTES;

// r2wc keeps the props it passes to the component under these registered symbols.
const PROPS = Symbol.for('r2wc.props');
const RENDER = Symbol.for('r2wc.render');

interface R2wcInternals {
  [PROPS]: Partial<ChatAppProps>;
  [RENDER](): void;
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
  constructor() {
    super();
    const shadow = this.shadowRoot as ShadowRoot;
    installStyles(shadow);
    // Render into a child of the shadow root, so the <style> fallback beside it survives.
    const root = document.createElement('div');
    root.className = 'cw-root';
    shadow.append(root);
    this.container = root;

    const props = this[PROPS];
    for (const [attribute, prop] of Object.entries(ATTRIBUTES)) {
      props[prop] = this.getAttribute(attribute) ?? undefined;
    }
    props.emit = emitFrom(this);
    props.onOpenChange = (open: boolean) => this.toggle(open);
  }

  attributeChangedCallback(name: string, _old: string | null, value: string | null) {
    const prop = ATTRIBUTES[name as AttributeName];
    if (!prop) return;
    this[PROPS][prop] = value ?? undefined;
    // r2wc would mount a detached element too; connectedCallback renders it instead.
    if (this.isConnected) this[RENDER]();
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
    if (next) this.setAttribute('open', '');
    else this.removeAttribute('open');
  }

  /** Whether the panel is open; the `open` attribute is the single source of truth. */
  get isOpen(): boolean {
    return parseBoolean(this.getAttribute('open') ?? undefined);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'chat-widget': ChatWidgetElement;
  }
}
