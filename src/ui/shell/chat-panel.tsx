import { useEffect, useMemo } from 'react';
import { ATTRIBUTES, parseAttributes, type RawAttributes, type Presentation } from '../../contract/attributes';
import type { Emit } from '../../contract/events';
import type { ElementWords } from '../../contract/runtime';
import { ConnectedWidget } from './connected-widget';
import { Frame } from './frame';
import { LocalizationProvider, useLocalizationFor } from '../common/localization';
import { parseNotify } from '../../contract/attributes';
import { StatusView } from '../common/status-view';

export interface ChatPanelProps extends Omit<RawAttributes, 'translations'> {
  /** The `translations` attribute (a URL), or the strings themselves set as the property. */
  translations?: string | Record<string, unknown>;
  /** Dispatches the element's DOM events; the UI calls nothing else of the host. */
  emit?: Emit;
  /** Asks the element to open or close the panel (the `open` attribute is the source of truth). */
  onOpenChange?: (open: boolean) => void;
  /** Gives the element its own words (the launcher's label, its placeholders) in the visitor's language. */
  onWords?: (words: ElementWords) => void;
}

const noop = () => undefined;

/**
 * The panel the element hosts once the chat is wanted: the connected chat, or the readable error
 * of a bad attribute (which the element itself has reported as a chat-widget-error).
 */
export function ChatPanel({ emit = noop, onOpenChange = noop, onWords = noop, translations, ...raw }: ChatPanelProps) {
  // Parsed again only when an attribute changes (raw is a new object on every render).
  const parsed = useMemo(() => parseAttributes(raw), Object.values(ATTRIBUTES).map((prop) => raw[prop as keyof typeof raw]));
  const presentation: Presentation = { mode: parsed.mode, open: parsed.open, theme: parsed.theme };
  const localization = useLocalizationFor({
    locale: raw.locale,
    translations,
    onError: (message) => emit('chat-widget-error', { reason: 'invalid-translations', message }),
  });
  useEffect(() => {
    if (!localization) return;
    const { t } = localization;
    onWords({
      open: t('launcher.open'),
      close: t('launcher.close'),
      unread: (count) => t('launcher.unread', { count }),
      connecting: t('panel.connecting'),
      unavailable: t('panel.unavailable'),
      tryAgain: t('panel.tryAgain'),
      signIn: t('panel.signIn'),
      notSetUp: t('panel.notSetUp'),
    });
  }, [localization]);
  // The first words wait for the visitor's language (a moment, once per page): a spinner meanwhile.
  if (!localization) {
    return (
      <Frame {...presentation} setOpen={onOpenChange} title="Chat">
        <StatusView tone="info" title="" />
      </Frame>
    );
  }
  return (
    <LocalizationProvider value={localization}>
      {parsed.ok ? (
        <ConnectedWidget config={parsed.config} presentation={presentation} notify={parseNotify(raw.notify)} emit={emit} setOpen={onOpenChange} />
      ) : (
        <Frame {...presentation} setOpen={onOpenChange} title={localization.t('panel.chat')}>
          <StatusView tone="error" title={localization.t('panel.notSetUp')} detail={parsed.error.message} />
        </Frame>
      )}
    </LocalizationProvider>
  );
}
