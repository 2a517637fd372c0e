import { ChatWidgetElement } from './chat-widget';

export { ChatWidgetElement };
export type * from './events';
export type * from './element-types';
export { CHAT_WIDGET_EVENTS } from './events';
export type { RawAttributes, WidgetConfig } from './attributes';

export const TAG_NAME = 'chat-widget';

/**
 * Registers `<chat-widget>`. Idempotent: a page that loads the script twice keeps
 * the first definition instead of throwing.
 */
export function defineChatWidget(registry: CustomElementRegistry = customElements) {
  if (!registry.get(TAG_NAME)) registry.define(TAG_NAME, ChatWidgetElement);
}

if (typeof customElements !== 'undefined') defineChatWidget();
