import { ChatWidgetElement } from './chat-widget';

export const TAG_NAME = 'chat-widget';

/**
 * Registers `<chat-widget>`. Idempotent: a page that loads the script twice (or the loader and
 * the full file) keeps the first definition instead of throwing.
 */
export function defineChatWidget(registry: CustomElementRegistry = customElements) {
  if (!registry.get(TAG_NAME)) registry.define(TAG_NAME, ChatWidgetElement);
}
