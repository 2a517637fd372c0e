// The single file (dist/chat-widget.js): the element, and the chat's runtime in the same file,
// evaluated when the chat is first wanted (build/defer-runtime.mjs).
import { rememberScriptBase } from '../i18n/script-base';
import { loadRuntime } from '../ui/runtime-loader';
import { ChatWidgetElement, setRuntimeSource } from './chat-widget';
import { defineChatWidget, TAG_NAME } from './define';
import { RUNTIME_EVENT } from './runtime-contract';

export { ChatWidgetElement, defineChatWidget, TAG_NAME };
export type * from './events';
export type * from './element-types';
export { CHAT_WIDGET_EVENTS } from './events';
export type { RawAttributes, WidgetConfig } from './attributes';

setRuntimeSource(loadRuntime);
rememberScriptBase(); // now, while this script runs: the catalogues are beside it

if (typeof customElements !== 'undefined') {
  defineChatWidget();
  // Fetched by the loader, which defined `<chat-widget>` first: hand it this file's runtime.
  if (customElements.get(TAG_NAME) !== ChatWidgetElement) {
    document.dispatchEvent(new CustomEvent(RUNTIME_EVENT, { detail: loadRuntime }));
  }
}
