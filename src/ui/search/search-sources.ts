// The SDK's SearchController with its three sources, set up as the spec says: people by id or
// name (not oneself, sorted by id), the user's channels by name, and regular messages of the
// user's channels by text, newest first, paged with `next`. Every source waits 300 ms after the
// last keystroke and asks for 10 results a page.
import { ChannelSearchSource, MessageSearchSource, SearchController, UserSearchSource, type StreamChat } from 'stream-chat';

export const SEARCH_PAGE_SIZE = 10;
export const SEARCH_DEBOUNCE_MS = 300;

export type SearchSources = {
  users: UserSearchSource;
  channels: ChannelSearchSource;
  messages: MessageSearchSource;
};
export type SourceType = keyof SearchSources;
/** The order the groups are shown in; the last one pages as the reader scrolls. */
export const SOURCE_TYPES: SourceType[] = ['users', 'channels', 'messages'];

/** One search for one user: the controller and its sources, typed. */
export type Search = { controller: SearchController; sources: SearchSources };

export function createSearch(client: StreamChat, ownUserId: string): Search {
  const paging = { pageSize: SEARCH_PAGE_SIZE, debounceMs: SEARCH_DEBOUNCE_MS };
  // Channels found by a search are read for their name and members only, not watched and
  // without messages: opening one watches it and loads its messages then.
  const readOnly = { watch: false, presence: false, message_limit: 0 };
  const sources: SearchSources = {
    users: new UserSearchSource(client, { ...paging, filters: { $nor: [{ id: ownUserId }] }, sort: { id: 1 } }),
    channels: new ChannelSearchSource(client, { ...paging, searchOptions: readOnly }),
    messages: new MessageSearchSource(client, {
      ...paging,
      messageSearchFilters: { type: 'regular' },
      messageSearchSort: { created_at: -1 },
      channelQueryOptions: readOnly,
    }),
  };
  // Results are grouped by source, so every source answers each query.
  const controller = new SearchController({ config: { keepSingleActiveSource: false }, sources: SOURCE_TYPES.map((type) => sources[type]) });
  return { controller, sources };
}
