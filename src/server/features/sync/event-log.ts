// The event log behind POST /sync: every channel event of the kinds the provider's sync returns
// is written to SQLite as it happens (from the change feed, like webhooks), so a client that was
// away can ask what it missed in the channels it holds. The log is bounded in rows and in age
// (store/event-log.ts); what it has let go of is refused by the sync, never silently skipped.
import type { Event } from 'stream-chat';
import type { ServerContext } from '../../http/context';
import { SYNC_WINDOW_MS, syncSettings } from './sync-settings';

/**
 * What the provider's sync returns: the changes to channels, their messages, reactions and
 * members (its documentation's list), and read state. Typing, presence and watching are live
 * only; notifications are derived per receiver from these.
 */
export const SYNC_EVENT_TYPES: ReadonlySet<string> = new Set([
  'channel.created',
  'channel.updated',
  'channel.deleted',
  'channel.truncated',
  'channel.hidden',
  'channel.visible',
  'message.new',
  'message.updated',
  'message.deleted',
  'message.undeleted',
  'message.read',
  'reaction.new',
  'reaction.updated',
  'reaction.deleted',
  'member.added',
  'member.updated',
  'member.removed',
]);

/** Appends after every `CHECK_EVERY` appends the age bound is applied too. */
const CHECK_EVERY = 1000;

/** Starts logging; the returned function stops it. */
export function startEventLog(ctx: ServerContext): () => void {
  const settings = syncSettings(ctx);
  const log = ctx.store.eventLog;
  const maxAge = Math.min(settings.logMaxAgeMs > 0 ? settings.logMaxAgeMs : SYNC_WINDOW_MS, SYNC_WINDOW_MS);
  // Pruned in batches of a tenth of the bound, so a delete runs once per that many events.
  const slack = settings.logMaxEvents > 0 ? Math.max(1, Math.floor(settings.logMaxEvents / 10)) : 0;
  let sinceCheck = 0;
  const prune = () => {
    sinceCheck = 0;
    log.prune(settings.logMaxEvents, Date.now() - maxAge);
  };
  prune();
  return ctx.changes.subscribe((change: Event, details) => {
    // A message held by moderation reached its channel when released (message.unblocked).
    const event: Event = change.type === ('message.unblocked' as string) ? { ...change, type: 'message.new' } : change;
    if (typeof event.cid !== 'string' || !SYNC_EVENT_TYPES.has(event.type)) return;
    log.append(event.cid, event.type, Date.now(), (event === change && details.json) || JSON.stringify(event));
    sinceCheck += 1;
    if ((settings.logMaxEvents > 0 && log.size > settings.logMaxEvents + slack) || sinceCheck >= CHECK_EVERY) prune();
  });
}
