// `chat-widget/react`: <ChatWidget> renders the <chat-widget> tag for React 18 and 19. It does
// not bundle the element: the page loads dist/chat-widget.js, or the client imports 'chat-widget'.
// Nothing runs at import time, so it is safe to import and render on a server.
import {
  forwardRef,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  type DetailedHTMLProps,
  type HTMLAttributes,
} from 'react';
import type {
  ChatWidgetAttributes,
  ChatWidgetEventMap,
  ChatWidgetProperties,
  HTMLChatWidgetElement,
} from './chat-widget';

export type {
  ChatWidgetAttributes,
  ChatWidgetEventMap,
  ChatWidgetProperties,
  ErrorReason,
  HTMLChatWidgetElement,
  MessageSummary,
} from './chat-widget';

/** Each event prop and the element's event it listens to. */
const EVENTS = {
  onReady: 'chat-widget-ready',
  onOpen: 'chat-widget-open',
  onClose: 'chat-widget-close',
  onMessage: 'chat-widget-message',
  onMessageSent: 'chat-widget-message-sent',
  onUnread: 'chat-widget-unread',
  onError: 'chat-widget-error',
} as const satisfies Record<string, keyof ChatWidgetEventMap>;

type EventProp = keyof typeof EVENTS;

export type ChatWidgetEventProps = {
  [Prop in EventProp]?: (event: CustomEvent<ChatWidgetEventMap[(typeof EVENTS)[Prop]]>) => void;
};

// Every property the element has, each with its attribute (the exhaustive type keeps the list whole).
const ATTRIBUTES: Record<keyof ChatWidgetProperties, keyof ChatWidgetAttributes> = {
  apiKey: 'api-key',
  tokenEndpoint: 'token-endpoint',
  channel: 'channel',
  baseUrl: 'base-url',
  mode: 'mode',
  theme: 'theme',
  userName: 'user-name',
  drafts: 'drafts',
  launcher: 'launcher',
  position: 'position',
  guests: 'guests',
};

type HtmlProps = Omit<HTMLAttributes<HTMLChatWidgetElement>, EventProp>;

export interface ChatWidgetProps extends Omit<ChatWidgetProperties, 'drafts'>, ChatWidgetEventProps, HtmlProps {
  /** Opens the panel when it becomes true and closes it when it becomes false. */
  open?: boolean;
  drafts?: boolean;
}

// Layout effects run before paint, so an `open` widget is never seen closed; on a server React 18
// warns about them, and effects do not run there anyway.
const useClientLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;

/**
 * `<chat-widget>` with typed props and events. The ref is the element: `ref.current.open()`.
 * Settings are written as attributes, so server rendering writes them into the tag and an
 * element defined later reads them, and set again as properties on the client.
 */
export const ChatWidget = forwardRef<HTMLChatWidgetElement, ChatWidgetProps>(function ChatWidget(props, ref) {
  const { open, ...rest } = props;
  const properties: Record<string, unknown> = {};
  const attributes: Record<string, string | undefined> = {};
  const handlers: ChatWidgetEventProps = {};
  const html: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(rest)) {
    if (name in ATTRIBUTES) {
      properties[name] = value;
      // A boolean attribute is on when present.
      attributes[ATTRIBUTES[name as keyof ChatWidgetProperties]] =
        typeof value === 'boolean' ? (value ? '' : undefined) : (value as string | undefined);
    } else if (name in EVENTS) handlers[name as EventProp] = value as never;
    else html[name] = value;
  }

  const element = useRef<HTMLChatWidgetElement>(null);
  useImperativeHandle(ref, () => element.current as HTMLChatWidgetElement, []);

  // React 18 does not listen to custom events: each is listened to here, once, and calls the
  // handler of the latest render, so a new inline function each render costs nothing.
  const latest = useRef(handlers);
  useClientLayoutEffect(() => {
    latest.current = handlers;
  });
  useClientLayoutEffect(() => {
    const el = element.current as HTMLChatWidgetElement;
    const listeners = Object.entries(EVENTS).map(([prop, name]) => {
      const listener = (event: Event) => latest.current[prop as EventProp]?.(event as never);
      el.addEventListener(name, listener);
      return () => el.removeEventListener(name, listener);
    });
    return () => listeners.forEach((remove) => remove());
  }, []);

  // Properties keep booleans (and any value that is not text) as they are; an element still
  // waiting for its script takes them over when it is defined.
  useClientLayoutEffect(() => {
    Object.assign(element.current as HTMLChatWidgetElement, properties);
  });

  // `open` is neither a property (the element's `open()` method has that name, and React 19
  // would overwrite it) nor rendered (React 19 would set it as that property too): it is set as
  // the attribute here, which the element reflects, defined or not. Unset, the element keeps its
  // own state, which the visitor changes with the launcher.
  useClientLayoutEffect(() => {
    if (open !== undefined) element.current?.toggleAttribute('open', open);
  }, [open]);

  return <chat-widget ref={element} {...html} {...attributes} />;
});
// React DevTools shows this name; the bundle renames the inner function.
ChatWidget.displayName = 'ChatWidget';

/** What `<chat-widget>` takes in React's JSX: HTML props and the element's attributes. */
export type ChatWidgetJSXProps = DetailedHTMLProps<HTMLAttributes<HTMLChatWidgetElement>, HTMLChatWidgetElement> &
  ChatWidgetAttributes;

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'chat-widget': ChatWidgetJSXProps;
    }
  }
}
