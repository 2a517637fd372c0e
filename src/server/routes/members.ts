// queryMembers: `GET /members?payload={type, id | members, filter_conditions, sort, limit, offset}`.
import { Hono } from 'hono';
import type { ChannelMemberAPIResponse } from 'stream-chat';
import { actorFor } from '../auth/actor';
import { accessTo, assertCanRead } from '../auth/channel-access';
import type { AppEnv, ServerContext } from '../http/context';
import { elapsed, readPayload, requireAuth, sendJson } from './request';
import { boundedInt, idList, optionalString, requiredString } from '../http/input';
import { Presenter } from '../present/presenter';
import { distinctChannelId } from '../features/channels/create-channel';
import { existingChannel } from './channels';

export function memberRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();

  routes.get('/members', requireAuth(ctx), (c) => {
    const payload = readPayload(c);
    const actor = actorFor(ctx.store, c.get('subject'));
    const type = requiredString(payload.type, 'type');
    const id = optionalString(payload.id, 'id') ?? distinctChannelId(actor.id, idList(payload.members, 'members'));
    const row = existingChannel(ctx, type, id);
    assertCanRead(row, actor, accessTo(ctx, row, actor));
    const rows = ctx.store.channels.queryMembers({
      cid: row.cid,
      filter: payload.filter_conditions,
      sort: payload.sort,
      limit: boundedInt(payload.limit, 'limit', { fallback: 100, max: 300 }),
      offset: boundedInt(payload.offset, 'offset', { fallback: 0, max: 1_000_000 }),
    });
    const presenter = new Presenter(ctx);
    presenter.preloadUsers(rows.map((m) => m.user_id));
    const response: ChannelMemberAPIResponse = { members: rows.map((m) => presenter.member(m)), duration: elapsed(c) };
    return sendJson(response);
  });

  return routes;
}
