import { useMemo } from 'react';
import { ATTRIBUTES, parseAttributes, type RawAttributes, type Presentation } from '../element/attributes';
import type { Emit } from '../element/events';
import { ConnectedWidget } from './connected-widget';
import { Frame } from './frame';
import { StatusView } from './status-view';

export interface ChatPanelProps extends RawAttributes {
  /** Dispatches the element's DOM events; the UI calls nothing else of the host. */
  emit?: Emit;
  /** Asks the element to open or close the panel (the `open` attribute is the source of truth). */
  onOpenChange?: (open: boolean) => void;
}

const noop = () => undefined;

/**
 * The panel the element hosts once the chat is wanted: the connected chat, or the readable error
 * of a bad attribute (which the element itself has reported as a chat-widget-error).
 */
export function ChatPanel({ emit = noop, onOpenChange = noop, ...raw }: ChatPanelProps) {
  // Parsed again only when an attribute changes (raw is a new object on every render).
  const parsed = useMemo(() => parseAttributes(raw), Object.values(ATTRIBUTES).map((prop) => raw[prop]));
  const presentation: Presentation = { mode: parsed.mode, open: parsed.open, theme: parsed.theme };
  if (!parsed.ok) {
    return (
      <Frame {...presentation} setOpen={onOpenChange} title="Chat">
        <StatusView tone="error" title="This chat is not set up correctly." detail={parsed.error.message} />
      </Frame>
    );
  }
  return <ConnectedWidget config={parsed.config} presentation={presentation} emit={emit} setOpen={onOpenChange} />;
}
