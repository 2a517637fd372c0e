// Changing who is in a channel and each member's own marks: `POST /channels/{type}/{id}` with
// add_members / remove_members (channel.addMembers / removeMembers; needs update-channel-members,
// except that a member may remove themselves with leave-channel), and the per-member partial
// update `PATCH …/member/{user_id}` or `PATCH …/member?user_id=` with `{set: {pinned, archived}}`
// (channel.pin/archive), which stamps pinned_at / archived_at for that member only.
import { Hono, type Context } from 'hono';
import type { PartialUpdateMemberAPIResponse, UpdateChannelAPIResponse } from 'stream-chat';
import { actorFor, requireUser } from '../auth/actor';
import { accessTo, assertCanRead, assertCapability } from '../auth/channel-access';
import { presentChannel } from '../present/channel';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, requireAuth, sendJson } from '../http/request';
import { idList, namedUserId, objectField, optionalBoolean } from '../http/input';
import { Presenter } from '../present/presenter';
import { notifyMemberUpdated, notifyMembersAdded, notifyMembersRemoved } from '../realtime/member-events';
import type { ChannelRow, MemberRow } from '../store/channels';
import { existingChannel } from './channels';

/** Keys of a channel update this backend understands; anything else is refused, not ignored. */
const UPDATE_KEYS = new Set(['add_members', 'remove_members', 'hide_history', 'skip_push', 'user_id', 'user']);
const MEMBER_MARKS = new Set(['pinned', 'archived']);

export function memberUpdateRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);

  routes.post('/channels/:type/:id', auth, async (c) => {
    const body = await readJson(c);
    const unsupported = Object.keys(body).filter((key) => !UPDATE_KEYS.has(key));
    if (unsupported.length) throw ApiError.input(`channel update with ${unsupported.join(', ')} is not supported by this backend`);
    const actor = actorFor(ctx.store, c.get('subject'), namedUserId(body));
    let channel = existingChannel(ctx, c.req.param('type'), c.req.param('id'));
    const access = accessTo(ctx, channel, actor);
    assertCanRead(channel, actor, access);
    const adding = [...new Set(idList(body.add_members, 'add_members'))];
    const removing = [...new Set(idList(body.remove_members, 'remove_members'))];
    if (!adding.length && !removing.length) throw ApiError.input('add_members or remove_members is required');
    const leavingOnly = adding.length === 0 && removing.length === 1 && removing[0] === actor.id;
    assertCapability(channel, actor, access, leavingOnly ? 'leave-channel' : 'update-channel-members');
    const unknown = adding.filter((id) => !ctx.store.users.get(id));
    if (unknown.length) throw ApiError.input(`The following users don't exist: [${unknown.join(', ')}]`);

    const { added, removed } = changeMembers(ctx, channel, adding, removing);
    channel = ctx.store.channels.get(channel.cid) ?? channel;
    if (added.length) notifyMembersAdded(ctx, channel, added);
    if (removed.length) notifyMembersRemoved(ctx, channel, removed);

    const presenter = new Presenter(ctx);
    const memberRows = ctx.store.channels.members(channel.cid, 100, 0);
    presenter.preloadUsers(memberRows.map((m) => m.user_id));
    const response: UpdateChannelAPIResponse = {
      channel: presentChannel(presenter, channel, accessTo(ctx, channel, actor)),
      members: memberRows.map((m) => presenter.member(m)),
      duration: elapsed(c),
    };
    return sendJson(response);
  });

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

function changeMembers(ctx: ServerContext, channel: ChannelRow, adding: string[], removing: string[]) {
  const { store } = ctx;
  const now = new Date().toISOString();
  return store.transaction(() => {
    const removedRows = removing.flatMap((id) => store.channels.member(channel.cid, id) ?? []);
    store.memberships.remove(channel.cid, removing);
    const addedIds = store.channels.addMembers(channel.cid, adding, 'member', now);
    // New members start with everything so far read, like members added at creation.
    store.reads.start(channel.cid, addedIds, now);
    const added = addedIds.flatMap((id) => store.channels.member(channel.cid, id) ?? []);
    return { added, removed: removedRows.filter((row) => !addedIds.includes(row.user_id)) as MemberRow[] };
  });
}

