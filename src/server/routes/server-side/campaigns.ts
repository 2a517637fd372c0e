// Campaigns, server-side calls: `POST /campaigns` (createCampaign, campaign.create), `GET
// /campaigns/{id}` (getCampaign: the `user_ids` users paged by `limit`/`next`/`prev`), `POST
// /campaigns/query` (queryCampaigns), `PUT` and `DELETE /campaigns/{id}` (updateCampaign,
// deleteCampaign), `POST /campaigns/{id}/start` (startCampaign: now, or at `scheduled_for`; until
// `stop_at`) and `POST /campaigns/{id}/stop` (stopCampaign). Statuses: draft → scheduled →
// in_progress → completed, and stopped from scheduled or in_progress (started again, it resumes).
// Sending: features/campaigns.
import { Hono, type Context } from 'hono';
import type { APIResponse } from 'stream-chat';
import { campaignInput } from '../../features/campaigns/campaign-input';
import { settingsOf, type CampaignRow } from '../../store/campaigns';
import { scheduleCampaigns } from '../../features/campaigns/campaign-schedule';
import { beginCampaign, stopCampaign } from '../../features/campaigns/run-campaign';
import type { AppEnv, ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { boundedInt, optionalString, type JsonObject } from '../../http/input';
import { cursors, pageOf, type Page } from '../../http/paging';
import { elapsed, readJson, requireServerSide, sendJson } from '../request';
import { presentCampaign, type CampaignShown, type UserCursors } from '../../present/campaign';

type CampaignAnswer = APIResponse & { campaign: CampaignShown; users: UserCursors };

/** The first page of a campaign's users, as answers other than getCampaign show them. */
const FIRST_USERS: Page = { limit: 25, offset: 0 };

export function campaignRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const server = requireServerSide(ctx);

  const existing = (id: string): CampaignRow => {
    const row = ctx.store.campaigns.get(id);
    if (!row) throw ApiError.notFound(`campaign ${id} does not exist`);
    return row;
  };
  const answer = (c: Context<AppEnv>, row: CampaignRow, users = FIRST_USERS) =>
    sendJson({ ...presentCampaign(ctx, row, users), duration: elapsed(c) } satisfies CampaignAnswer);

  routes.post('/campaigns', server, async (c) => {
    const { parsed: _parsed, ...campaign } = campaignInput(ctx, await readJson(c));
    if (!ctx.store.campaigns.create(campaign, new Date().toISOString())) throw ApiError.input(`campaign ${campaign.id} already exists`);
    return answer(c, existing(campaign.id));
  });

  routes.get('/campaigns/:id', server, (c) => {
    const row = existing(c.req.param('id'));
    // getCampaign sends `{limit, next, prev}` (GetCampaignOptions.users) as query parameters.
    const users = pageOf({ limit: c.req.query('limit'), next: c.req.query('next'), prev: c.req.query('prev') }, { fallback: 25, max: 100 });
    return answer(c, row, users);
  });

  routes.post('/campaigns/query', server, async (c) => {
    const body = await readJson(c);
    const page = pageOf(body, { fallback: 25, max: 100 });
    const userLimit = boundedInt(body.user_limit, 'user_limit', { fallback: FIRST_USERS.limit, min: 1, max: 100 });
    const rows = ctx.store.campaigns.query({ filter: body.filter, sort: body.sort, ...page });
    const campaigns = rows.map((row) => presentCampaign(ctx, row, { limit: userLimit, offset: 0 }).campaign);
    return sendJson({ campaigns, ...cursors(page, rows.length), duration: elapsed(c) } satisfies APIResponse & { campaigns: CampaignShown[] });
  });

  routes.put('/campaigns/:id', server, async (c) => {
    const body = await readJson(c);
    const row = existing(c.req.param('id'));
    if (row.status === 'in_progress' || row.status === 'completed') {
      throw ApiError.input(`campaign ${row.id} is ${row.status === 'completed' ? 'completed' : 'sending'}; stop it before changing it`);
    }
    const { parsed, ...campaign } = campaignInput(ctx, body, row);
    // Its targets were taken when it first started; a resumed campaign sends to those.
    const before = settingsOf(row);
    if (row.targets_total !== null && (String(before.user_ids) !== String(parsed.user_ids) || String(before.segment_ids) !== String(parsed.segment_ids))) {
      throw ApiError.input(`campaign ${row.id} has started: its user_ids and segment_ids can no longer change`);
    }
    return answer(c, ctx.store.campaigns.write(campaign, new Date().toISOString()) ?? row);
  });

  routes.delete('/campaigns/:id', server, (c) => {
    const row = existing(c.req.param('id'));
    // A run in progress finds its campaign gone at its next step and stops there.
    ctx.store.campaigns.remove(row.id);
    scheduleCampaigns(ctx);
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  routes.post('/campaigns/:id/start', server, async (c) => {
    const body = await readJson(c);
    const row = existing(c.req.param('id'));
    if (row.status === 'in_progress') throw ApiError.input(`campaign ${row.id} is already in progress`);
    if (row.status === 'completed') throw ApiError.input(`campaign ${row.id} has completed`);
    const { scheduledFor, stopAt } = startTimes(body);
    const now = new Date().toISOString();
    let started: CampaignRow;
    if (scheduledFor && scheduledFor > now) {
      started = ctx.store.campaigns.patch(row.id, { status: 'scheduled', scheduled_for: scheduledFor, stop_at: stopAt, run_id: null }, now) as CampaignRow;
    } else {
      started = beginCampaign(ctx, row, { stop_at: stopAt });
    }
    scheduleCampaigns(ctx);
    return answer(c, started);
  });

  routes.post('/campaigns/:id/stop', server, async (c) => {
    await readJson(c);
    const row = existing(c.req.param('id'));
    if (row.status === 'draft') throw ApiError.input(`campaign ${row.id} has not been started`);
    if (row.status === 'completed') throw ApiError.input(`campaign ${row.id} has completed`);
    const stopped = row.status === 'stopped' ? row : stopCampaign(ctx, row);
    scheduleCampaigns(ctx);
    return answer(c, stopped);
  });

  return routes;
}

/** `scheduled_for` and `stop_at` as ISO instants; `stop_at` must come after the start. */
function startTimes(body: JsonObject): { scheduledFor: string | null; stopAt: string | null } {
  const instant = (name: string): string | null => {
    const text = optionalString(body[name], name);
    if (!text) return null;
    const time = Date.parse(text);
    if (Number.isNaN(time)) throw ApiError.input(`${name} must be a date`);
    return new Date(time).toISOString();
  };
  const scheduledFor = instant('scheduled_for');
  const stopAt = instant('stop_at');
  const start = scheduledFor ?? new Date().toISOString();
  if (stopAt && stopAt <= start) throw ApiError.input('stop_at must come after the start');
  return { scheduledFor, stopAt };
}
