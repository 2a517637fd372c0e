// Each member's own marks and custom fields: the per-member partial update
// `PATCH …/member/{user_id}` or `PATCH …/member?user_id=` with `{set, unset}`. `pinned` and
// `archived` (channel.pin/archive) stamp pinned_at / archived_at for that member only; any other
// key that is not one of the member's own fields is custom data shown on the member object. Who is
// in a channel changes through `POST /channels/{type}/{id}` (routes/channel-admin.ts).
import { Hono, type Context } from 'hono';
import type { PartialUpdateMemberAPIResponse } from 'stream-chat';
import { actorFor, requireUser } from '../auth/actor';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, requireAuth, sendJson } from './request';
import { objectField, optionalBoolean, type JsonObject } from '../http/input';
import { Presenter } from '../present/presenter';
import { notifyMemberUpdated } from '../events/member-events';
import { existingChannel } from './channels';

const MEMBER_MARKS = new Set(['pinned', 'archived']);
/** Fields of a member object the backend owns: never custom data. */
const MEMBER_FIELDS = new Set([
  'user_id', 'user', 'role', 'channel_role', 'is_moderator', 'status', 'invited', 'invite_accepted_at',
  'invite_rejected_at', 'banned', 'shadow_banned', 'ban_expires', 'notifications_muted', 'pinned_at',
  'archived_at', 'created_at', 'updated_at', 'deleted_at',
]);
/** A member's custom data, as for a channel's: at most 5KB of JSON. */
const MAX_CUSTOM_BYTES = 5 * 1024;

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
    if (body.unset !== undefined && (!Array.isArray(body.unset) || body.unset.some((key) => typeof key !== 'string'))) {
      throw ApiError.input('unset must be a list of field names');
    }
    const unset = (body.unset ?? []) as string[];
    for (const key of [...Object.keys(set), ...unset]) {
      if (MEMBER_FIELDS.has(key)) throw ApiError.input(`member field ${key} cannot be updated here: it is set by the backend`);
    }
    const current = ctx.store.channels.member(channel.cid, memberId);
    if (!current) throw ApiError.notFound(`${memberId} is not a member of ${channel.cid}`);
    const now = new Date().toISOString();
    const mark = (key: string) => {
      const value = unset.includes(key) ? false : optionalBoolean(set[key], `set.${key}`);
      return value === undefined ? undefined : value ? now : null;
    };
    const customKeys = [...Object.keys(set), ...unset].filter((key) => !MEMBER_MARKS.has(key));
    const custom = customKeys.length ? customAfter(JSON.parse(current.custom) as JsonObject, set, unset) : undefined;
    const row = ctx.store.memberships.mark(channel.cid, memberId, { pinnedAt: mark('pinned'), archivedAt: mark('archived'), custom }, now);
    if (!row) throw ApiError.notFound(`${memberId} is not a member of ${channel.cid}`);
    notifyMemberUpdated(ctx, channel, row);
    const response: PartialUpdateMemberAPIResponse = { channel_member: new Presenter(ctx).member(row), duration: elapsed(c) };
    return sendJson(response);
  };
  routes.patch('/channels/:type/:id/member/:user_id', auth, (c) => updateMember(c, c.req.param('user_id')));
  routes.patch('/channels/:type/:id/member', auth, (c) => updateMember(c, c.req.queries('user_id')?.[0]));

  return routes;
}

/** The member's custom fields after `set` (applied first) and `unset`, checked for size. */
function customAfter(current: JsonObject, set: JsonObject, unset: string[]): JsonObject {
  const next: JsonObject = { ...current };
  for (const [key, value] of Object.entries(set)) if (!MEMBER_MARKS.has(key)) next[key] = value;
  for (const key of unset) delete next[key];
  if (Buffer.byteLength(JSON.stringify(next)) > MAX_CUSTOM_BYTES) throw ApiError.input('custom member data is larger than 5KB');
  return next;
}
