// Message search: `GET /search?payload={filter_conditions, query | message_filter_conditions,
// sort, limit, offset | next}` → `{results: [{message}], next?, previous?}` (stream-chat
// client.search; MessageSearchSource pages it with `next`). The channel filter is the one
// queryChannels understands, narrowed to the channels the user may read, so a filter naming
// someone else's channel finds nothing rather than saying the channel exists.
import { Hono } from 'hono';
import type { ChannelResponse, SearchAPIResponse } from 'stream-chat';
import { actorFor } from '../auth/actor';
import { accessTo, openTypesFor } from '../auth/channel-access';
import { presentChannel } from '../present/channel';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readPayload, requireAuth, sendJson } from './request';
import { isObject } from '../http/input';
import { Presenter } from '../present/presenter';
import { messageCondition, searchOrder } from '../features/search/message-filter';
import { searchCursors, searchPage } from '../features/search/search-page';

/** A search covers at most this many channels: the most recently active its filter matches. */
const MAX_SEARCH_CHANNELS = 1000;

export function searchRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();

  routes.get('/search', requireAuth(ctx), (c) => {
    const payload = readPayload(c);
    if (!isObject(payload.filter_conditions)) throw ApiError.input('filter_conditions is required and must be an object');
    const actor = actorFor(ctx.store, c.get('subject'));
    // Everything is validated before anything is read: bad input is code 4 even when no
    // channel matches.
    const condition = messageCondition(payload.query, payload.message_filter_conditions);
    const order = searchOrder(payload.sort, condition.match !== undefined);
    const page = searchPage(payload);
    const channels = ctx.store.channels
      .query({
        filter: payload.filter_conditions,
        sort: undefined,
        limit: MAX_SEARCH_CHANNELS,
        offset: 0,
        viewerId: actor.server ? null : (actor.id ?? ''),
        openTypes: openTypesFor(ctx, actor),
      })
      // A channel type with search turned off is never searched.
      .filter((row) => ctx.store.channelTypes.get(row.type)?.config.search === true);
    const after = order.bySeq !== undefined && page.afterSeq !== undefined ? { seq: page.afterSeq, direction: order.bySeq } : undefined;
    const rows = condition.matchesNothing
      ? []
      : ctx.store.search.messages({
          cids: channels.map((channel) => channel.cid),
          ...(condition.match !== undefined ? { match: condition.match } : {}),
          where: condition.where,
          order: order.sql,
          ...(after ? { afterSeq: after } : {}),
          // One more than asked: whether it exists says whether there is a next page.
          limit: page.limit + 1,
          offset: after ? 0 : page.offset,
          viewerId: actor.anonymous ? '' : actor.id,
        });
    const shown = rows.slice(0, page.limit);
    const presenter = new Presenter(ctx).forViewer(actor.id);
    // Each hit carries its channel, as the provider's search does: the UI names it from there.
    const found = new Set(shown.map((row) => row.cid));
    const presented = new Map<string, ChannelResponse>();
    for (const channel of channels) {
      if (found.has(channel.cid)) presented.set(channel.cid, presentChannel(presenter, channel, accessTo(ctx, channel, actor)));
    }
    const results = presenter.messages(shown).map((message) => {
      const channel = presented.get(message.cid ?? '');
      return { message: channel ? { ...message, channel } : message };
    });
    const response: SearchAPIResponse = { results, ...searchCursors(page, rows, order.bySeq !== undefined), duration: elapsed(c) };
    return sendJson(response);
  });

  return routes;
}
