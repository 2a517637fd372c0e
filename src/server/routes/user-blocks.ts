// Blocking users: `POST /users/block`, `POST /users/unblock` and `GET /users/block`
// (blockUser, unBlockUser, getBlockedUsers). Users block for themselves (permission block-user);
// a server-side call names the blocker in `user_id`. The SDK keeps its blocked list from these
// responses and from `me.blocked_user_ids`, so no event is raised. What a block does is enforced
// where messages are read and delivered (store/visibility.ts, events/message-audience.ts) and
// where direct messages are sent.
import { Hono, type Context } from 'hono';
import type { APIResponse, BlockedUserDetails, BlockUserAPIResponse } from 'stream-chat';
import { actorFor, requireUser, type UserActor } from '../auth/actor';
import { assertAppPermission, assertMayTarget } from '../auth/policy';
import { appSettings } from '../infra/app-settings';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { namedUserId, requiredString, type JsonObject } from '../http/input';
import { elapsed, readJson, requireAuth, sendJson } from './request';
import { Presenter } from '../present/presenter';

/** The provider's block list entry; the SDK's type adds a `duration` no entry carries. */
type BlockEntry = Omit<BlockedUserDetails, 'duration'>;

export function userBlockRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);
  const blocker = (c: Context<AppEnv>, source: JsonObject, action: string): UserActor => {
    const actor = requireUser(actorFor(ctx.store, c.get('subject'), namedUserId(source)), action);
    assertAppPermission(actor, appSettings(ctx), 'block-user');
    return actor;
  };

  routes.post('/users/block', auth, async (c) => {
    const body = await readJson(c);
    const actor = blocker(c, body, 'block users');
    const blockedId = requiredString(body.blocked_user_id, 'blocked_user_id');
    assertMayTarget(actor, 'block-user', blockedId);
    if (!ctx.store.users.get(blockedId)) throw ApiError.input(`user ${blockedId} does not exist`);
    const row = ctx.store.blocks.block(actor.id, blockedId, new Date().toISOString());
    // The SDK's type names the date blocked_at; the provider's API calls it created_at: send both.
    const response: BlockUserAPIResponse & { created_at: string } = {
      blocked_by_user_id: row.user_id,
      blocked_user_id: row.blocked_user_id,
      blocked_at: row.created_at,
      created_at: row.created_at,
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  routes.post('/users/unblock', auth, async (c) => {
    const body = await readJson(c);
    const actor = blocker(c, body, 'unblock users');
    ctx.store.blocks.unblock(actor.id, requiredString(body.blocked_user_id, 'blocked_user_id'));
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  routes.get('/users/block', auth, (c) => {
    const actor = blocker(c, { user_id: c.req.query('user_id') }, 'list blocked users');
    const presenter = new Presenter(ctx);
    const rows = ctx.store.blocks.blockedBy(actor.id);
    presenter.preloadUsers([actor.id, ...rows.map((row) => row.blocked_user_id)]);
    const blocks: BlockEntry[] = rows.map((row) => ({
      user_id: row.user_id,
      user: presenter.user(row.user_id),
      blocked_user_id: row.blocked_user_id,
      blocked_user: presenter.user(row.blocked_user_id),
      created_at: row.created_at,
    }));
    return sendJson({ blocks, duration: elapsed(c) } satisfies APIResponse & { blocks: BlockEntry[] });
  });

  return routes;
}
