// Segments, server-side calls: `POST /segments` (createSegment, createUserSegment,
// createChannelSegment), `POST /segments/query` (querySegments), `GET`/`PUT`/`DELETE
// /segments/{id}` (getSegment, updateSegment, deleteSegment), `POST /segments/{id}/addtargets`
// and `/deletetargets` (addSegmentTargets, removeSegmentTargets), `POST
// /segments/{id}/targets/query` (querySegmentTargets) and `GET /segments/{id}/target/{targetId}`
// (segmentTargetExists: 200 when listed, 404 when not). What a segment selects:
// store/segment-targets.ts.
import { Hono } from 'hono';
import type { APIResponse, SegmentTargetsResponse } from 'stream-chat';
import { assertListsTargets, newSegment, segmentChanges, targetIds } from '../../features/campaigns/segment-input';
import type { AppEnv, ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { cursors, pageOf } from '../../http/paging';
import { elapsed, readJson, requireServerSide, sendJson } from '../request';
import { presentSegment, type SegmentShown } from '../../present/segment';
import type { SegmentRow } from '../../store/segments';

type SegmentAnswer = APIResponse & { segment: SegmentShown };

export function segmentRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const server = requireServerSide(ctx);

  const existing = (id: string): SegmentRow => {
    const row = ctx.store.segments.get(id);
    if (!row) throw ApiError.notFound(`segment ${id} does not exist`);
    return row;
  };

  routes.post('/segments', server, async (c) => {
    const segment = newSegment(ctx, await readJson(c));
    if (!ctx.store.segments.create(segment, new Date().toISOString())) throw ApiError.input(`segment ${segment.id} already exists`);
    return sendJson({ segment: presentSegment(ctx, existing(segment.id)), duration: elapsed(c) } satisfies SegmentAnswer);
  });

  routes.post('/segments/query', server, async (c) => {
    const body = await readJson(c);
    const page = pageOf(body, { fallback: 25, max: 100 });
    const rows = ctx.store.segments.query({ filter: body.filter, sort: body.sort, ...page });
    const segments = rows.map((row) => presentSegment(ctx, row));
    return sendJson({ segments, ...cursors(page, rows.length), duration: elapsed(c) } satisfies APIResponse & { segments: SegmentShown[] });
  });

  routes.get('/segments/:id', server, (c) => {
    const segment = presentSegment(ctx, existing(c.req.param('id')));
    return sendJson({ segment, duration: elapsed(c) } satisfies SegmentAnswer);
  });

  routes.put('/segments/:id', server, async (c) => {
    const body = await readJson(c);
    const row = existing(c.req.param('id'));
    const updated = ctx.store.segments.update(row.id, segmentChanges(ctx, row, body), new Date().toISOString()) ?? row;
    return sendJson({ segment: presentSegment(ctx, updated), duration: elapsed(c) } satisfies SegmentAnswer);
  });

  routes.delete('/segments/:id', server, (c) => {
    const row = existing(c.req.param('id'));
    // A campaign waiting to start or sending would lose its audience halfway.
    const users = ctx.store.campaigns.activeUsingSegment(row.id);
    if (users.length) throw ApiError.input(`segment ${row.id} is used by the campaigns ${users.join(', ')}, scheduled or in progress`);
    ctx.store.segments.remove(row.id);
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  routes.post('/segments/:id/addtargets', server, async (c) => {
    const body = await readJson(c);
    const row = existing(c.req.param('id'));
    assertListsTargets(row);
    ctx.store.segments.addTargets(row.id, targetIds(row, body.target_ids), new Date().toISOString());
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  routes.post('/segments/:id/deletetargets', server, async (c) => {
    const body = await readJson(c);
    const row = existing(c.req.param('id'));
    ctx.store.segments.removeTargets(row.id, targetIds(row, body.target_ids), new Date().toISOString());
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  routes.post('/segments/:id/targets/query', server, async (c) => {
    const body = await readJson(c);
    const row = existing(c.req.param('id'));
    const page = pageOf(body, { fallback: 25, max: 100 });
    const targets: SegmentTargetsResponse[] = ctx.store.segments.queryTargets(row.id, { filter: body.filter, sort: body.sort, ...page });
    return sendJson({ targets, ...cursors(page, targets.length), duration: elapsed(c) } satisfies APIResponse & { targets: SegmentTargetsResponse[] });
  });

  routes.get('/segments/:id/target/:targetId', server, (c) => {
    const row = existing(c.req.param('id'));
    const targetId = c.req.param('targetId');
    if (!ctx.store.segments.hasTarget(row.id, targetId)) throw ApiError.notFound(`${targetId} is not a target of segment ${row.id}`);
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  return routes;
}
