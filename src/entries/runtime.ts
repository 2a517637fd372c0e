// The chat itself: the panel (Preact, r2wc), the session and stream-chat. The page's script
// carries it, but it runs only when the chat is first wanted (see runtime-loader.ts and
// build/defer-runtime.mjs); the loader fetches it in the full file (element/fetch-runtime.ts).
export { createPanel } from '../ui/shell/panel-element';
export { prepareSession as prepare } from '../session/sessions';

// On the page's performance timeline when the runtime is evaluated: a site (or a test) can see
// whether a page view paid for the chat.
performance.mark?.('chat-widget-runtime');
