import { requestToken } from '../browser/token-request';
import { visitorStorage } from '../browser/visitor-storage';
import { whenIdle } from '../browser/when-idle';
import { chime } from '../browser/chime';
import { setTitleCount } from '../browser/title-count';
import { ATTRIBUTES, panelShown, parseAttributes, parseBoolean, parseNotify, readAttributes, type AttributeName, type ParsedAttributes, type RawAttributes, type WidgetConfig } from '../contract/attributes';
import { emitFrom, summarizeMessage, type Emit } from '../contract/events';
import { BadgeHost, badgeScript } from './badge-host';
import { scriptAddress, scriptNonce } from '../i18n/script-base';
import { createLauncher } from './launcher';
import type { ChatRuntime, ElementWords, PanelElement, RuntimeSource } from '../contract/runtime';
import { installStyles } from './styles';

let runtimeSource: RuntimeSource = () => Promise.reject(new Error('this script carries no chat runtime'));

/** Where every `<chat-widget>` of this script gets the chat's runtime (entries/chat-widget.ts, entries/loader.ts). */
export function setRuntimeSource(source: RuntimeSource) {
  runtimeSource = source;
}

/** How long the panel waits at most for the session started on intent (see hostSoon). */
const HOST_WAIT_MS = 100;

/**
 * `<chat-widget>`: the part of the widget that every page evaluates at once, written without the
 * UI framework. It owns the public API (attributes, properties, methods, events), draws the
 * launcher, and reports a bad attribute. For a browser that chatted here before, its badge
 * client shows the unread count on the closed bubble (badge-host.ts, in a worker). When the chat is first
 * wanted (the panel shown) it loads the runtime and hosts its panel, an r2wc element rendering
 * the React UI, inside its shadow root; it copies its attributes onto that panel.
 */
export class ChatWidgetElement extends HTMLElement {
  static get observedAttributes() {
    return Object.keys(ATTRIBUTES);
  }

  private readonly widget = document.createElement('div');
  private readonly bubble = createLauncher(() => this.toggle());
  private readonly emit: Emit = emitFrom(this);
  private runtime: ChatRuntime | null = null;
  private loading = false;
  /** Whether the visitor's intent has asked for the runtime (see intent). */
  private reaching = false;
  /** The session started on intent, until its socket is under way (see hostSoon). */
  private preparing: Promise<unknown> | null = null;
  /** Waiting for `preparing` before hosting the panel. */
  private waiting = false;
  private panel: PanelElement | null = null;
  /** Why the runtime could not start, shown in the panel's place until the visitor retries. */
  private failure: HTMLElement | null = null;
  /** The panel's place while the runtime loads, and where signed-out visitors may not chat: made when first shown. */
  private connecting: HTMLElement | null = null;
  private signedOut: HTMLElement | null = null;
  /** The element's own words in the visitor's language, once the panel has said them (English until then). */
  private words: ElementWords | null = null;
  /** The site's strings given as an object (`translations` as a property), handed to the panel. */
  private siteStrings: Record<string, unknown> | undefined;
  private unread = 0;
  /** The last count the page's `chat-widget-unread` told (the element tells it, whoever counted). */
  private announced = 0;
  /** The returning visitor's count while the chat is closed, without the chat (badge-host.ts). */
  private badge: BadgeHost | null = null;
  /** Whose count the badge client counts (identity and channel); what the stored count is for. */
  private badgeOwner = '';
  /** The badge client could not count: the chat itself is started for the count, as before it existed. */
  private badgeFailed = false;
  /** A badge client letting go of its socket: the panel is hosted once it has. */
  private badgeStopping: Promise<void> | null = null;
  /** This element's part of the page's title count while the badge client counts. */
  private readonly titleOwner = {};
  /** Whether the hosted panel has told its count yet (until then the badge's stands). */
  private panelCounted = false;
  /** The owner and count last written to storage (written again only when they change). */
  private storedCount = '';
  /** Whether this page started the chat's session on intent (it may hold a socket though no panel shows). */
  private prepared = false;
  /** Whether the panel was open at the last render (open and close events are its changes). */
  private shownOpen: boolean | undefined;
  private reportedError = '';
  /** What had the focus when the panel opened (the site's own button), given it back on close. */
  private opener: Element | null = null;
  /** Set by the first connectedCallback: until then attribute changes need no drawing. */
  private drawn = false;
  /** The placeholder in the panel's place now, if any. */
  private note: HTMLElement | null = null;

  constructor() {
    super();
    const shadow = this.attachShadow({ mode: 'open' });
    installStyles(shadow);
    this.widget.className = 'widget';
    shadow.append(this.widget);
    // The page hears the count from the element alone, whether the panel or the badge client
    // counted it: once per change, also across the handover from one to the other.
    shadow.addEventListener('chat-widget-unread', (event) => {
      event.stopPropagation();
      this.panelCounted = true;
      this.showCount((event as CustomEvent<{ count: number }>).detail.count, true);
    });
    // The panel is ready without having told a count: it has none, whatever the badge said before.
    shadow.addEventListener('chat-widget-ready', () => {
      if (!this.panelCounted) this.showCount(0, true);
      this.panelCounted = true;
    });
    // A pointer on the way to the bubble, or the keyboard on it: get the chat ready for the click.
    for (const type of ['pointerenter', 'focus', 'touchstart']) {
      this.bubble.button.addEventListener(type, () => this.intent(), { passive: true });
    }
    this.upgradeProperties();
  }

  connectedCallback() {
    this.drawn = true;
    this.render();
    // A browser that chatted here before gets the chat at once, for its unread count: known once
    // the page has loaded (whenStorageReadable); drawn again then if so.
    if (!storageReadable) {
      whenStorageReadable(() => {
        const apiKey = this.getAttribute('api-key')?.trim();
        if (this.isConnected && apiKey && visitorStorage.hadSession(apiKey)) this.render();
      });
    }
  }

  disconnectedCallback() {
    this.dropBadge();
  }

  attributeChangedCallback(name: string, old: string | null, value: string | null) {
    if (!(name in ATTRIBUTES)) return;
    // Opening again is the visitor's retry after a failed start.
    if (name === 'open' && !parseBoolean(old ?? undefined) && parseBoolean(value ?? undefined)) this.failure = null;
    // Drawn first: a sign-out that closes the chat removes the panel before it hears of it. An
    // upgrade replays every attribute before connectedCallback, which draws once for them all.
    if (this.drawn && this.isConnected) this.render();
    if (value === null) this.panel?.removeAttribute(name);
    else this.panel?.setAttribute(name, value);
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
      // Opened from the launcher (the focus inside this element): the focus comes back to the launcher.
      this.opener = document.activeElement === this ? (this.shadowRoot?.activeElement ?? this) : document.activeElement;
      this.setAttribute('open', '');
    } else {
      this.giveFocusBack();
      this.removeAttribute('open');
    }
  }

  /** The site's own strings: a URL (the `translations` attribute), or, as this property, the object itself. */
  get translations(): string | Record<string, unknown> | undefined {
    return this.siteStrings ?? this.getAttribute('translations') ?? undefined;
  }

  set translations(value: string | Record<string, unknown> | null | undefined) {
    this.siteStrings = value && typeof value === 'object' ? value : undefined;
    if (this.siteStrings) this.removeAttribute('translations');
    else if (value === null || value === undefined) this.removeAttribute('translations');
    else this.setAttribute('translations', String(value));
    if (this.panel) this.panel.translations = this.siteStrings ?? this.getAttribute('translations') ?? undefined;
  }

  /** Whether the panel is open; the `open` attribute is the single source of truth. */
  get isOpen(): boolean {
    return parseBoolean(this.getAttribute('open') ?? undefined);
  }

  private render() {
    const parsed = parseAttributes(readAttributes(this));
    const { dataset } = this.widget;
    dataset.mode = parsed.mode;
    dataset.theme = parsed.theme;
    dataset.position = parsed.position;
    // Signed out where the site lets no guest chat: the chat is closed.
    const closed = parsed.ok && parsed.guests === 'none' && !parsed.config.tokenEndpoint;
    if (closed && this.panel) this.signOut(parsed.config.apiKey);

    // Reported once the page's scripts have had their turn, as a rendered component's effect would be.
    const error = parsed.ok ? '' : `${parsed.error.reason}\n${parsed.error.message}`;
    if (error !== this.reportedError) {
      this.reportedError = error;
      if (!parsed.ok) setTimeout(() => this.emit('chat-widget-error', { ...parsed.error }));
    }
    const open = parsed.open && parsed.mode === 'bubble' && !closed;
    if (this.shownOpen !== undefined && open !== this.shownOpen) {
      queueMicrotask(() => this.emit(open ? 'chat-widget-open' : 'chat-widget-close', {}));
    }
    this.shownOpen = open;

    // The chat is wanted when its panel shows. A browser that chatted here before sees its unread
    // count on the closed bubble from the badge client, or, where that cannot count, from the
    // chat started at once. A bad attribute is said without loading the chat.
    const shown = panelShown(parsed) && !closed;
    const returning = parsed.ok && !closed && storageReadable && visitorStorage.hadSession(parsed.config.apiKey);
    this.countWithoutChat(parsed, returning && !shown && !this.panel && !this.badgeFailed);
    const wanted = parsed.ok && !closed && (shown || (returning && this.badgeFailed));
    if (wanted && !this.panel && !this.failure) {
      this.dropBadge();
      if (!this.runtime) {
        if (!this.loading) this.start();
      } else if (!this.badgeStopping) this.hostSoon(this.runtime);
    }
    // Until the panel is there, its place says why.
    let note: HTMLElement | null = null;
    if (closed) note = parsed.mode === 'inline' ? (this.signedOut ??= placeholder('status', this.words?.signIn ?? 'Sign in to chat with us.')) : null;
    else if (!parsed.ok && !this.panel) note = shown ? placeholder('alert', this.words?.notSetUp ?? 'This chat is not set up correctly.', parsed.error.message) : null;
    else if (shown && !this.panel) note = this.failure ?? (this.connecting ??= placeholder('status', this.words?.connecting ?? 'Connecting…'));
    if (note !== this.note) {
      this.note?.remove();
      if (note) this.widget.prepend(note);
      this.note = note;
    }

    const { button } = this.bubble;
    if (!closed && parsed.mode === 'bubble' && parsed.launcher === 'bubble') {
      this.bubble.update({ open: parsed.open, unread: parsed.ok ? this.unread : 0, words: this.words ?? undefined });
      if (button.parentNode !== this.widget) this.widget.append(button);
    } else {
      button.remove();
    }
  }

  /**
   * The count on the closed bubble of a browser that chatted here before (`wanted`), by the badge
   * client: first the count this browser last showed, then the current one, then live. A new
   * identity or channel gets a new client.
   */
  private countWithoutChat(parsed: ParsedAttributes, wanted: boolean) {
    const config = parsed.ok ? parsed.config : null;
    const owner = wanted && config ? ownerOf(config) : '';
    if (this.badge && this.badgeOwner !== owner) this.dropBadge();
    if (!config || !owner || this.badge) return;
    // Without Web Locks, nothing tells when a session started on intent lets go of its socket:
    // the badge client waits for the panel rather than open a second one.
    if (this.prepared && !navigator.locks) return;
    this.badgeOwner = owner;
    const { apiKey, baseUrl, tokenEndpoint, userName, channel } = config;
    const badge = new BadgeHost(
      { apiKey, baseUrl, tokenEndpoint, userName, channel, guestId: tokenEndpoint ? null : visitorStorage.guestId(apiKey) },
      {
        count: (count) => this.badge === badge && this.showCount(count, true),
        message: (message, own) => {
          if (this.badge !== badge) return;
          if (own) this.emit('chat-widget-message', { message: summarizeMessage(message) });
          if (parseNotify(this.getAttribute('notify') ?? undefined).sound) chime(message.id);
        },
        fallback: () => {
          if (this.badge !== badge) return;
          this.dropBadge();
          this.badgeFailed = true;
          if (this.isConnected) this.render();
        },
      },
      // A page whose policy gives scripts a nonce allows no worker by it: the chat counts, with no violation reported.
      badgeScript(scriptNonce() ? null : scriptAddress()),
    );
    // Set before the count last shown is drawn: drawing renders, which must find this client.
    this.badge = badge;
    const known = visitorStorage.unread(apiKey, owner);
    if (known !== null) {
      this.storedCount = `${owner}|${known}`; // read from storage: not written back
      this.showCount(known);
    }
    badge.start();
  }

  /** The badge client goes (the chat is wanted, or someone else's count): the panel waits for its socket to close. */
  private dropBadge() {
    const badge = this.badge;
    if (!badge) return;
    this.badge = null;
    setTitleCount(this.titleOwner, 0);
    const stopping = badge.stop().then(() => {
      if (this.badgeStopping !== stopping) return;
      this.badgeStopping = null;
      if (this.isConnected) this.render();
    });
    this.badgeStopping = stopping;
  }

  /**
   * The count on the launcher, kept for the next page; `announce`: a counted one (not the stored
   * one drawn first), told to the page with `chat-widget-unread` when it changed. While the badge
   * client counts, it is also in the tab's title where `notify` asks.
   */
  private showCount(count: number, announce = false) {
    const parsed = parseAttributes(readAttributes(this));
    const owner = parsed.ok ? ownerOf(parsed.config) : '';
    if (parsed.ok && storageReadable && `${owner}|${count}` !== this.storedCount) {
      this.storedCount = `${owner}|${count}`;
      visitorStorage.rememberUnread(parsed.config.apiKey, owner, count);
    }
    if (this.badge) setTitleCount(this.titleOwner, parseNotify(this.getAttribute('notify') ?? undefined).title ? count : 0);
    if (announce && count !== this.announced) {
      this.announced = count;
      this.emit('chat-widget-unread', { count });
    }
    if (count === this.unread) return;
    this.unread = count;
    this.render();
  }

  /**
   * The visitor reaches for the launcher: the runtime is loaded and, for a valid configuration,
   * the session started (the token fetched, the socket opened), so the click finds them ready.
   * A visitor who never does costs no request. Each intent asks again: a session nobody opened
   * closes after a while (ChatSession.prepare), and a failed start is retried. The badge client
   * lets go of its socket first (one socket at a time), and afterwards follows the session's
   * connection, or holds its own again if that session closes unused (where Web Locks tell).
   */
  private intent() {
    const prepare = async (runtime: ChatRuntime, token?: Promise<Response>) => {
      const parsed = parseAttributes(readAttributes(this));
      const closed = parsed.ok && parsed.guests === 'none' && !parsed.config.tokenEndpoint;
      if (!parsed.ok || closed || !this.isConnected) return;
      const badge = this.badge;
      await badge?.pause();
      if (!this.isConnected) return;
      const started = runtime.prepare?.(parsed.config, token);
      this.prepared = true;
      const resume = () => {
        if (this.badge === badge && navigator.locks) badge?.resume();
      };
      if (!started || this.panel) return resume();
      const preparing = started.catch(() => undefined).then(() => {
        if (this.preparing === preparing) this.preparing = null;
        resume();
      });
      this.preparing = preparing;
    };
    if (this.runtime) return prepare(this.runtime);
    // The runtime is asked for once on intent (a failed fetch is retried by opening the chat).
    if (this.reaching) return;
    this.reaching = true;
    // The token endpoint's request travels while the runtime loads, unless the chat is already
    // starting (a returning visitor's session asks for its own).
    const parsed = parseAttributes(readAttributes(this));
    const endpoint = parsed.ok && !this.loading && !this.panel ? parsed.config.tokenEndpoint : null;
    const token = endpoint ? requestToken(endpoint) : undefined;
    token?.catch(() => undefined); // read, and reported, by the session
    runtimeSource()
      .then((runtime) => {
        this.runtime ??= runtime;
        return prepare(runtime, token);
      })
      .catch(() => undefined);
  }

  /** Loads the runtime; the next render hosts its panel if the chat is still wanted. */
  private start() {
    this.loading = true;
    runtimeSource()
      .then((runtime) => {
        this.runtime = runtime;
      })
      .catch((error: unknown) => {
        const message = `The chat could not start: ${error instanceof Error ? error.message : String(error)}`;
        this.failure = placeholder('alert', this.words?.unavailable ?? 'Chat is unavailable right now.', message);
        const retry = document.createElement('button');
        retry.type = 'button';
        retry.className = 'button';
        retry.textContent = this.words?.tryAgain ?? 'Try again';
        retry.addEventListener('click', () => {
          this.failure = null;
          this.render();
        });
        this.failure.append(retry);
        this.emit('chat-widget-error', { reason: 'connection-failed', message });
      })
      .finally(() => {
        this.loading = false;
        if (this.isConnected) this.render();
      });
  }

  /**
   * Hosts the panel, but not before the session started on intent has its socket under way
   * (for at most HOST_WAIT_MS): the panel's first render is one long task, and the token's
   * answer arriving meanwhile would wait for it, and the socket's handshake behind that. This
   * way the handshake travels while the panel renders. Meanwhile the panel's place says
   * "Connecting…".
   */
  private hostSoon(runtime: ChatRuntime) {
    if (!this.preparing) return this.host(runtime);
    if (this.waiting) return;
    this.waiting = true;
    void Promise.race([this.preparing, new Promise((resolve) => setTimeout(resolve, HOST_WAIT_MS))])
      // A task later: the socket is opened in the promise callbacks that follow connectUser.
      .then(() => new Promise((resolve) => setTimeout(resolve)))
      .then(() => {
        this.waiting = false;
        this.preparing = null;
        if (this.isConnected) this.render();
      });
  }

  private host(runtime: ChatRuntime) {
    const panel = runtime.createPanel();
    for (const attribute of Object.keys(ATTRIBUTES)) {
      const value = this.getAttribute(attribute);
      if (value !== null) panel.setAttribute(attribute, value);
    }
    panel.onOpenChange = (open) => this.toggle(open);
    if (this.siteStrings) panel.translations = this.siteStrings;
    panel.onWords = (words) => {
      this.words = words;
      this.connecting = this.signedOut = null; // drawn again in the visitor's words
      this.render();
    };
    // Before the launcher, which stays the same button (a keyboard user may be on it).
    this.widget.prepend(panel);
    this.panel = panel;
    this.panelCounted = false;
  }

  /** The previous user's panel and session go, with what the browser kept for them. */
  private signOut(apiKey: string) {
    this.giveFocusBack();
    this.panel?.remove();
    this.panel = null;
    this.unread = 0;
    visitorStorage.rememberSession(apiKey, false);
    visitorStorage.rememberUnread(apiKey, '', null);
    this.storedCount = '';
  }

  /** The panel is closing or going: the focus, if inside it, goes back to whatever had it before. */
  private giveFocusBack() {
    if (document.activeElement === this) (this.opener as HTMLElement | null)?.focus();
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

// Each attribute is also a property (`el.apiKey`), read from and written to the attribute;
// null or undefined removes it. `open` is the method; `isOpen` reads the state.
for (const [attribute, prop] of Object.entries(ATTRIBUTES) as Array<[AttributeName, keyof RawAttributes]>) {
  if (prop === 'open' || prop === 'translations') continue; // the method, and an accessor of its own
  Object.defineProperty(ChatWidgetElement.prototype, prop, {
    configurable: true,
    enumerable: true,
    get(this: HTMLElement) {
      return this.getAttribute(attribute) ?? undefined;
    },
    set(this: HTMLElement, value: unknown) {
      if (value === null || value === undefined) this.removeAttribute(attribute);
      else this.setAttribute(attribute, String(value));
    },
  });
}

/**
 * Whether this browser's storage may be read yet. The first read of `localStorage` in a page
 * waits on the browser process (1-15 ms of the main thread at 4x CPU in a fresh profile, most
 * often 6-9), which the parser's task should not pay for a closed bubble: it is read once the
 * load event has passed and the page is idle (within a second).
 */
let storageReadable = false;
const waitingForStorage: Array<() => void> = [];

function whenStorageReadable(callback: () => void) {
  if (waitingForStorage.push(callback) > 1) return;
  const read = () => {
    storageReadable = true;
    for (const waiting of waitingForStorage.splice(0)) waiting();
  };
  const idle = () => whenIdle(read, 1000);
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}

/** Whose unread count a configuration shows: its visitor (token endpoint or guest), backend and channel. */
const ownerOf = ({ baseUrl, tokenEndpoint, channel }: WidgetConfig) =>
  JSON.stringify([baseUrl, tokenEndpoint ?? 'guest', channel && `${channel.type}:${channel.id}`]);

/** The panel's place while the runtime loads or when it cannot start: styled by the launcher's sheet alone. */
function placeholder(role: 'status' | 'alert', title: string, detail?: string): HTMLElement {
  const box = document.createElement('section');
  box.className = 'placeholder';
  box.setAttribute('part', role === 'alert' ? 'panel status-error' : 'panel');
  box.setAttribute('role', role);
  const heading = document.createElement('strong');
  heading.textContent = title;
  box.append(heading);
  if (detail) {
    const text = document.createElement('p');
    text.textContent = detail;
    box.append(text);
  }
  return box;
}
