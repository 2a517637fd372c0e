// Request options shared by the channel endpoints: message pagination (the SDK's
// MessagePaginationOptions), member and watcher pages, and the connection a `watch` subscribes.
import type { Context } from 'hono';
import type { Actor } from '../auth/actor';
import type { StateOptions } from '../present/channel-state';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { boundedInt, objectField, optionalString, type JsonObject } from '../http/input';
import type { Connection } from '../realtime/registry';
import type { PageOptions } from '../store/messages';

const MAX_PAGE = 300;
const MAX_OFFSET = 1_000_000;
const ID_CURSORS = ['id_lt', 'id_lte', 'id_gt', 'id_gte', 'id_around'] as const;
const TIME_CURSORS = [
  'created_at_before',
  'created_at_before_or_equal',
  'created_at_after',
  'created_at_after_or_equal',
  'created_at_around',
] as const;

export function pageOptions(value: unknown, name: string, fallbackLimit: number): PageOptions {
  const input = objectField(value, name);
  const options: PageOptions = {
    limit: boundedInt(input.limit, `${name}.limit`, { fallback: fallbackLimit, max: MAX_PAGE }),
    offset: boundedInt(input.offset, `${name}.offset`, { fallback: 0, max: MAX_OFFSET }),
  };
  for (const key of ID_CURSORS) {
    const id = optionalString(input[key], `${name}.${key}`);
    if (id) options[key] = id;
  }
  for (const key of TIME_CURSORS) {
    const at = optionalString(input[key], `${name}.${key}`);
    if (!at) continue;
    const date = new Date(at);
    if (Number.isNaN(date.getTime())) throw ApiError.input(`${name}.${key} must be a date`);
    options[key] = date.toISOString();
  }
  return options;
}

function listPage(value: unknown, name: string, fallbackLimit: number) {
  const input = objectField(value, name);
  return {
    limit: boundedInt(input.limit, `${name}.limit`, { fallback: fallbackLimit, max: MAX_PAGE }),
    offset: boundedInt(input.offset, `${name}.offset`, { fallback: 0, max: MAX_OFFSET }),
  };
}

/**
 * Options of `POST /channels/{type}/{id}/query`. Without a message limit the page holds 100
 * messages: the SDK assumes exactly that (DEFAULT_QUERY_CHANNEL_MESSAGE_LIST_PAGE_SIZE) when it
 * decides whether older messages exist, so a smaller default would hide them.
 */
export function channelQueryOptions(body: JsonObject): StateOptions {
  return {
    state: body.state !== false,
    messages: pageOptions(body.messages, 'messages', 100),
    members: listPage(body.members, 'members', 100),
    watchers: listPage(body.watchers, 'watchers', 100),
  };
}

/** Options of `POST /channels` (queryChannels), which sizes every channel's lists at once. */
export function queryChannelsOptions(body: JsonObject): StateOptions {
  const memberLimit = boundedInt(body.member_limit, 'member_limit', { fallback: 100, max: 100 });
  return {
    state: body.state !== false,
    messages: { limit: boundedInt(body.message_limit, 'message_limit', { fallback: 25, max: MAX_PAGE }) },
    members: { limit: memberLimit, offset: 0 },
    watchers: { limit: memberLimit, offset: 0 },
  };
}

/**
 * The actor's socket named by the `connection_id` query parameter, which `watch: true`
 * subscribes. Another user's connection, or one that has since closed, subscribes nothing.
 */
export function watchingConnection(c: Context<AppEnv>, ctx: ServerContext, actor: Actor): Connection | undefined {
  const id = c.req.query('connection_id');
  const connection = id ? ctx.hub.registry.get(id) : undefined;
  return connection && connection.userId === actor.id ? connection : undefined;
}
