// `chat-widget/vue`: <chat-widget> as a known element in Vue 3 templates (vue-tsc), the way Vue's
// guide types custom elements. Types only; a Vue project includes it once, e.g. with
// `import type {} from 'chat-widget/vue'`. It needs `vue`, so it is kept out of the other entries.
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { ChatWidgetEventMap, ChatWidgetProperties, HTMLChatWidgetElement } from './chat-widget';

declare module 'vue' {
  interface GlobalComponents {
    'chat-widget': new () => HTMLChatWidgetElement & {
      /** @deprecated For template type checking only: not on the element. */
      $props: HTMLAttributes & ChatWidgetProperties & PublicProps;
      /** @deprecated For template type checking only: not on the element. */
      $emit: EmitFn<{ [Name in keyof ChatWidgetEventMap]: (event: CustomEvent<ChatWidgetEventMap[Name]>) => void }>;
    };
  }
}
