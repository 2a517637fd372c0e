// "Translate" on someone else's message, offered only when the backend has a translator (the
// app's `auto_translation_enabled`): the backend adds `i18n.<language>_text` to the message,
// and the `message.updated` event brings it to every reader's state.
import { useEffect, useState } from 'react';
import type { LocalMessage, StreamChat } from 'stream-chat';
import { useChatClient } from '../common/chat-client';
import { useLocalization } from '../common/localization';
import { AFTER_CONNECT_IDLE_MS, whenIdle } from '../../browser/when-idle';

const translators = new WeakMap<StreamChat, Promise<boolean>>();

/** The app's settings, asked for once the page is idle: the first messages paint before the request goes. */
function appSettings(client: StreamChat) {
  if (client.appSettingsPromise) return client.appSettingsPromise;
  const idle = new Promise<void>((resolve) => whenIdle(resolve, AFTER_CONNECT_IDLE_MS));
  return idle.then(() => client.appSettingsPromise ?? client.getAppSettings());
}

/** Whether the app translates messages, asked once per client. */
function hasTranslator(client: StreamChat): Promise<boolean> {
  let known = translators.get(client);
  if (!known) {
    known = appSettings(client)
      .then((settings) => Boolean(settings?.app?.auto_translation_enabled))
      .catch(() => false);
    translators.set(client, known);
  }
  return known;
}

/** The language messages are translated into for this visitor (the panel's), or null when the backend cannot. */
export function useTranslationLanguage(): string | null {
  const client = useChatClient();
  const { locale } = useLocalization();
  const [enabled, setEnabled] = useState(false);
  useEffect(() => {
    let current = true;
    if (client) void hasTranslator(client).then((yes) => current && setEnabled(yes));
    return () => {
      current = false;
    };
  }, [client]);
  return enabled ? locale.split('-')[0]! : null;
}

/** The message's text in `language`, when the backend has translated it. */
export function translatedText(message: LocalMessage, language: string | null): string | null {
  if (!language) return null;
  const i18n = message.i18n as Record<string, string> | undefined;
  const translated = i18n?.[`${language}_text`];
  return translated && i18n?.language !== language ? translated : null;
}
