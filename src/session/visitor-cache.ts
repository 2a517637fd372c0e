import { del, get, update } from 'idb-keyval';
import type { AppSettingsAPIResponse, Channel, ChannelAPIResponse, MessageResponse, UserResponse } from 'stream-chat';
import { kept } from './browser-store';

/** What this browser keeps of a visitor's chat, to open it before (or without) the network. */
export type VisitorCache = {
  user: UserResponse & { id: string };
  totalUnread: number;
  /**
   * The channels the visitor opened, and those of their conversation list, each as the backend
   * answered it (one page); the one saved last (the most recent) last.
   */
  channels: Array<{ savedAt: number; response: ChannelAPIResponse }>;
  /** The app's settings, which the composer checks files against. */
  appSettings?: AppSettingsAPIResponse;
};

/** Bounds: the most recent channels, one page each, and a size for the whole. */
const MAX_CHANNELS = 30;
const MAX_MESSAGES = 25;
const MAX_MEMBERS = 100;
const MAX_BYTES = 1_000_000;

/** One record per API key and identity (the token endpoint, or the guest of this browser). */
const keyOf = (apiKey: string, identity: string) => `cache|${apiKey}|${identity}`;

export const readCache = (apiKey: string, identity: string): Promise<VisitorCache | undefined> =>
  kept((store) => get<VisitorCache>(keyOf(apiKey, identity), store));

/** Signing out, or another visitor: nothing of this one stays in the browser. */
export const forgetCache = (apiKey: string, identity: string): Promise<unknown> => kept((store) => del(keyOf(apiKey, identity), store));

/** A channel as the backend would answer it, from what the SDK holds: its latest page, for the cache. */
function responseOf(channel: Channel): ChannelAPIResponse | null {
  const { state, data } = channel;
  const latest = state.messageSets.find((set) => set.isLatest);
  if (!data || !latest) return null;
  const messages = latest.messages.filter((message) => message.status === 'received').slice(-MAX_MESSAGES);
  // A channel between two states (its page cleared for the next) is not kept over what was.
  if (messages.length === 0 && data.last_message_at) return null;
  return {
    channel: data,
    messages: messages as unknown as MessageResponse[],
    members: Object.values(state.members).slice(0, MAX_MEMBERS),
    membership: state.membership,
    pinned_messages: [],
    read: Object.values(state.read).map((read) => ({
      user: read.user,
      last_read: read.last_read.toISOString(),
      last_read_message_id: read.last_read_message_id,
      unread_messages: read.unread_messages,
    })),
    watcher_count: state.watcher_count,
    duration: '',
  } as ChannelAPIResponse;
}

/**
 * Keeps the app's settings beside the visitor's channels (only where something of them is kept),
 * in one transaction, so a save of the channels meanwhile is not written over.
 */
export const saveAppSettings = (apiKey: string, identity: string, appSettings: AppSettingsAPIResponse): Promise<unknown> =>
  kept((store) =>
    store('readwrite', (objects) => {
      const key = keyOf(apiKey, identity);
      const request = objects.get(key);
      request.onsuccess = () => {
        const previous = request.result as VisitorCache | undefined;
        if (previous) objects.put({ ...previous, appSettings }, key);
      };
      return new Promise<void>((resolve, reject) => {
        objects.transaction.oncomplete = () => resolve();
        objects.transaction.onerror = objects.transaction.onabort = () => reject(objects.transaction.error);
      });
    }),
  );

/**
 * Keeps the channels' latest pages (and the visitor's user and unread total) for the next open:
 * one the visitor opened, or the conversation list's, the most recent first.
 */
export function saveChannels(apiKey: string, identity: string, channels: Channel[], totalUnread: number): Promise<unknown> {
  const user = channels[0]?.getClient().user;
  // Kept in the order saved: the list's most recent conversation is the last saved, so the last dropped.
  const saved = [...channels].reverse().flatMap((channel) => {
    const response = responseOf(channel);
    return response ? [{ savedAt: Date.now(), response }] : [];
  });
  if (!user?.id || !saved.length) return Promise.resolve();
  const own = { ...(user as UserResponse & { id: string }) };
  const cids = new Set(saved.map((entry) => entry.response.channel.cid));
  return kept((store) =>
    update<VisitorCache>(
      keyOf(apiKey, identity),
      (previous) => {
        const others = previous?.user.id === own.id ? previous.channels.filter((entry) => !cids.has(entry.response.channel.cid)) : [];
        const entries = [...others, ...saved].slice(-MAX_CHANNELS);
        // Over the size, the channels saved longest ago go first; the last one saved stays.
        const sizes = entries.map((entry) => JSON.stringify(entry).length);
        let size = sizes.reduce((sum, entry) => sum + entry, 0);
        while (entries.length > 1 && size > MAX_BYTES) {
          entries.shift();
          size -= sizes.shift() ?? 0;
        }
        return { user: own, totalUnread, channels: entries, appSettings: previous?.appSettings };
      },
      store,
    ),
  );
}
