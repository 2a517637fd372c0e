// The loader (dist/chat-widget.loader.js, the embed the README shows first): the element, its
// launcher and the returning visitor's badge client alone. The full file beside it is run when the
// chat is about to be wanted (element/fetch-runtime.ts), so a visitor who never opens the chat
// pays for a few kilobytes and an idle download.
import { setRuntimeSource } from '../element/chat-widget';
import { defineChatWidget } from '../element/define';
import { fetchRuntime, listenForRuntime, prefetchWhenIdle } from '../element/fetch-runtime';

listenForRuntime();
setRuntimeSource(fetchRuntime);
defineChatWidget();
prefetchWhenIdle();
