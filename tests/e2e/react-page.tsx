// The React 19 page of tests/e2e/react.test.ts, bundled by esbuild inside the test: <ChatWidget>
// as a site would use it, with StrictMode so effects run, clean up and run again. The test drives
// it through `window.reactPage`.
import { StrictMode, useRef, useState, type RefObject } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatWidget, type HTMLChatWidgetElement } from '../../src/entries/react';

export interface ReactPage {
  widget: RefObject<HTMLChatWidgetElement | null>;
  setTheme(theme: 'light' | 'dark'): void;
  /** Each event prop call, in order, with the event's detail. */
  calls: { prop: string; detail: unknown }[];
}

declare global {
  interface Window {
    reactPage: ReactPage;
  }
}

const calls: ReactPage['calls'] = [];
const record = (prop: string) => (event: CustomEvent) => calls.push({ prop, detail: event.detail });

function App() {
  const widget = useRef<HTMLChatWidgetElement>(null);
  const [theme, setTheme] = useState<'light' | 'dark'>('light');
  window.reactPage = { widget, setTheme, calls };
  return (
    <ChatWidget
      ref={widget}
      apiKey={new URLSearchParams(location.search).get('key') ?? ''}
      tokenEndpoint="/demo/token?user=alice"
      baseUrl={location.origin}
      channel="messaging:general"
      open
      theme={theme}
      className="site-chat"
      style={{ outline: '3px solid orange' }}
      onReady={record('onReady')}
      onOpen={record('onOpen')}
      onClose={record('onClose')}
      onError={record('onError')}
    />
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
