import {
  StateStore,
  type Channel,
  type ChannelMemberResponse,
  type ChannelState,
  type Event,
  type LocalMessage,
  type MarkReadOptions,
  type MessageComposer,
  type StreamChat,
} from 'stream-chat';
import type { ChannelRef } from '../contract/attributes';
import { MessageDelivery, type SendResult } from './message-delivery';
import { CATCH_UP_LIMIT, splitAtGap } from './message-gap';
import { outboxFor } from './outbox';
import { SessionError, toSessionError, why } from './session-error';
import { text, type Text } from '../i18n/translate';

export type { SendResult };

type Slice = 'messages' | 'unread' | 'read' | 'typing' | 'people' | 'channel' | 'standing';

const MESSAGE_EVENT: Slice[] = ['messages', 'unread'];
const READ_EVENT: Slice[] = ['read', 'unread'];
const PEOPLE_EVENT: Slice[] = ['people', 'channel'];
/** The parts of the view each event can change; an event not listed refreshes everything. */
const EVENT_SLICES: Record<string, Slice[]> = {
  'message.new': MESSAGE_EVENT,
  'message.updated': MESSAGE_EVENT,
  'message.deleted': MESSAGE_EVENT,
  'message.undeleted': MESSAGE_EVENT,
  'reaction.new': MESSAGE_EVENT,
  'reaction.updated': MESSAGE_EVENT,
  'reaction.deleted': MESSAGE_EVENT,
  'message.read': READ_EVENT,
  'notification.mark_read': READ_EVENT,
  'notification.mark_unread': READ_EVENT,
  'typing.start': ['typing'],
  'typing.stop': ['typing'],
  'user.watching.start': PEOPLE_EVENT,
  'user.watching.stop': PEOPLE_EVENT,
  'user.presence.changed': PEOPLE_EVENT,
  'member.added': PEOPLE_EVENT,
  'member.removed': PEOPLE_EVENT,
  'member.updated': PEOPLE_EVENT,
  'user.banned': ['people', 'standing'],
  'user.unbanned': ['people', 'standing'],
  'health.check': [],
};

/** How long a reconnect holds marking read when its recovery never reports. */
const RECOVERY_HOLD_MS = 10_000;

/** Messages per page, as the spec says; older and newer pages load as the reader scrolls. */
export const PAGE_SIZE = 25;

export type ChannelViewState = {
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: SessionError | null;
  /** The current message set, oldest first, as the SDK keeps it. */
  messages: LocalMessage[];
  /** Whether older / newer messages than the current set exist on the server. */
  hasOlder: boolean;
  hasNewer: boolean;
  /** The current set is the latest one (not a set loaded around a jumped-to message). */
  atLatest: boolean;
  loadingOlder: boolean;
  loadingNewer: boolean;
  /** The message just jumped to, highlighted until the next jump. */
  highlightedId: string | null;
  /** A passing message for the reader, e.g. a jump to a message that does not exist. */
  notice: Text | null;
  /** Own last-read time when the channel was opened: the "new messages" line goes after it. */
  unreadSince: Date | null;
  pinned: LocalMessage[];
  read: ChannelState['read'];
  members: ChannelMemberResponse[];
  capabilities: string[];
  name: string;
  watcherCount: number;
  /** What the header's "N online" counts: online members, or in a room not all loaded, its watchers. */
  onlineCount: number;
  memberCount: number;
  unreadCount: number;
  /** Display names of the others typing right now. */
  typing: string[];
  /** The visitor's own ban (app-wide or in this channel), until when (null: for good); null when they may write. */
  ban: { until: string | null; app: boolean } | null;
  /** The channel was deleted while open. */
  deleted: boolean;
};

type Ban = ChannelViewState['ban'];

/** The SDK's composer does not read the channel's limits itself: hand them over once known. */
export function applyChannelLimits(composer: MessageComposer, channel: Channel) {
  const max = channel.getConfig()?.max_message_length;
  if (typeof max === 'number' && max > 0) composer.updateConfig({ text: { maxLengthOnSend: max } });
}

/**
 * The fields of `next` that differ from `current`; null when none do. Slices are rebuilt as
 * fresh copies, and a fresh but equal one (the typing names after our own typing event) must
 * not re-render the list. Only primitives and arrays of primitives are compared by value: the
 * SDK updates some objects in place (a member's user on a presence change), so an object
 * always counts as changed.
 */
function onlyChanged<T extends object>(current: T, next: Partial<T>): Partial<T> | null {
  const changed: Partial<T> = {};
  let any = false;
  for (const key of Object.keys(next) as Array<keyof T>) {
    if (sameValue(current[key], next[key])) continue;
    changed[key] = next[key];
    any = true;
  }
  return any ? changed : null;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return typeof a !== 'object' || a === null;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  return a.every((item, i) => (typeof item !== 'object' || item === null) && Object.is(item, b[i]));
}

/** The channel's name; an unnamed conversation is called after the other people in it. */
export function channelName(channel: Channel): string {
  const name = (channel.data as { name?: unknown } | undefined)?.name;
  if (typeof name === 'string' && name) return name;
  const ownId = channel.getClient().userID;
  const others = Object.values(channel.state.members)
    .filter((member) => member.user && member.user.id !== ownId)
    .map((member) => member.user?.name || member.user?.id);
  return others.length ? others.join(', ') : channel.id || channel.cid;
}

/**
 * One watched channel. The SDK's channel state is plain objects updated by events, so
 * this mirrors what the panel shows into a StateStore after each event. The SDK keeps and
 * merges the message sets; this only asks it for pages and jumps.
 */
export class ChannelHandle {
  readonly channel: Channel;
  readonly state: StateStore<ChannelViewState>;
  private readonly delivery: MessageDelivery;
  private loading: Promise<void> | null = null;
  private holdRead = false;
  /** The page request in flight; a jump waits for it so the two never interleave in the SDK's sets. */
  private paging: Promise<void> = Promise.resolve();
  private stopListening: (() => void) | null = null;
  /** Own bans as the backend announced them: app-wide (no channel) and in this channel. */
  private appBan: Ban = null;
  private channelBan: Ban = null;
  private banTimer: ReturnType<typeof setTimeout> | undefined;
  /** The last message before a gap a recovery left in the messages (see splitAtGap). */
  private gapAfter: string | null = null;
  /**
   * From the connection coming back until the recovery has been shown: the list still shows what
   * it had while the backend already holds what was missed, so nothing is marked read meanwhile.
   * A recovery that never reports releases it after RECOVERY_HOLD_MS.
   */
  private recovering = false;
  private recoveryTimer: ReturnType<typeof setTimeout> | undefined;
  /** The messages shown are what the browser kept, not yet what the backend says. */
  private fromCache = false;
  private keepTimer: ReturnType<typeof setTimeout> | undefined;

  /** @param keep saves the channel as shown, for the next open (the session's cache) */
  constructor(
    private readonly client: StreamChat,
    ref: ChannelRef,
    private readonly keep: (channel: Channel) => void = () => undefined,
  ) {
    this.channel = client.channel(ref.type, ref.id);
    this.delivery = new MessageDelivery(this.channel, this.channel.messageComposer, (message) => {
      this.channel.state.addMessageSorted(message, true);
      this.sync();
    });
    this.state = new StateStore<ChannelViewState>({
      ...this.snapshot(),
      status: 'idle',
      error: null,
      loadingOlder: false,
      loadingNewer: false,
      highlightedId: null,
      notice: null,
      unreadSince: null,
      deleted: false,
    });
  }

  get cid() {
    return this.channel.cid;
  }

  /** Watches the channel once; after an error, calling again retries. */
  load(): Promise<void> {
    this.loading ??= this.watch();
    return this.loading;
  }

  /**
   * Shows the channel as this browser kept it (the session put it in the client), before or
   * without the connection; `load` then brings what the backend says.
   */
  async showCached() {
    if (this.state.getLatestValue().status === 'ready' || this.channel.state.messages.length === 0) return;
    this.fromCache = true;
    this.stopListening ??= this.listen();
    await this.showWaiting();
    // The backend's answer may have come (or be on its way) meanwhile: that one is shown instead.
    if (!this.fromCache || this.state.getLatestValue().status === 'ready') return;
    this.state.partialNext({ ...this.snapshot(), status: 'ready', error: null });
  }

  /** What the visitor wrote here and the backend has not stored yet (also from before a reload) shows as sending. */
  private async showWaiting() {
    const outbox = outboxFor(this.client);
    for (const message of await outbox.waiting(this.cid)) this.channel.state.addMessageSorted(message);
    void outbox.flush();
  }

  private async watch() {
    // A channel shown from the cache stays on screen while the backend's answer comes.
    if (this.state.getLatestValue().status !== 'ready') this.state.partialNext({ status: 'loading', error: null });
    try {
      // The kept page may be far behind: the backend's page replaces it rather than join it with a gap.
      if (this.fromCache) this.channel.state.clearMessages();
      this.fromCache = false;
      await this.channel.watch({ messages: { limit: PAGE_SIZE } });
    } catch (error) {
      this.loading = null;
      this.state.partialNext({
        status: 'error',
        error: toSessionError('channel-failed', 'error.channel', error, { cid: this.cid }),
      });
      return;
    }
    const { membership } = this.channel.state;
    const me = this.client.user as { banned?: boolean; ban_expires?: string } | undefined;
    this.channelBan = membership?.banned ? { until: membership.ban_expires ?? null, app: false } : null;
    this.appBan = me?.banned ? { until: me.ban_expires ?? null, app: true } : null;
    this.stopListening ??= this.listen();
    applyChannelLimits(this.channel.messageComposer, this.channel);
    await this.showWaiting();
    const unreadSince = this.channel.countUnread() > 0 ? (this.channel.lastRead() ?? null) : null;
    this.state.partialNext({ ...this.snapshot(), status: 'ready', unreadSince });
    this.keep(this.channel);
  }

  private listen(): () => void {
    const channelEvents = this.channel.on((event) => this.sync(event));
    // A presence change carries no channel: the SDK edits the member in place and tells only
    // the client, so the members' dots are refreshed from here.
    const presence = this.client.on('user.presence.changed', (event) => {
      const id = event.user?.id;
      if (id && (this.channel.state.members[id] || this.channel.state.watchers[id])) this.sync(event);
    });
    // Bans of the visitor (app-wide ones carry no channel) and the channel's deletion, which
    // the SDK answers by retiring the channel object.
    const standing = this.client.on((event) => {
      const own = event.user?.id === this.client.userID;
      if (own && (event.type === 'user.banned' || event.type === 'user.unbanned') && (!event.cid || event.cid === this.cid)) {
        const ban = event.type === 'user.banned' && !event.shadow ? { until: (event as { expiration?: string }).expiration ?? null, app: !event.cid } : null;
        if (event.cid) this.channelBan = ban;
        else this.appBan = ban;
        this.sync(event);
      }
      if ((event.type === 'channel.deleted' || event.type === 'notification.channel_deleted') && event.cid === this.cid) {
        this.state.partialNext({ deleted: true });
      }
    });
    // After a reconnect the SDK queries the active channels again and replaces their state
    // without a channel event: the page it got is checked for a gap before it lands, and the
    // view is read again once it has.
    const queried = this.client.on('channels.queried', (event) => {
      const page = event.queriedChannels?.channels.find((response) => response.channel.cid === this.cid);
      if (page) this.gapAfter = splitAtGap(this.channel, page.messages, PAGE_SIZE) ?? this.gapAfter;
    });
    const recovered = this.client.on('connection.recovered', () => void this.catchUp());
    // Back online after failing (the SDK's reconnect, not a first connection such as another
    // tab's takeover): its recovery follows, and it counts the failures until that is done.
    const reconnected = this.client.on('connection.changed', (event) => {
      const failures = (this.client.wsConnection as { consecutiveFailures?: number } | null)?.consecutiveFailures ?? 0;
      if (!event.online || failures === 0 || this.state.getLatestValue().status !== 'ready') return;
      this.recovering = true;
      clearTimeout(this.recoveryTimer);
      this.recoveryTimer = setTimeout(() => (this.recovering = false), RECOVERY_HOLD_MS);
    });
    // A queued send the backend stored, or refused, after the composer's delivery had let go of it.
    const settled = outboxFor(this.client).onSettled((message) => {
      if (message.cid !== this.cid) return;
      this.channel.state.addMessageSorted(message, true);
      this.sync();
    });
    return () => {
      channelEvents.unsubscribe();
      presence.unsubscribe();
      standing.unsubscribe();
      queried.unsubscribe();
      recovered.unsubscribe();
      reconnected.unsubscribe();
      settled();
      clearTimeout(this.recoveryTimer);
      clearTimeout(this.banTimer);
      clearTimeout(this.keepTimer);
    };
  }

  /**
   * Refreshes what an event can have changed, and only that: in a channel of thousands of
   * members, copying every member and read state on each typing or message event would be
   * the panel's main cost.
   */
  private sync(event?: Event) {
    // A deleted channel's object is retired by the SDK: nothing more to read from it.
    if (this.channel.disconnected) return;
    // The provider echoes our own typing back; the indicator lists only the others, so it changes nothing.
    if ((event?.type === 'typing.start' || event?.type === 'typing.stop') && event.user?.id === this.client.userID) return;
    const slices = event ? EVENT_SLICES[event.type] : undefined;
    if (!slices) {
      this.state.partialNext(this.snapshot());
      return;
    }
    const changed = onlyChanged(this.state.getLatestValue(), Object.assign({}, ...slices.map((slice) => this.slices[slice]())));
    if (changed) this.state.partialNext(changed);
    if (changed?.messages) this.keepSoon();
  }

  private readonly slices: Record<Slice, () => Partial<ChannelViewState>> = {
    messages: () => {
      const { state } = this.channel;
      const current = state.messageSets.find((set) => set.isCurrent);
      return {
        messages: [...state.messages],
        hasOlder: state.messagePagination.hasPrev,
        hasNewer: state.messagePagination.hasNext,
        atLatest: current?.isLatest ?? true,
        pinned: [...state.pinnedMessages],
      };
    },
    unread: () => ({ unreadCount: this.channel.countUnread() }),
    read: () => ({ read: { ...this.channel.state.read } }),
    typing: () => ({
      typing: Object.values(this.channel.state.typing)
        .filter((event) => event.user && event.user.id !== this.client.userID && !event.parent_id)
        .map((event) => event.user?.name || event.user?.id || ''),
    }),
    people: () => {
      const { state, data } = this.channel;
      const members = Object.values(state.members);
      const memberCount = Number(data?.member_count ?? members.length);
      const watcherCount = state.watcher_count ?? 0;
      // Online members, as the Members panel lists them (presence keeps each member's `online`
      // live); a big room's loaded members are a page of them, so there its watchers.
      const allLoaded = members.length > 0 && members.length >= memberCount;
      return {
        members,
        watcherCount,
        onlineCount: allLoaded ? members.filter((member) => member.user?.online).length : watcherCount,
        memberCount,
      };
    },
    channel: () => ({
      capabilities: (this.channel.data?.own_capabilities as string[] | undefined) ?? [],
      name: channelName(this.channel),
    }),
    standing: () => ({ ban: this.currentBan() }),
  };

  /**
   * Shows what the recovery brought, and fills the gap it left, if any, from the last message
   * this browser had: all of it when it is up to CATCH_UP_LIMIT messages (the sets then join),
   * else that many, with the newer ones a jump away. The "new messages" line goes before the
   * first one missed.
   */
  private async catchUp() {
    try {
      await this.showRecovered();
    } finally {
      this.recovering = false;
      clearTimeout(this.recoveryTimer);
    }
  }

  private async showRecovered() {
    if (this.channel.disconnected || this.state.getLatestValue().status !== 'ready') return;
    const after = this.gapAfter;
    this.gapAfter = null;
    if (after) {
      await this.channel
        .query({ messages: { limit: CATCH_UP_LIMIT, id_gte: after }, watchers: { limit: PAGE_SIZE } }, 'current')
        .catch(() => undefined); // the list keeps its jump to the newest
    }
    const { unreadSince } = this.state.getLatestValue();
    const missedSince = !unreadSince && this.channel.countUnread() > 0 ? (this.channel.lastRead() ?? null) : unreadSince;
    this.state.partialNext({ ...this.snapshot(), unreadSince: missedSince });
  }

  /** The ban in force now; one with an end refreshes the view when it ends. */
  private currentBan(): Ban {
    clearTimeout(this.banTimer);
    const ban = this.appBan ?? this.channelBan;
    if (!ban?.until) return ban;
    const left = Date.parse(ban.until) - Date.now();
    if (left <= 0) return null;
    this.banTimer = setTimeout(() => this.sync({ type: 'user.unbanned' } as Event), Math.min(left, 2 ** 31 - 1));
    return ban;
  }

  private snapshot() {
    return Object.assign({}, ...Object.values(this.slices).map((slice) => slice())) as Pick<
      ChannelViewState,
      'messages' | 'hasOlder' | 'hasNewer' | 'atLatest' | 'pinned' | 'unreadCount' | 'read' | 'typing' | 'members' | 'watcherCount' | 'onlineCount' | 'memberCount' | 'capabilities' | 'name' | 'ban'
    >;
  }

  /** Saves the channel for the next open a moment after its messages change (a burst is one write). */
  private keepSoon() {
    clearTimeout(this.keepTimer);
    this.keepTimer = setTimeout(() => this.keep(this.channel), 1000);
  }

  /** Loads the page before the oldest message shown; the SDK merges it into the current set. */
  async loadOlder() {
    const { hasOlder, loadingOlder, messages } = this.state.getLatestValue();
    const oldest = messages[0];
    if (!hasOlder || loadingOlder || !oldest) return;
    await this.page('loadingOlder', { limit: PAGE_SIZE, id_lt: oldest.id });
  }

  /** Loads the page after the newest message shown (only when viewing an older set). */
  async loadNewer() {
    const { hasNewer, loadingNewer, messages } = this.state.getLatestValue();
    const newest = messages.at(-1);
    if (!hasNewer || loadingNewer || !newest) return;
    await this.page('loadingNewer', { limit: PAGE_SIZE, id_gt: newest.id });
  }

  private page(flag: 'loadingOlder' | 'loadingNewer', messages: { limit: number; id_lt?: string; id_gt?: string }) {
    this.state.partialNext({ [flag]: true });
    this.paging = this.channel
      .query({ messages, watchers: { limit: PAGE_SIZE } }, 'current')
      .then(
        () => this.state.partialNext({ ...this.snapshot(), [flag]: false, notice: null }),
        (error: unknown) => this.state.partialNext({ [flag]: false, notice: text('channel.olderFailed', { why: why(error) }) }),
      );
    return this.paging;
  }

  /**
   * Shows a message and the ones around it: the SDK switches to the set that holds it, or
   * loads a new set around it (`id_around`). A missing message leaves the list as it was.
   */
  async jumpTo(messageId: string): Promise<boolean> {
    await this.paging;
    try {
      await this.channel.state.loadMessageIntoState(messageId, undefined, PAGE_SIZE);
    } catch (error) {
      this.state.partialNext({ notice: text('channel.jumpFailed', { why: why(error) }) });
      return false;
    }
    if (!this.channel.state.findMessage(messageId)) {
      this.state.partialNext({ notice: text('channel.jumpMissing') });
      return false;
    }
    this.state.partialNext({ ...this.snapshot(), highlightedId: messageId, notice: null });
    return true;
  }

  /** Back to the newest messages after a jump. */
  async jumpToLatest() {
    await this.paging;
    await this.channel.state.loadMessageIntoState('latest');
    this.state.partialNext({ ...this.snapshot(), highlightedId: null });
  }

  /** Adds or removes members (needs `update-channel-members`); a failure becomes the notice. */
  async changeMembers(change: { add?: string[]; remove?: string[] }) {
    try {
      if (change.add?.length) await this.channel.addMembers(change.add);
      if (change.remove?.length) await this.channel.removeMembers(change.remove);
      this.sync();
    } catch (error) {
      this.setNotice(text('channel.membersFailed', { why: why(error) }));
    }
  }

  /** A passing line for the reader (an action's result or failure); null clears it. */
  setNotice(notice: Text | null) {
    this.state.partialNext({ notice });
  }

  /** The visitor's reaction on a message here (or in one of its threads), through the outbox: shown at once, sent when it can be. */
  react(message: LocalMessage, type: string, remove: boolean): Promise<void> {
    return outboxFor(this.client).react(this.cid, message, type, remove);
  }

  send(): Promise<SendResult> {
    this.holdRead = false;
    return this.delivery.send();
  }

  retry(messageId: string): Promise<SendResult> {
    return this.delivery.retry(messageId);
  }

  /** A message the backend refused, dropped by the visitor: it leaves the list and is not tried again. */
  discard(messageId: string) {
    const message = this.channel.state.findMessage(messageId);
    if (message?.status !== 'failed') return;
    outboxFor(this.client).discard(messageId);
    this.channel.state.removeMessage({ id: messageId });
    this.sync();
  }

  /**
   * Marks the channel read when there is something unread (the SDK checks the capability),
   * unless the reader just marked a message unread (that holds until they send or reopen), or
   * the list does not show the channel's newest message yet: after a reconnect the SDK counts
   * the missed messages as soon as it has them, before the catch-up shows them. The backend is
   * told the last message shown (`message_id`, the provider's "last read by the client"), so
   * what it holds beyond that stays unread even when the client has not heard of it yet.
   */
  async markRead() {
    if (this.holdRead || this.recovering || this.channel.countUnread() === 0) return;
    const shown = this.state.getLatestValue().messages;
    if (shown.at(-1)?.id !== this.channel.state.latestMessages.at(-1)?.id) return;
    // The newest message shown that the backend stores (a command's answer is the sender's alone).
    const lastSeen = [...shown].reverse().find((message) => message.status === 'received' && message.type !== 'ephemeral' && message.type !== 'error');
    const upTo = lastSeen ? ({ message_id: lastSeen.id } as MarkReadOptions) : {};
    await this.channel.markRead(upTo).catch(() => undefined);
  }

  async markUnread(messageId: string) {
    this.holdRead = true;
    await this.channel.markUnread({ message_id: messageId });
  }

  /** The panel shows the channel again: reading resumes. */
  resumeReading() {
    this.holdRead = false;
  }

  dispose() {
    this.stopListening?.();
    this.stopListening = null;
    this.loading = null;
  }
}
