// Unread counts without a connection: `GET /unread` (getUnreadCount: the caller's, or the named
// user's server-side) and the server-side `POST /unread_batch` (getUnreadCountBatch, up to 100
// users). Per channel, per channel type and per thread, from the same counters as `me`.
import { Hono } from 'hono';
import type { APIResponse, GetUnreadCountAPIResponse } from 'stream-chat';
import { subjectUser } from '../features/push/devices';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, requireAuth, requireServerSide, sendJson } from './request';

const MAX_BATCH = 100;

type UnreadCounts = Omit<GetUnreadCountAPIResponse, 'duration'>;

export function unreadCounts(ctx: ServerContext, userId: string): UnreadCounts {
  const { unreadCounts: counts, threads } = ctx.store;
  const channels = counts.channels(userId);
  return {
    total_unread_count: channels.reduce((sum, row) => sum + row.unread_messages, 0),
    total_unread_threads_count: threads.unreadCount(userId),
    // The provider names a channel here by its cid.
    channels: channels.map((row) => ({ channel_id: row.cid, last_read: row.last_read, unread_count: row.unread_messages })),
    channel_type: counts.byType(userId).map((row) => ({ channel_type: row.type, channel_count: row.channels, unread_count: row.unread })),
    threads: counts.threads(userId).map((row) => ({
      parent_message_id: row.parent_id,
      last_read: row.last_read_at,
      last_read_message_id: row.last_read_message_id ?? '',
      unread_count: row.unread_messages,
    })),
  };
}

export function unreadRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();

  routes.get('/unread', requireAuth(ctx), (c) => {
    const userId = subjectUser(ctx, c, c.req.query('user_id'), 'read unread counts');
    return sendJson({ ...unreadCounts(ctx, userId), duration: elapsed(c) } satisfies GetUnreadCountAPIResponse);
  });

  routes.post('/unread_batch', requireServerSide(ctx), async (c) => {
    const body = await readJson(c);
    const ids = body.user_ids;
    if (!Array.isArray(ids) || !ids.length || ids.length > MAX_BATCH || !ids.every((id) => typeof id === 'string' && id)) {
      throw ApiError.input(`user_ids must be a list of 1 to ${MAX_BATCH} user ids`);
    }
    const users = ctx.store.users.getMany(ids as string[]);
    // The SDK's type gives each user's counts a `duration`; the provider's answer has one for the call.
    const countsByUser: Record<string, UnreadCounts> = {};
    for (const id of users.keys()) countsByUser[id] = unreadCounts(ctx, id);
    return sendJson({ counts_by_user: countsByUser, duration: elapsed(c) } satisfies APIResponse & { counts_by_user: Record<string, UnreadCounts> });
  });

  return routes;
}
