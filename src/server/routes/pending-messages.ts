// `POST /messages/{id}/commit` (commitMessage): a pending message becomes an ordinary one and
// reaches the channel as a send would (features/messages/pending-messages.ts). Sending pending
// is the send route's `pending` option; reading and hard deleting are the usual message routes.
import { Hono } from 'hono';
import type { APIResponse, MessageResponse } from 'stream-chat';
import { actorFor } from '../auth/actor';
import { messageInReach } from '../auth/message-access';
import { commitMessage } from '../features/messages/pending-messages';
import type { AppEnv, ServerContext } from '../http/context';
import { namedUserId } from '../http/input';
import { elapsed, readJson, requireAuth, sendJson } from './request';

export function pendingMessageRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();

  routes.post('/messages/:id/commit', requireAuth(ctx), async (c) => {
    const body = await readJson(c);
    const actor = actorFor(ctx.store, c.get('subject'), namedUserId(body));
    const target = messageInReach(ctx, c.req.param('id'), actor, { pending: true });
    const message = commitMessage(ctx, target, actor);
    return sendJson({ message, duration: elapsed(c) } satisfies APIResponse & { message: MessageResponse });
  });

  return routes;
}
