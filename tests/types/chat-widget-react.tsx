// Type test (tsc -p tsconfig.node.json): <chat-widget> in React's JSX, the element's events and
// the ChatWidget component's props. Every @ts-expect-error line must fail to compile.
import { useRef } from 'react';
import { ChatWidget, type HTMLChatWidgetElement } from '../../src/entries/react';

export const markup = (
  <>
    <chat-widget api-key="k" channel="messaging:support" theme="dark" drafts />
    {/* @ts-expect-error: not a theme */}
    <chat-widget api-key="k" theme="purple" />
    {/* @ts-expect-error: markup names the attribute api-key */}
    <chat-widget apiKey="k" />
    {/* @ts-expect-error: `open` would replace the element's open() method; use the component or open() */}
    <chat-widget api-key="k" open />
  </>
);

const widget = document.querySelector('chat-widget')!;
widget.addEventListener('chat-widget-unread', (e) => e.detail.count.toFixed());
widget.addEventListener('chat-widget-error', (e) => e.detail.reason satisfies string);
// @ts-expect-error: the unread count is a number
widget.addEventListener('chat-widget-unread', (e) => e.detail.count.toUpperCase());
widget.apiKey = 'k';
widget.toggle(true);
export const open: boolean = widget.isOpen;

export function Component() {
  const ref = useRef<HTMLChatWidgetElement>(null);
  return (
    <>
      <ChatWidget
        ref={ref}
        apiKey="k"
        channel="messaging:support"
        open
        drafts
        className="chat"
        style={{ zIndex: 1 }}
        onReady={(e) => e.detail.userId.toUpperCase()}
        onUnread={(e) => e.detail.count.toFixed()}
        onError={(e) => e.detail.reason satisfies string}
        onClick={() => ref.current?.open()}
      />
      {/* @ts-expect-error: not a mode */}
      <ChatWidget apiKey="k" mode="floating" />
      {/* @ts-expect-error: the ready event has no count */}
      <ChatWidget apiKey="k" onReady={(e) => e.detail.count} />
    </>
  );
}
