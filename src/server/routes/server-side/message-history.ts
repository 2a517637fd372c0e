// `POST /messages/history` (queryMessageHistory), server-side as the provider has it: the kept
// versions of messages (store/message-history.ts), each what the message was before an edit,
// soft delete or undelete, with who made the change (`message_updated_by_id`) and when
// (`message_updated_at`). `filter` must name `message_id` ($eq or $in); it may also take
// `message_updated_by_id` (the SDK's `user_id`) and `message_updated_at` (the SDK's
// `created_at`). Sorted latest first unless `sort` says otherwise; paged by `limit` and the
// `next`/`prev` cursors it answers with.
import { Hono } from 'hono';
import type { APIResponse, Attachment, MessageHistoryEntry, QueryMessageHistoryResponse } from 'stream-chat';
import type { AppEnv, ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { isObject } from '../../http/input';
import { cursors, pageOf } from '../../http/paging';
import { elapsed, readJson, requireServerSide, sendJson } from '../request';
import type { HistoryRow } from '../../store/message-history';

/** The provider's entry: the SDK's fields, and the custom data and deleted state the API adds. */
type HistoryEntry = MessageHistoryEntry & { custom: Record<string, unknown>; is_deleted: boolean };

const FIELDS = new Set(['message_id', 'message_updated_by_id', 'user_id', 'message_updated_at', 'created_at']);
const LOGICAL = new Set(['$and', '$or', '$nor']);

export function messageHistoryRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();

  routes.post('/messages/history', requireServerSide(ctx), async (c) => {
    const body = await readJson(c);
    const filter = body.filter;
    if (!isObject(filter) || filter.message_id === undefined) {
      throw ApiError.input('filter must name message_id: {"message_id": "<id>"} or {"message_id": {"$in": [...]}}');
    }
    checkFields(filter);
    const page = pageOf(body, { fallback: 10, max: 100 });
    const rows = ctx.store.messageHistory.query({ filter, sort: body.sort, ...page });
    return sendJson({
      message_history: rows.map(present),
      ...cursors(page, rows.length),
      duration: elapsed(c),
    } satisfies APIResponse & QueryMessageHistoryResponse & { message_history: HistoryEntry[] });
  });

  return routes;
}

/** Only the fields the provider filters history by, at any depth of $and/$or/$nor. */
function checkFields(filter: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(filter)) {
    if (LOGICAL.has(key)) {
      if (!Array.isArray(value)) throw ApiError.input(`${key} must be a non-empty array of filters`);
      for (const item of value) {
        if (!isObject(item)) throw ApiError.input(`${key} must be a non-empty array of filters`);
        checkFields(item);
      }
    } else if (!FIELDS.has(key)) {
      throw ApiError.input(`message history cannot be filtered by ${key}: use message_id, message_updated_by_id or message_updated_at`);
    }
  }
}

function present(row: HistoryRow): HistoryEntry {
  return {
    message_id: row.message_id,
    text: row.text,
    attachments: JSON.parse(row.attachments) as Attachment[],
    custom: JSON.parse(row.custom) as Record<string, unknown>,
    is_deleted: row.is_deleted === 1,
    ...(row.updated_by_id ? { message_updated_by_id: row.updated_by_id } : {}),
    message_updated_at: row.updated_at,
  };
}
