// The chat itself: the panel, the session and stream-chat. The page's script carries it, but it
// runs only when the chat is first wanted (see runtime-loader.ts and build/defer-runtime.mjs).
export { ConnectedWidget } from './connected-widget';
