// Sending messages: `POST /channels/{type}/{id}/message` (the work is features/messages/send-message.ts),
// and a message's actions, `POST /messages/{id}/action` (a /giphy preview's: features/commands/giphy-actions.ts).
import { Hono } from 'hono';
import type { SendMessageAPIResponse } from 'stream-chat';
import { actorFor, requireUser } from '../auth/actor';
import { sendMessage } from '../features/messages/send-message';
import { runMessageAction } from '../features/commands/giphy-actions';
import { lookUpGiphy } from '../features/commands/giphy-previews';
import { pendingOption } from '../features/messages/pending-messages';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { isObject, namedUserId, optionalBoolean } from '../http/input';
import { elapsed, readJson, requireAuth, sendJson } from './request';
import { existingChannel } from './channels';

export function messageRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();

  routes.post('/channels/:type/:id/message', requireAuth(ctx), async (c) => {
    const body = await readJson(c);
    if (!isObject(body.message)) throw ApiError.input('message is a required field');
    const input = body.message;
    const actor = requireUser(actorFor(ctx.store, c.get('subject'), namedUserId(input)), 'send messages');
    const skipPush = optionalBoolean(body.skip_push, 'skip_push') ?? false;
    // Server-side `pending: true`: stored, delivered on commit (features/messages/pending-messages.ts).
    const pending = pendingOption(body, c.get('subject'));
    const row = existingChannel(ctx, c.req.param('type'), c.req.param('id'));
    // The send path is synchronous: a /giphy's search is done first and handed in with the input.
    await lookUpGiphy(ctx, row, actor, input);
    const message = sendMessage(ctx, row, actor, input, { skipPush, ...(pending ? { pending } : {}) });
    const response: SendMessageAPIResponse = {
      message,
      ...(pending?.metadata ? { pending_message_metadata: pending.metadata } : {}),
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  // The SDK's channel.sendAction: `{message_id, form_data: {image_action}, id, type}`.
  routes.post('/messages/:id/action', requireAuth(ctx), async (c) => {
    const body = await readJson(c);
    const actor = requireUser(actorFor(ctx.store, c.get('subject'), namedUserId(body)), 'run message actions');
    const message = await runMessageAction(ctx, actor, c.req.param('id'), body);
    return sendJson({ ...(message ? { message } : {}), duration: elapsed(c) });
  });

  return routes;
}
