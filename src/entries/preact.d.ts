// `chat-widget/preact`: <chat-widget> in Preact's JSX, with its attributes checked. Types only;
// a Preact project includes it once, e.g. with `import type {} from 'chat-widget/preact'`. It
// needs `preact`, so it is kept out of the other entries, whose types name no package.
import type { JSX as PreactJSX } from 'preact';
import type { ChatWidgetAttributes, HTMLChatWidgetElement } from './chat-widget';

declare module 'preact' {
  namespace JSX {
    interface IntrinsicElements {
      'chat-widget': PreactJSX.HTMLAttributes<HTMLChatWidgetElement> & ChatWidgetAttributes;
    }
  }
}
