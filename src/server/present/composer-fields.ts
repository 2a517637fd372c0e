// The composer's parts of a presented message: `poll` (the full PollResponse, with the viewer's
// own votes, for every message with a poll_id) and `shared_location`. Loaded for a whole page
// of messages at once.
import type { MessageResponseBase } from 'stream-chat';
import { presentLocation } from './location';
import { pollsOf } from './poll';
import type { UserPresenter } from './users';
import type { MessageRow } from '../store/messages';
import type { Store } from '../store/store';

export type ComposerFields = Pick<MessageResponseBase, 'poll' | 'shared_location'>;

export function composerFields(
  presenter: UserPresenter,
  store: Store,
  rows: MessageRow[],
  viewerId: string | null,
): Map<string, ComposerFields> {
  const pollIdOf = new Map<string, string>();
  for (const row of rows) {
    const pollId = (JSON.parse(row.custom) as { poll_id?: unknown }).poll_id;
    if (typeof pollId === 'string') pollIdOf.set(row.id, pollId);
  }
  const polls = pollsOf(presenter, store, [...pollIdOf.values()], viewerId);
  const locations = store.locations.getMany(rows.map((row) => row.id));
  const fields = new Map<string, ComposerFields>();
  for (const row of rows) {
    const poll = polls.get(pollIdOf.get(row.id) ?? '');
    const location = locations.get(row.id);
    if (!poll && !location) continue;
    fields.set(row.id, {
      ...(poll ? { poll } : {}),
      ...(location ? { shared_location: presentLocation(location) } : {}),
    });
  }
  return fields;
}
