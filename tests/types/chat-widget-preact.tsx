/** @jsxImportSource preact */
// Type test: <chat-widget> in Preact's JSX.
export const markup = (
  <>
    <chat-widget api-key="k" channel="messaging:support" user-name="Ann" class="chat" />
    {/* @ts-expect-error: not a position */}
    <chat-widget api-key="k" position="top" />
  </>
);
