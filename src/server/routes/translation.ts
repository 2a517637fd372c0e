// Translation: `POST /messages/{id}/translate` {language} (translateMessage: the message with its
// `i18n`, stored and announced as message.updated) and `POST /translate` {text, source_language,
// destination_language} (translate: `{language, translated_text}`). Both go to the configured
// translation service (features/translation); without one they answer the provider's error JSON,
// code 4, saying so. Translating a message needs only to be able to read it.
import { Hono } from 'hono';
import type { APIResponse, MessageResponse, TranslateResponse } from 'stream-chat';
import { actorFor } from '../auth/actor';
import { messageInReach } from '../auth/message-access';
import { languageCode, translateMessage, translator } from '../features/translation/translate-message';
import { translate } from '../features/translation/translator';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { namedUserId, optionalString } from '../http/input';
import { elapsed, readJson, requireAuth, sendJson } from './request';

export function translationRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);

  routes.post('/messages/:id/translate', auth, async (c) => {
    translator(ctx);
    const body = await readJson(c);
    const language = languageCode(body.language, 'language');
    const actor = actorFor(ctx.store, c.get('subject'), namedUserId(body));
    const target = messageInReach(ctx, c.req.param('id'), actor);
    const message = await translateMessage(ctx, target, actor, language);
    return sendJson({ message, duration: elapsed(c) } satisfies APIResponse & { message: MessageResponse });
  });

  routes.post('/translate', auth, async (c) => {
    const settings = translator(ctx);
    const body = await readJson(c);
    // Free text costs the operator's service with no message to read: signed-in users and the server only.
    if (c.get('subject').kind === 'anonymous') throw ApiError.notAllowed('anonymous users are not allowed to translate text');
    const text = optionalString(body.text, 'text') ?? '';
    if (!text.trim()) throw ApiError.input('text is a required field');
    const destination = languageCode(body.destination_language, 'destination_language');
    const source = body.source_language === undefined || body.source_language === null || body.source_language === ''
      ? 'auto'
      : languageCode(body.source_language, 'source_language');
    const translated = source === destination ? { text } : await translate(settings, { text, source, target: destination });
    return sendJson({ language: destination, translated_text: translated.text, duration: elapsed(c) } satisfies APIResponse & TranslateResponse);
  });

  return routes;
}
