// Every DOM event the element dispatches, with its `detail` type, in one place.
// Names are kebab-case with a `chat-widget-` prefix and no colons, so frameworks
// whose templates cannot bind colon names (Angular) can listen to them.

export interface MessageSummary {
  id: string;
  text: string;
  cid: string;
  user: { id: string; name?: string };
  createdAt: string;
}

/** A message as the page's events carry it, from the provider's message. */
export const summarizeMessage = (message: {
  id: string;
  text?: string;
  cid?: string;
  user?: { id: string; name?: string } | null;
  created_at?: string;
}): MessageSummary => ({
  id: message.id,
  text: message.text ?? '',
  cid: message.cid ?? '',
  user: { id: message.user?.id ?? '', name: message.user?.name },
  createdAt: String(message.created_at ?? ''),
});

export interface ChatWidgetEventMap {
  /** Connected and the channel (or channel list) is loaded. */
  'chat-widget-ready': { userId: string; channel: string | null };
  'chat-widget-open': Record<string, never>;
  'chat-widget-close': Record<string, never>;
  /** A message from someone else arrived in the widget's channel. */
  'chat-widget-message': { message: MessageSummary };
  /** The visitor's own message was accepted by the backend. */
  'chat-widget-message-sent': { message: MessageSummary };
  /** The unread count shown on the launcher changed. */
  'chat-widget-unread': { count: number };
  /** Something failed; `reason` is a stable code, `message` is readable text. */
  'chat-widget-error': { reason: ErrorReason; message: string };
}

export type ChatWidgetEventName = keyof ChatWidgetEventMap;

export type ErrorReason =
  | 'missing-api-key'
  | 'invalid-channel'
  | 'invalid-mode'
  | 'invalid-theme'
  | 'invalid-launcher'
  | 'invalid-position'
  | 'invalid-guests'
  | 'invalid-base-url'
  | 'invalid-token-endpoint'
  | 'token-unauthorized'
  | 'token-endpoint-failed'
  | 'token-invalid-response'
  | 'token-unreachable'
  | 'token-blocked-by-policy'
  | 'backend-blocked-by-policy'
  | 'socket-blocked-by-policy'
  | 'connection-failed'
  | 'channel-failed'
  | 'send-failed'
  | 'account-deactivated'
  | 'account-deleted'
  | 'invalid-translations';

export type Emit = <K extends ChatWidgetEventName>(name: K, detail: ChatWidgetEventMap[K]) => void;

export const CHAT_WIDGET_EVENTS = [
  'chat-widget-ready',
  'chat-widget-open',
  'chat-widget-close',
  'chat-widget-message',
  'chat-widget-message-sent',
  'chat-widget-unread',
  'chat-widget-error',
] as const satisfies readonly ChatWidgetEventName[];

/** Dispatches a typed event that crosses the shadow boundary into the host page. */
export function emitFrom(target: EventTarget): Emit {
  return (name, detail) => {
    target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  };
}

declare global {
  interface HTMLElementEventMap {
    'chat-widget-ready': CustomEvent<ChatWidgetEventMap['chat-widget-ready']>;
    'chat-widget-open': CustomEvent<ChatWidgetEventMap['chat-widget-open']>;
    'chat-widget-close': CustomEvent<ChatWidgetEventMap['chat-widget-close']>;
    'chat-widget-message': CustomEvent<ChatWidgetEventMap['chat-widget-message']>;
    'chat-widget-message-sent': CustomEvent<ChatWidgetEventMap['chat-widget-message-sent']>;
    'chat-widget-unread': CustomEvent<ChatWidgetEventMap['chat-widget-unread']>;
    'chat-widget-error': CustomEvent<ChatWidgetEventMap['chat-widget-error']>;
  }
}
