// `<chat-widget>` as page code and frameworks see it: its properties, the attributes markup
// writes, and the global map that makes the tag known to TypeScript (`document.querySelector`).
// Its events are typed in contract/events.ts (`HTMLElementEventMap`). Types only: nothing here
// runs, so framework bindings (src/entries/react.tsx) can share it without bundling the element.
// The JSX of Preact and Vue is typed in entries of their own (preact.d.ts, vue.d.ts), so these
// types name no package a site may not have.
import type { Mode, Placement, Theme } from '../contract/attributes';

/**
 * The element's properties, one per attribute (`apiKey` ↔ `api-key`). Setting one sets its
 * attribute; reading one gives the attribute's text. `open` is not among them: that name is
 * the `open()` method, and the panel's state is the `open` attribute (see `isOpen`).
 */
export interface ChatWidgetProperties {
  apiKey?: string;
  tokenEndpoint?: string;
  /** `type:id`, e.g. `messaging:support`; without it the panel lists the user's channels. */
  channel?: string;
  baseUrl?: string;
  mode?: Mode;
  theme?: Theme;
  userName?: string;
  /** A boolean attribute: `true` saves drafts (it reads back as the attribute's text). */
  drafts?: boolean | string;
  launcher?: Placement['launcher'];
  position?: Placement['position'];
  /** `none`: signed out (no token endpoint), the chat is closed rather than a guest's. */
  guests?: Placement['guests'];
}

/** `<chat-widget>` itself: `document.querySelector('chat-widget')`, or a framework's ref. */
export interface HTMLChatWidgetElement extends HTMLElement, ChatWidgetProperties {
  /** Opens the panel (sets the `open` attribute). */
  open(): void;
  /** Closes the panel. */
  close(): void;
  /** Flips the panel, or sets it when `force` is given. */
  toggle(force?: boolean): void;
  /** Whether the panel is open. */
  readonly isOpen: boolean;
}

type Kebab<Name extends string> = Name extends `${infer First}${infer Rest}`
  ? `${First extends Lowercase<First> ? First : `-${Lowercase<First>}`}${Kebab<Rest>}`
  : Name;

/**
 * The attributes as markup writes them (`api-key`, `user-name`, …), for JSX typings. No `open`:
 * the JSX of React 19, Preact and Vue sets a property when the element has one by that name,
 * which for `open` would replace the method. Open the panel with `open()` instead.
 */
export type ChatWidgetAttributes = {
  [Name in keyof ChatWidgetProperties as Kebab<Name>]: ChatWidgetProperties[Name];
};

declare global {
  interface HTMLElementTagNameMap {
    'chat-widget': HTMLChatWidgetElement;
  }
}
