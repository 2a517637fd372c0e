// Campaigns that start or stop at a stored time (`startCampaign(id, {scheduledFor, stopAt})`):
// one timer (infra/timers.ts) armed for the earliest such moment, re-armed by whatever changes
// a campaign's schedule, and at startup. Startup also resumes the campaigns a restart
// interrupted while they were sending; all of it lives in the database, so nothing is lost.
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { beginCampaign, runCampaign, stopCampaign } from './run-campaign';

const TIMER = 'campaigns';

/** Arms (or clears) the timer for the next scheduled start or stop. */
export function scheduleCampaigns(ctx: ServerContext): void {
  const at = ctx.store.campaigns.nextDue();
  if (at === null) {
    ctx.timers.cancel(TIMER);
    return;
  }
  ctx.timers.at(TIMER, Date.parse(at), () => {
    try {
      startAndStopDue(ctx);
    } catch (error) {
      // A timer firing after close() finds the database gone; anything else is worth a log line.
      ctx.log('campaign timer failed', error);
    }
    scheduleCampaigns(ctx);
  });
}

/** At startup: campaigns that were sending go on, and the schedule is armed. */
export function resumeCampaigns(ctx: ServerContext): void {
  for (const row of ctx.store.campaigns.withStatus('in_progress')) runCampaign(ctx, row.id);
  scheduleCampaigns(ctx);
}

function startAndStopDue(ctx: ServerContext): void {
  const now = new Date().toISOString();
  for (const row of ctx.store.campaigns.dueToStop(now)) stopCampaign(ctx, row);
  for (const row of ctx.store.campaigns.dueToStart(now)) {
    try {
      beginCampaign(ctx, row);
    } catch (error) {
      // Its sender or a segment went away while it waited: it cannot start, so it stops.
      if (!(error instanceof ApiError)) throw error;
      ctx.log(`scheduled campaign ${row.id} could not start: ${error.message}`);
      stopCampaign(ctx, row);
    }
  }
}
