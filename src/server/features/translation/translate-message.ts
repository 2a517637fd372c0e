// Translating a message (`POST /messages/{id}/translate`) and free text (`POST /translate`)
// through the configured translation service. A message's translations are the provider's
// `i18n`: one `<lang>_text` per language (the original's too) and `language`, the language it was
// written in: the author's `language` when they have one, else what the service detected
// ('und', undetermined, when it says nothing). A language already translated is answered from
// what is stored; a new one is stored and announced as one message.updated, which the sockets,
// webhooks, push and the sync log all read. An edit of the text drops the translations
// (routes/message-edits.ts), since they no longer say what the message says.
import type { MessageResponse } from 'stream-chat';
import type { Actor } from '../../auth/actor';
import type { MessageTarget } from '../../auth/message-access';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { publishMessageEvent } from '../../events/message-events';
import { Presenter } from '../../present/presenter';
import type { Translations } from '../../store/message-translations';
import { translate, type TranslatorSettings } from './translator';

/** A language code as the provider lists them: `fr`, `pt`, `zh-TW`, `es-MX`, `fa-AF`. */
const LANGUAGE = /^[a-z]{2,3}(-[A-Za-z]{2,4})?$/;

export function languageCode(value: unknown, name: string): string {
  if (typeof value !== 'string' || !value) throw ApiError.input(`${name} is a required field`);
  if (!LANGUAGE.test(value)) throw ApiError.input(`${name} must be a language code such as "fr" or "zh-TW"`);
  return value;
}

/** The configured service, or the provider's refusal (400, code 4) when there is none. */
export function translator(ctx: ServerContext): TranslatorSettings {
  const settings = ctx.config.translation;
  if (!settings) {
    throw ApiError.input('translation is not configured on this backend: start it with --translation-url (TRANSLATION_URL), a LibreTranslate-compatible service');
  }
  return settings;
}

export async function translateMessage(ctx: ServerContext, target: MessageTarget, actor: Actor, language: string): Promise<MessageResponse> {
  const settings = translator(ctx);
  const { message: row, channel } = target;
  if (row.deleted_at) throw ApiError.input(`message ${row.id} was deleted and cannot be translated`);
  if (!row.text.trim()) throw ApiError.input(`message ${row.id} has no text to translate`);
  const stored = ctx.store.messageTranslations.of(row);
  if (stored[`${language}_text`] !== undefined) return presentFor(ctx, actor, row);

  const authorLanguage = authorLanguageOf(ctx, row.user_id);
  const source = authorLanguage ?? (stored.language && stored.language !== 'und' ? stored.language : undefined);
  const translated =
    source === language ? { text: row.text } : await translate(settings, { text: row.text, source: source ?? 'auto', target: language });
  const original = source ?? translated.detectedLanguage ?? 'und';

  // The service took its time: the message may have changed or gone meanwhile.
  const current = ctx.store.messages.get(row.id);
  if (!current || current.deleted_at || current.text !== row.text) {
    throw ApiError.input(`message ${row.id} changed while it was being translated; translate it again`);
  }
  const i18n: Translations = {
    ...ctx.store.messageTranslations.of(current),
    [`${language}_text`]: translated.text,
    // The original's own text, which wins if the service was asked for the language it is in.
    ...(original !== 'und' ? { [`${original}_text`]: current.text } : {}),
    language: original,
  };
  const updated = ctx.store.messageTranslations.set(row.id, i18n) ?? current;
  return publishMessageEvent(ctx, channel, 'message.updated', updated, actor.id);
}

/** The user's `language` (a custom field the provider reads for translation), if it is a code. */
function authorLanguageOf(ctx: ServerContext, userId: string): string | undefined {
  const user = ctx.store.users.get(userId);
  if (!user) return undefined;
  const language = (JSON.parse(user.custom) as { language?: unknown }).language;
  return typeof language === 'string' && LANGUAGE.test(language) ? language : undefined;
}

function presentFor(ctx: ServerContext, actor: Actor, row: MessageTarget['message']): MessageResponse {
  const [message] = new Presenter(ctx, actor.id).messages([row]);
  if (!message) throw new Error(`message ${row.id} could not be presented`);
  return message;
}
