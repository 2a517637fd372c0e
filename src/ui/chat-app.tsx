import { useEffect, useMemo, useRef, useState } from 'react';
import { panelShown, parseAttributes, type RawAttributes, type Presentation } from '../element/attributes';
import type { Emit } from '../element/events';
import { visitorStorage } from '../session/visitor-storage';
import { Frame } from './frame';
import { Launcher } from './launcher';
import { loadedRuntime, loadRuntime, type Runtime } from './runtime-loader';
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

/** The chat's runtime, loaded the first time it is `wanted`; a failure to start is reported. */
function useRuntime(wanted: boolean, emit: Emit) {
  const [runtime, setRuntime] = useState<Runtime | undefined>(loadedRuntime);
  const [startFailure, setStartFailure] = useState<string | null>(null);
  useEffect(() => {
    if (!wanted || runtime) return;
    loadRuntime().then(setRuntime, (error: unknown) => {
      const message = `The chat could not start: ${error instanceof Error ? error.message : String(error)}`;
      setStartFailure(message);
      emit('chat-widget-error', { reason: 'connection-failed', message });
    });
  }, [wanted, runtime]);
  return { runtime, startFailure };
}

/** The component r2wc mounts: attributes in, a validated configuration or a readable error out. */
export function ChatApp({ emit = noop, onOpenChange = noop, ...raw }: ChatAppProps) {
  const { apiKey, tokenEndpoint, channel, baseUrl, mode, open, theme, userName, drafts, launcher, position } = raw;
  const parsed = useMemo(
    () => parseAttributes({ apiKey, tokenEndpoint, channel, baseUrl, mode, open, theme, userName, drafts, launcher, position }),
    [apiKey, tokenEndpoint, channel, baseUrl, mode, open, theme, userName, drafts, launcher, position],
  );
  const configError = parsed.ok ? null : parsed.error;
  useOpenEvents(parsed.open && parsed.mode === 'bubble', emit);
  useEffect(() => {
    if (configError) emit('chat-widget-error', { ...configError });
  }, [configError?.reason, configError?.message, emit]);

  // Until the chat is wanted (the panel open or inline, or a browser that chatted here before and
  // shows its unread count) the bubble is only its launcher: no client is made and no chat code
  // runs, which a first-time visitor who never opens it would pay for on every page.
  const returning = useMemo(() => parsed.ok && visitorStorage.hadSession(parsed.config.apiKey), [parsed.ok && parsed.config.apiKey]);
  // Once woken it stays: closing the panel keeps the connection and what is being typed.
  const woken = useRef(false);
  woken.current ||= parsed.ok && (panelShown(parsed) || returning);
  const live = woken.current;
  const { runtime, startFailure } = useRuntime(live, emit);
  const [unread, setUnread] = useState(0);

  const presentation: Presentation = { mode: parsed.mode, open: parsed.open, theme: parsed.theme };
  return (
    <div className="widget" data-mode={parsed.mode} data-theme={parsed.theme} data-position={parsed.position}>
      {!parsed.ok ? (
        <Frame {...presentation} setOpen={onOpenChange} title="Chat">
          <StatusView tone="error" title="This chat is not set up correctly." detail={parsed.error.message} />
        </Frame>
      ) : !live ? null : runtime ? (
        <runtime.ConnectedWidget
          config={parsed.config}
          presentation={presentation}
          connectAtOnce={returning}
          emit={emit}
          setOpen={onOpenChange}
          onUnread={setUnread}
        />
      ) : (
        <Frame {...presentation} setOpen={onOpenChange} title="Chat">
          {startFailure ? <StatusView tone="error" title="Chat is unavailable right now." detail={startFailure} /> : <StatusView tone="info" title="Connecting…" />}
        </Frame>
      )}
      {/* Outside the panel's tree, so waking the chat does not replace the button a keyboard user is on. */}
      {parsed.mode === 'bubble' && parsed.launcher === 'bubble' && <Launcher open={parsed.open} unread={parsed.ok ? unread : 0} onToggle={() => onOpenChange(!parsed.open)} />}
    </div>
  );
}
