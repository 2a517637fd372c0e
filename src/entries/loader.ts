// The loader (dist/chat-widget.loader.js, the embed the README shows first): the element, its
// launcher and the start of the returning visitor's badge (a worker script beside it) alone. The
// full file beside it is run when the chat is about to be wanted (element/fetch-runtime.ts), so
// a visitor who never opens the chat pays for a few kilobytes and an idle download.
import { rememberScriptBase } from '../i18n/script-base';
import { setRuntimeSource } from '../element/chat-widget';
import { defineChatWidget } from '../element/define';
import { fetchRuntime, listenForRuntime, prefetchWhenIdle } from '../element/fetch-runtime';

rememberScriptBase(); // now, while this script runs: the badge's worker script is beside it
listenForRuntime();
setRuntimeSource(fetchRuntime);
defineChatWidget();
prefetchWhenIdle();
