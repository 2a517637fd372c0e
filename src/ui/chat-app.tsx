import { useEffect, useMemo, useRef } from 'react';
import { parseAttributes, type RawAttributes, type Presentation } from '../element/attributes';
import type { Emit } from '../element/events';
import { ConnectedWidget } from './connected-widget';
import { Frame } from './frame';
import { StatusView } from './status-view';

export interface ChatAppProps extends RawAttributes {
  /** Dispatches the element's DOM events; the UI calls nothing else of the host. */
  emit?: Emit;
  /** Asks the host to open or close the panel (the `open` attribute is the source of truth). */
  onOpenChange?: (open: boolean) => void;
}

const noop = () => undefined;

/** Emits `chat-widget-open` / `chat-widget-close` when the panel changes, not for the first render. */
function useOpenEvents(open: boolean, emit: Emit) {
  const previous = useRef(open);
  useEffect(() => {
    if (previous.current === open) return;
    previous.current = open;
    emit(open ? 'chat-widget-open' : 'chat-widget-close', {});
  }, [open, emit]);
}

/** The component r2wc mounts: attributes in, a validated configuration or a readable error out. */
export function ChatApp({ emit = noop, onOpenChange = noop, ...raw }: ChatAppProps) {
  const { apiKey, tokenEndpoint, channel, baseUrl, mode, open, theme, userName, drafts } = raw;
  const parsed = useMemo(
    () => parseAttributes({ apiKey, tokenEndpoint, channel, baseUrl, mode, open, theme, userName, drafts }),
    [apiKey, tokenEndpoint, channel, baseUrl, mode, open, theme, userName, drafts],
  );
  const configError = parsed.ok ? null : parsed.error;
  useOpenEvents(parsed.open && parsed.mode === 'bubble', emit);
  useEffect(() => {
    if (configError) emit('chat-widget-error', { ...configError });
  }, [configError?.reason, configError?.message, emit]);

  const presentation: Presentation = { mode: parsed.mode, open: parsed.open, theme: parsed.theme };
  return (
    <div className="widget" data-mode={parsed.mode} data-theme={parsed.theme}>
      {parsed.ok ? (
        <ConnectedWidget config={parsed.config} presentation={presentation} emit={emit} setOpen={onOpenChange} />
      ) : (
        <Frame {...presentation} setOpen={onOpenChange} unread={0} title="Chat">
          <StatusView tone="error" title="This chat is not set up correctly." detail={parsed.error.message} />
        </Frame>
      )}
    </div>
  );
}
