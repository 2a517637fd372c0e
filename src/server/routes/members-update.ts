// Each member's own marks: the per-member partial update `PATCH …/member/{user_id}` or
// `PATCH …/member?user_id=` with `{set: {pinned, archived}}` (channel.pin/archive), which stamps
// pinned_at / archived_at for that member only. Who is in a channel changes through
// `POST /channels/{type}/{id}` (routes/channel-admin.ts).
import { Hono, type Context } from 'hono';
import type { PartialUpdateMemberAPIResponse } from 'stream-chat';
import { actorFor, requireUser } from '../auth/actor';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, requireAuth, sendJson } from './request';
import { objectField, optionalBoolean } from '../http/input';
import { Presenter } from '../present/presenter';
import { notifyMemberUpdated } from '../events/member-events';
import { existingChannel } from './channels';

const MEMBER_MARKS = new Set(['pinned', 'archived']);

export function memberUpdateRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);

  const updateMember = async (c: Context<AppEnv>, userId: string | undefined) => {
    const body = await readJson(c);
    const actor = requireUser(actorFor(ctx.store, c.get('subject'), userId), 'update channel members');
    const memberId = userId ?? actor.id;
    // A member's pinned/archived marks are theirs alone; server-side calls may set anyone's.
    if (memberId !== actor.id && !actor.server) throw ApiError.notAllowed(`only ${memberId} can update their own membership`);
    const channel = existingChannel(ctx, c.req.param('type') ?? '', c.req.param('id') ?? '');
    const set = objectField(body.set, 'set');
    const unset = Array.isArray(body.unset) ? body.unset : [];
    for (const key of [...Object.keys(set), ...unset]) {
      if (typeof key !== 'string' || !MEMBER_MARKS.has(key)) {
        throw ApiError.input(`member field ${String(key)} cannot be updated here: only pinned and archived`);
      }
    }
    const now = new Date().toISOString();
    const mark = (key: string) => {
      const value = unset.includes(key) ? false : optionalBoolean(set[key], `set.${key}`);
      return value === undefined ? undefined : value ? now : null;
    };
    const row = ctx.store.memberships.mark(channel.cid, memberId, { pinnedAt: mark('pinned'), archivedAt: mark('archived') }, now);
    if (!row) throw ApiError.notFound(`${memberId} is not a member of ${channel.cid}`);
    notifyMemberUpdated(ctx, channel, row);
    const response: PartialUpdateMemberAPIResponse = { channel_member: new Presenter(ctx).member(row), duration: elapsed(c) };
    return sendJson(response);
  };
  routes.patch('/channels/:type/:id/member/:user_id', auth, (c) => updateMember(c, c.req.param('user_id')));
  routes.patch('/channels/:type/:id/member', auth, (c) => updateMember(c, c.req.queries('user_id')?.[0]));

  return routes;
}
