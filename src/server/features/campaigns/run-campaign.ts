// A started campaign is a task (infra/run-task.ts): it first takes its targets (the user_ids, or
// what its segments stand for at that moment) into campaign_targets, then sends to them a few
// at a time, recording each, and gives the event loop back between steps so chat requests keep
// flowing. It stops at its next step when the campaign is stopped, deleted, started again (a
// newer run took over: `run_id`), or the server closes; in_progress campaigns are resumed at
// startup (campaign-schedule.ts), from the first target not yet recorded.
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { startTask } from '../../infra/run-task';
import { settingsOf, type CampaignRow, type CampaignRunPatch } from '../../store/campaigns';
import { deliverToChannel, deliverToUser, prepareDelivery } from './deliver-target';
import { selectedTargets, TARGET_PAGE } from '../../store/segment-targets';

/** Targets sent to per step; each send is a few synchronous milliseconds. */
const STEP = 20;

type Breathe = () => Promise<void>;

/** Starts sending now (with `also` set too): the campaign becomes in_progress and a task runs it. */
export function beginCampaign(ctx: ServerContext, row: CampaignRow, also: CampaignRunPatch = {}): CampaignRow {
  assertSendable(ctx, row);
  const now = new Date().toISOString();
  ctx.store.campaigns.patch(row.id, { ...also, status: 'in_progress', scheduled_for: null, started_at: row.started_at ?? now }, now);
  return runCampaign(ctx, row.id);
}

/** Runs (or resumes) an in_progress campaign in a new task, which alone may send for it from now on. */
export function runCampaign(ctx: ServerContext, id: string): CampaignRow {
  const taskId = startTask(ctx, 'campaign', (breathe) => run(ctx, id, taskId, breathe));
  // The work starts after this returns (startTask waits a turn), so the run id is in place first.
  return ctx.store.campaigns.patch(id, { run_id: taskId }, new Date().toISOString()) as CampaignRow;
}

export function stopCampaign(ctx: ServerContext, row: CampaignRow): CampaignRow {
  return ctx.store.campaigns.patch(row.id, { status: 'stopped', run_id: null, scheduled_for: null }, new Date().toISOString()) as CampaignRow;
}

/**
 * What a start needs beyond what create and update checked: its sender still there, and its
 * segments, unless it took its targets from them already (a resumed campaign).
 */
function assertSendable(ctx: ServerContext, row: CampaignRow): void {
  prepareDelivery(ctx, row);
  if (row.targets_total !== null) return;
  for (const segmentId of settingsOf(row).segment_ids) {
    if (!ctx.store.segments.get(segmentId)) throw ApiError.input(`segment ${segmentId} no longer exists`);
  }
}

/** The campaign while this run may still send for it. */
function current(ctx: ServerContext, id: string, runId: string): CampaignRow | undefined {
  if (ctx.timers.isStopped()) return undefined;
  const row = ctx.store.campaigns.get(id);
  return row && row.status === 'in_progress' && row.run_id === runId ? row : undefined;
}

async function run(ctx: ServerContext, id: string, runId: string, breathe: Breathe): Promise<unknown> {
  let row = current(ctx, id, runId);
  try {
    if (row && row.targets_total === null) row = await takeTargets(ctx, row, runId, breathe);
    while (row) {
      const batch = ctx.store.campaigns.pendingTargets(id, STEP);
      if (!batch.length) return complete(ctx, row);
      const delivery = prepareDelivery(ctx, row);
      const toChannels = delivery.settings.target_type === 'channel';
      for (const target of batch) {
        const outcome = toChannels ? deliverToChannel(ctx, delivery, target.target_id) : deliverToUser(ctx, delivery, target.target_id);
        ctx.store.campaigns.recordTarget(id, target.seq, outcome, new Date().toISOString());
      }
      await breathe();
      row = current(ctx, id, runId);
    }
    return { campaign_id: id, status: ctx.store.campaigns.get(id)?.status ?? 'deleted' };
  } catch (error) {
    // The campaign cannot go on (its sender was deleted, the database failed): it stops, says why
    // in the task, and can be started again once the cause is gone.
    const stopped = current(ctx, id, runId);
    if (stopped) stopCampaign(ctx, stopped);
    throw error;
  }
}

/** Takes the campaign's targets, once: its user_ids, or what each of its segments stands for now. */
async function takeTargets(ctx: ServerContext, row: CampaignRow, runId: string, breathe: Breathe): Promise<CampaignRow | undefined> {
  const { campaigns, segments } = ctx.store;
  // A start the server did not finish taking left part of a list: take it again from the start.
  campaigns.clearTargets(row.id);
  const settings = settingsOf(row);
  for (let i = 0; i < settings.user_ids.length; i += TARGET_PAGE) campaigns.addTargets(row.id, settings.user_ids.slice(i, i + TARGET_PAGE));
  for (const segmentId of settings.segment_ids) {
    const segment = segments.get(segmentId);
    if (!segment) throw ApiError.input(`segment ${segmentId} no longer exists`);
    for (const page of selectedTargets(ctx, segment, row.sender_id)) {
      campaigns.addTargets(row.id, page);
      await breathe();
      if (!current(ctx, row.id, runId)) return undefined;
    }
  }
  return campaigns.patch(row.id, { targets_total: campaigns.targetCount(row.id) }, new Date().toISOString());
}

function complete(ctx: ServerContext, row: CampaignRow): unknown {
  const now = new Date().toISOString();
  const done = ctx.store.campaigns.patch(row.id, { status: 'completed', completed_at: now, run_id: null }, now) ?? row;
  return {
    campaign_id: done.id,
    status: done.status,
    messages_sent: done.messages_sent,
    channels_created: done.channels_created,
    users_sent: done.users_sent,
  };
}
