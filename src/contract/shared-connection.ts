// What the tabs of one browser say to each other about the one realtime connection they share
// (session/shared-connection.ts; the element's badge client speaks it too, element/badge-client.ts).
// The tab holding the Web Lock named by connectionLockName has the connection; it posts on the
// BroadcastChannel of the same name.
import type { Event } from 'stream-chat';

/** The holder's events, its loss of connection, a newcomer's question and the holder's answer. */
export type ConnectionNote = { event: Event } | { offline: true } | { hello: true } | { connected: Event };

/** The lock (and channel) for one API key, backend and user: `baseURL` as the SDK's client holds it. */
export const connectionLockName = (apiKey: string, baseURL: string, userId: string) =>
  `chat-widget-connection:${JSON.stringify([apiKey, baseURL, userId])}`;

/**
 * Events that came from the backend (they carry its `created_at`); those the SDK makes in each
 * tab for itself (`connection.changed`, `channels.queried`, `typing.stop`, …) are not relayed.
 */
export const fromBackend = (event: Event) => !!event.created_at && event.type !== 'message.read_locally';
