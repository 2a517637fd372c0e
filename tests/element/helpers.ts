import { waitFor, within } from '@testing-library/preact';
import type { ChatWidgetElement, ChatWidgetEventMap, ChatWidgetEventName } from '../../src/entries/chat-widget';
import '../../src/entries/chat-widget';

// The element loads the chat's runtime with a dynamic import when the chat is first wanted:
// compile it before the first test, so a waitFor's second measures the widget, not the compiler.
await import('../../src/entries/runtime');

/** Adds `<chat-widget>` with the given attributes (`true` writes a bare attribute). */
// No test may reach beyond this machine: a valid configuration points at a closed local port
// unless the test gives its own base-url.
const OFFLINE_BASE_URL = 'http://127.0.0.1:9';

export function mount(attributes: Record<string, string | true> = {}, parent: Element = document.body) {
  const el = document.createElement('chat-widget') as ChatWidgetElement;
  if (!('base-url' in attributes)) el.setAttribute('base-url', OFFLINE_BASE_URL);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value === true ? '' : value);
  parent.append(el);
  return el;
}

/** Queries inside the element's shadow root, the way a visitor sees it. */
export const shadow = (el: ChatWidgetElement) => within(el.shadowRoot?.querySelector('.widget') as HTMLElement);

export const part = (el: ChatWidgetElement, name: string) => el.shadowRoot?.querySelector(`[part~="${name}"]`) ?? null;

/** Records every event of one name dispatched on the element. */
export function record<K extends ChatWidgetEventName>(el: EventTarget, name: K) {
  const details: ChatWidgetEventMap[K][] = [];
  el.addEventListener(name, (event) => details.push((event as CustomEvent<ChatWidgetEventMap[K]>).detail));
  return details;
}

export async function waitForEvent<K extends ChatWidgetEventName>(el: EventTarget, name: K, timeout = 5000) {
  const seen = record(el, name);
  await waitFor(
    () => {
      if (seen.length === 0) throw new Error(`no ${name} yet`);
    },
    { timeout },
  );
  return seen[0] as ChatWidgetEventMap[K];
}
