// POST /sync: the events of the asked channels since `last_sync_at`, as the user may see them,
// read from the event log (event-log.ts). Channels the user cannot read are reported as the
// provider does: a notification.removed_from_channel each, or `inaccessible_cids` when asked.
// Refused (400, code 4) with the provider's message for a `last_sync_at` over 30 days old, and
// when the answer would need events the log has pruned or would pass `maxEventsPerSync`.
import type { Event, MessageResponse } from 'stream-chat';
import { accessTo } from '../../auth/channel-access';
import type { UserActor } from '../../auth/actor';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { restrictedTo, seesRestricted } from '../../store/visibility';
import { SYNC_WINDOW_MS, syncSettings } from './sync-settings';

/** The provider's limit on `channel_cids` (its SDKs send at most 255). */
export const MAX_SYNC_CIDS = 255;

/** Events only the user they concern receives. */
const PERSONAL = new Set(['channel.hidden', 'channel.visible']);

export type SyncResult = { events: Event[]; inaccessible: string[]; readable: string[] };

export function syncEvents(ctx: ServerContext, actor: UserActor, cids: string[], lastSyncAt: number, now = Date.now()): SyncResult {
  if (lastSyncAt < now - SYNC_WINDOW_MS) {
    throw ApiError.input('Sync failed with error: "Too old last_sync_at time, please have last_sync_at argument no later than 30 days ago"');
  }
  const { maxEventsPerSync } = syncSettings(ctx);
  const log = ctx.store.eventLog;
  if (lastSyncAt < log.completeFrom()) {
    throw ApiError.input(
      `Sync failed with error: "Too many events to sync: this backend keeps its latest events only (from ${new Date(log.completeFrom()).toISOString()}); query the channels instead"`,
    );
  }
  const readable: string[] = [];
  const inaccessible: string[] = [];
  for (const cid of new Set(cids)) {
    const row = ctx.store.channels.get(cid);
    if (row && accessTo(ctx, row, actor).canRead) readable.push(cid);
    else inaccessible.push(cid);
  }
  if (!readable.length) return { events: [], inaccessible, readable };
  const limit = maxEventsPerSync > 0 ? maxEventsPerSync + 1 : -1;
  const rows = log.since(readable, Math.max(0, Math.floor(lastSyncAt)), limit);
  if (maxEventsPerSync > 0 && rows.length > maxEventsPerSync) {
    throw ApiError.input(
      `Sync failed with error: "Too many events to sync: more than ${maxEventsPerSync} since last_sync_at; query the channels instead"`,
    );
  }
  const blockersOf = new Map<string, Set<string>>();
  const mayRead = (message: MessageResponse | undefined) => {
    const authorId = message?.user?.id;
    if (!message || !authorId || authorId === actor.id) return true;
    // The live rules (events/message-audience.ts): a shadowed message reaches only its
    // author, a restricted one also the users it lists, and nobody gets the messages of
    // someone they blocked.
    if (message.shadowed || !seesRestricted(restrictedTo(message), authorId, actor.id)) return false;
    let blockers = blockersOf.get(authorId);
    if (!blockers) blockersOf.set(authorId, (blockers = ctx.store.blocks.blockersOf(authorId)));
    return !blockers.has(actor.id);
  };
  const events: Event[] = [];
  for (const row of rows) {
    const event = JSON.parse(row.body) as Event;
    if (PERSONAL.has(event.type) && event.user?.id !== actor.id) continue;
    if (!mayRead(event.message)) continue;
    events.push(event);
  }
  return { events, inaccessible, readable };
}
