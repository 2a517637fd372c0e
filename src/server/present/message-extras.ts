// What a message carries beyond its own row: reactions (groups, latest, the viewer's own), pin
// state, thread participants and the viewer's reminder. Loaded for a whole page at once; the
// viewer matters for own_reactions and reminder only, so events can share everything else.
import type { MessageResponseBase, ReactionGroupResponse, ReactionResponse, ReminderResponseBase, UserResponse } from 'stream-chat';
import type { UserPresenter } from './users';
import type { MessageRow } from '../store/messages';
import type { ReactionGroupRow, ReactionRow } from '../store/reactions';
import type { ReminderRow } from '../store/reminders';
import type { Store } from '../store/store';

export type MessageExtras = Pick<
  MessageResponseBase,
  | 'latest_reactions' | 'own_reactions' | 'reaction_counts' | 'reaction_scores' | 'reaction_groups'
  | 'pinned' | 'pinned_at' | 'pinned_by' | 'pin_expires' | 'thread_participants' | 'reminder'
  | 'message_text_updated_at'
>;

/** The fields that differ between viewers of the same message. */
export type ViewerFields = Pick<MessageResponseBase, 'own_reactions' | 'reminder'>;

export function presentReaction(presenter: UserPresenter, row: ReactionRow): ReactionResponse {
  const custom = JSON.parse(row.custom) as Record<string, unknown>;
  return {
    ...custom,
    type: row.type,
    message_id: row.message_id,
    user_id: row.user_id,
    user: presenter.user(row.user_id),
    score: row.score,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function presentReminderBase(row: ReminderRow): ReminderResponseBase {
  return {
    channel_cid: row.cid,
    message_id: row.message_id,
    user_id: row.user_id,
    ...(row.remind_at ? { remind_at: row.remind_at } : {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function messageExtras(
  presenter: UserPresenter,
  store: Store,
  rows: MessageRow[],
  viewerId: string | null,
  justStored = false,
): Map<string, MessageExtras> {
  if (!rows.length) return new Map();
  const ids = rows.map((row) => row.id);
  const now = new Date().toISOString();
  // Messages stored in this same call have no reactions yet: nothing to ask for.
  const groups = justStored ? new Map<string, ReactionGroupRow[]>() : groupBy(store.reactions.groups(ids), (g) => g.message_id);
  const latest = justStored ? new Map<string, ReactionRow[]>() : groupBy(store.reactions.latest(ids), (r) => r.message_id);
  const threadIds = rows.filter((row) => row.reply_count > 0).map((row) => row.id);
  const participants = groupBy(store.threads.participantsOf(threadIds), (p) => p.parent_id);
  presenter.preloadUsers([
    ...[...latest.values()].flat().map((r) => r.user_id),
    ...[...participants.values()].flat().map((p) => p.user_id),
    ...rows.flatMap((row) => (row.pinned_by_id ? [row.pinned_by_id] : [])),
  ]);
  const viewer = viewerId && !justStored ? viewerFields(presenter, store, rows, viewerId) : new Map<string, ViewerFields>();

  const extras = new Map<string, MessageExtras>();
  for (const row of rows) {
    const reactionGroups: Record<string, ReactionGroupResponse> = {};
    const counts: Record<string, number> = {};
    const scores: Record<string, number> = {};
    for (const group of groups.get(row.id) ?? []) {
      counts[group.type] = group.count;
      scores[group.type] = group.sum_scores;
      reactionGroups[group.type] = {
        count: group.count,
        sum_scores: group.sum_scores,
        first_reaction_at: group.first_reaction_at,
        last_reaction_at: group.last_reaction_at,
      };
    }
    // A pin past its expiry reads as unpinned even before the expiry timer has cleared it.
    const pinned = row.pinned_at !== null && (row.pin_expires === null || row.pin_expires > now);
    const threadUsers: UserResponse[] = (participants.get(row.id) ?? []).map((p) => presenter.user(p.user_id));
    extras.set(row.id, {
      latest_reactions: (latest.get(row.id) ?? []).map((r) => presentReaction(presenter, r)),
      own_reactions: [],
      reaction_counts: counts,
      reaction_scores: scores,
      reaction_groups: groups.has(row.id) ? reactionGroups : null,
      pinned,
      pinned_at: pinned ? row.pinned_at : null,
      pinned_by: pinned && row.pinned_by_id ? presenter.user(row.pinned_by_id) : null,
      pin_expires: pinned ? row.pin_expires : null,
      ...(threadUsers.length ? { thread_participants: threadUsers } : {}),
      ...(row.message_text_updated_at ? { message_text_updated_at: row.message_text_updated_at } : {}),
      ...viewer.get(row.id),
    });
  }
  return extras;
}

/** own_reactions and reminder of one viewer, for each message that has any. */
export function viewerFields(
  presenter: UserPresenter,
  store: Store,
  rows: MessageRow[],
  viewerId: string,
): Map<string, ViewerFields> {
  const ids = rows.map((row) => row.id);
  const own = groupBy(store.reactions.own(ids, viewerId), (r) => r.message_id);
  const reminders = store.reminders.ofMessages(viewerId, ids);
  const fields = new Map<string, ViewerFields>();
  for (const [messageId, reactions] of own) {
    fields.set(messageId, { own_reactions: reactions.map((r) => presentReaction(presenter, r)) });
  }
  for (const reminder of reminders) {
    fields.set(reminder.message_id, { ...fields.get(reminder.message_id), reminder: presentReminderBase(reminder) });
  }
  return fields;
}

/** The viewers an event reaches: how many, whether one is among them, and all of them. */
export type Viewers = { count: number; has(userId: string): boolean; ids(): string[] };

/**
 * One message's viewer fields for each viewer who has any. Whichever is fewer is read: the
 * message's own reactions and reminders (kept for the viewers among them), or theirs among the
 * viewers (in a room of thousands, a reaction would otherwise send every watcher's id to SQLite).
 */
export function viewerFieldsOfMany(presenter: UserPresenter, store: Store, row: MessageRow, viewers: Viewers): Map<string, ViewerFields> {
  const fields = new Map<string, ViewerFields>();
  if (!viewers.count) return fields;
  const fewest = <T extends { user_id: string }>(ofMessage: (limit: number) => T[], ofUsers: (ids: string[]) => T[]): T[] => {
    const all = ofMessage(viewers.count + 1);
    return all.length <= viewers.count ? all.filter((item) => viewers.has(item.user_id)) : ofUsers(viewers.ids());
  };
  const reactions = fewest((limit) => store.reactions.ofMessage(row.id, limit), (ids) => store.reactions.ofUsers(row.id, ids));
  for (const [userId, own] of groupBy(reactions, (r) => r.user_id)) {
    fields.set(userId, { own_reactions: own.map((r) => presentReaction(presenter, r)) });
  }
  const reminders = fewest((limit) => store.reminders.ofMessage(row.id, limit), (ids) => store.reminders.ofUsers(row.id, ids));
  for (const reminder of reminders) {
    fields.set(reminder.user_id, { ...fields.get(reminder.user_id), reminder: presentReminderBase(reminder) });
  }
  return fields;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}
