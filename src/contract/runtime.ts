// What the element (the part every page evaluates at once) asks of the chat's runtime (the
// part evaluated when the chat is first wanted: Preact, the panel, the session, stream-chat).
// The single file carries both; the loader fetches the runtime in the full file beside it.

import type { WidgetConfig } from './attributes';

/** The panel: a custom element made with r2wc from the React UI, which the element hosts. */
export interface PanelElement extends HTMLElement {
  /** The panel asks to open or close (its close button, Escape); the element decides. */
  onOpenChange?: (open: boolean) => void;
  /** The site's own strings as an object (the `translations` attribute can only be a URL). */
  translations?: string | Record<string, unknown>;
  /** The element's own words in the visitor's language, given once the panel knows it. */
  onWords?: (words: ElementWords) => void;
}

/** What the element says itself (the launcher, the placeholders): English until the panel tells it. */
export interface ElementWords {
  open: string;
  close: string;
  unread: (count: number) => string;
  connecting: string;
  unavailable: string;
  tryAgain: string;
  signIn: string;
  notSetUp: string;
}

export interface ChatRuntime {
  /** A new panel element; the element copies its attributes onto it. */
  createPanel(): PanelElement;
  /**
   * The visitor reached for the launcher: start the session this configuration's panel will use
   * (the token and the socket), without a panel. Optional: a full file older than its loader may
   * lack it, and the click then starts everything as before. `token`: the token endpoint's
   * request, sent by the element on the same intent while the runtime loaded. Resolves once the
   * session has its socket under way, or has failed (a full file older than this may return
   * nothing): the element then hosts the panel, whose first render would otherwise hold up the
   * token's answer and the socket behind it.
   */
  prepare?(config: WidgetConfig, token?: Promise<Response>): Promise<void> | void;
}

/** Loads (once) and returns the runtime. */
export type RuntimeSource = () => Promise<ChatRuntime>;

/**
 * The document event by which a full file, run on a page where a loader already defined
 * `<chat-widget>`, hands that element its runtime (the detail is the full file's source).
 */
export const RUNTIME_EVENT = 'chat-widget-runtime';
