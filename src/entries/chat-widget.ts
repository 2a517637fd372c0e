// The single file (dist/chat-widget.js): the element, and the chat's runtime in the same file,
// evaluated when the chat is first wanted (build/defer-runtime.mjs).
import { rememberScriptBase } from '../i18n/script-base';
import { loadRuntime } from './runtime-loader';
import { ChatWidgetElement, setRuntimeSource } from '../element/chat-widget';
import { defineChatWidget, TAG_NAME } from '../element/define';
import { RUNTIME_EVENT } from '../contract/runtime';

export { ChatWidgetElement, defineChatWidget, TAG_NAME };
export type * from '../contract/events';
export type * from '../element/element-types';
export { CHAT_WIDGET_EVENTS } from '../contract/events';
export type { RawAttributes, WidgetConfig } from '../contract/attributes';

setRuntimeSource(loadRuntime);
rememberScriptBase(); // now, while this script runs: the catalogues are beside it

if (typeof customElements !== 'undefined') {
  defineChatWidget();
  // Fetched by the loader, which defined `<chat-widget>` first: hand it this file's runtime.
  if (customElements.get(TAG_NAME) !== ChatWidgetElement) {
    document.dispatchEvent(new CustomEvent(RUNTIME_EVENT, { detail: loadRuntime }));
  }
}
