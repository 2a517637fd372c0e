// Reviewing what was flagged: `POST /moderation/flags` (_queryFlags), `GET /moderation/flags/message`
// (queryMessageFlags), `POST /moderation/reports` (_queryFlagReports), `PATCH /moderation/reports/{id}`
// (_reviewFlagReport), `POST /automod/v1/moderation/update_flags` (updateFlags: marks flagged
// messages reviewed) and `POST /moderation/unblock_message` (unblockMessage: publishes a message
// the blocklist held back). All are for server-side calls and users whose role may `read-flags`.
// A report's id is its message's id; its review keeps the reviewer's `review_details` and
// answers them back.
import { Hono, type Context } from 'hono';
import type {
  APIResponse,
  EventTypes,
  FlagReport,
  FlagReportsResponse,
  FlagsResponse,
  MessageFlagsResponse,
  ReviewFlagReportResponse,
} from 'stream-chat';
import { actorFor, type Actor } from '../auth/actor';
import { assertAppPermission } from '../auth/policy';
import { appSettings } from '../infra/app-settings';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { boundedInt, idList, isObject, namedUserId, objectField, optionalString, requiredString, type JsonObject } from '../http/input';
import { elapsed, readJson, readPayload, requireAuth, sendJson } from './request';
import { FlagPresenter } from '../present/flags';
import { Presenter } from '../present/presenter';
import { envelope, notifyMessageNew } from '../events/notify';
import type { FlagQuery, ReportRow } from '../store/flags';

export function moderationReviewRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);

  /** Who reviews: the user a server-side call names, or the calling user, who needs `read-flags`. */
  const reviewer = (c: Context<AppEnv>, named: string | undefined): Actor => {
    const actor = actorFor(ctx.store, c.get('subject'), named);
    assertAppPermission(actor, appSettings(ctx), 'read-flags');
    return actor;
  };

  routes.post('/moderation/flags', auth, async (c) => {
    const body = await readJson(c);
    reviewer(c, namedUserId(body));
    const entries = ctx.store.flags.query(queryOf(body));
    const flags = new FlagPresenter(ctx, messageIdsOf(entries));
    const response: FlagsResponse = { flags: entries.flatMap((entry) => flags.flag(entry) ?? []), duration: elapsed(c) };
    return sendJson(response);
  });

  routes.get('/moderation/flags/message', auth, (c) => {
    const payload = readPayload(c);
    const actor = reviewer(c, namedUserId(payload));
    const query = queryOf(payload);
    // The provider's rule: only its server side may leave out which channels to look in.
    if (!actor.server && !(isObject(query.filter) && Object.hasOwn(query.filter, 'channel_cid'))) {
      throw ApiError.input('filter_conditions.channel_cid is required unless the call is server-side');
    }
    const entries = ctx.store.flags.queryMessageFlags(query);
    const flags = new FlagPresenter(ctx, messageIdsOf(entries));
    const response: MessageFlagsResponse = { flags: entries.flatMap((entry) => flags.messageFlag(entry) ?? []), duration: elapsed(c) };
    return sendJson(response);
  });

  routes.post('/moderation/reports', auth, async (c) => {
    const body = await readJson(c);
    reviewer(c, namedUserId(body));
    const rows = ctx.store.flags.queryReports(queryOf(body));
    const reports = new FlagPresenter(ctx, rows.map((row) => row.id));
    const response: FlagReportsResponse = {
      flag_reports: rows.flatMap((row) => withDetails(reports.report(row), row) ?? []),
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  routes.patch('/moderation/reports/:id', auth, async (c) => {
    const body = await readJson(c);
    const actor = reviewer(c, namedUserId(body));
    const id = c.req.param('id');
    const result = requiredString(body.review_result, 'review_result');
    // The details are the reviewer's notes for their own tools: kept and answered back, never read.
    const details = objectField(body.review_details, 'review_details');
    const find = () => ctx.store.flags.queryReports({ filter: { report_id: id }, limit: 1, offset: 0 })[0];
    if (!find()) throw ApiError.notFound(`flag report ${id} does not exist`);
    ctx.store.flags.review('message', id, result, actor.id, new Date().toISOString(), Object.keys(details).length ? details : undefined);
    const row = find();
    const report = row && withDetails(new FlagPresenter(ctx, [id]).report(row), row);
    if (!report) throw ApiError.notFound(`flag report ${id} does not exist`);
    return sendJson({ flag_report: report, duration: elapsed(c) } satisfies ReviewFlagReportResponse);
  });

  // `user_id` here is whose flagged messages to review, not who reviews: that is `reviewed_by`.
  routes.post('/automod/v1/moderation/update_flags', auth, async (c) => {
    const body = await readJson(c);
    const actor = reviewer(c, optionalString(body.reviewed_by, 'reviewed_by'));
    const authorId = optionalString(body.user_id, 'user_id');
    const ids = new Set([...idList(body.message_ids, 'message_ids'), ...(authorId ? ctx.store.flags.flaggedMessagesOf(authorId) : [])]);
    if (!ids.size && !authorId) throw ApiError.input('message_ids or user_id is required');
    const now = new Date().toISOString();
    ctx.store.transaction(() => {
      for (const id of ids) ctx.store.flags.review('message', id, 'reviewed', actor.id, now);
    });
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  routes.post('/moderation/unblock_message', auth, async (c) => {
    const body = await readJson(c);
    const actor = reviewer(c, namedUserId(body));
    const id = requiredString(body.target_message_id, 'target_message_id');
    const row = ctx.store.messages.get(id);
    if (!row) throw ApiError.notFound(`message with id ${id} not found`);
    // Only `shadow_block` holds a message back; `block` never stores it.
    if (!ctx.store.flags.release(id)) throw ApiError.input(`message ${id} is not blocked by moderation`);
    ctx.store.flags.review('message', id, 'unblocked', actor.id, new Date().toISOString());
    const channel = ctx.store.channels.get(row.cid);
    const [message] = new Presenter(ctx).messages([ctx.store.messages.get(id) ?? row]);
    if (channel && message) {
      ctx.changes.emit({ type: 'message.unblocked' as EventTypes, ...envelope(channel), message, created_at: new Date().toISOString() });
      notifyMessageNew(ctx, channel, message, { emit: false });
    }
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  return routes;
}

function queryOf(input: JsonObject): FlagQuery {
  const filter = input.filter_conditions ?? {};
  if (!isObject(filter)) throw ApiError.input('filter_conditions must be an object');
  return {
    filter,
    limit: boundedInt(input.limit, 'limit', { fallback: 25, min: 1, max: 100 }),
    offset: boundedInt(input.offset, 'offset', { fallback: 0, max: 1_000_000 }),
  };
}

/**
 * A report with its review's details, as the provider answers them (`review_details`, the object
 * the reviewer sent); the SDK's FlagReport type does not name the field.
 */
function withDetails(report: FlagReport | undefined, row: ReportRow): (FlagReport & { review_details?: object }) | undefined {
  if (!report || !row.review_details) return report;
  return { ...report, review_details: JSON.parse(row.review_details) as object };
}

function messageIdsOf(entries: { target_kind: string; target_id: string }[]): string[] {
  return entries.flatMap((entry) => (entry.target_kind === 'message' ? [entry.target_id] : []));
}
