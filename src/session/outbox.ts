import { del, get, update } from 'idb-keyval';
import { kept } from './browser-store';
import { isTransient } from './session-error';
import { isConnected } from './connection-state';
import { formatMessage, type LocalMessage, type Message, type MessageResponse, type SendMessageOptions, type StreamChat } from 'stream-chat';

/**
 * A message the backend has not stored yet, kept as the SDK's own pending `send-message` task
 * is (the message with its client-made id, and the send options), with the copy the reader
 * sees while it waits.
 */
export type QueuedSend = { cid: string; message: Message; options?: SendMessageOptions; local: LocalMessage };

/** A reaction given or taken back, as the SDK's `send-reaction` and `delete-reaction` tasks. */
type QueuedReaction = { cid: string; key?: string; reaction: { messageId: string; type: string; remove: boolean } };

/**
 * An edit, or a delete as the SDK's `delete-message` task, of a message: `change` is how it
 * shows meanwhile, `before` how it showed until then (put back if the backend refuses).
 */
type QueuedChange = { cid: string; key: string; change: LocalMessage; before: LocalMessage; remove?: 'soft' | 'hard' };

type Queued = QueuedSend | QueuedReaction | QueuedChange;

/** How one try ended: stored (also when an earlier try had stored it), refused, or to be tried again. */
type Outcome = { stored: MessageResponse | null } | { refused: unknown } | { unreachable: true };

const RETRY_MS = 2000;

/** The provider answers a repeated message id with code 4, "a message with ID … already exists". */
const isRepeatedId = (error: unknown) => {
  const { code, message } = error as { code?: number; message?: string };
  return code === 4 && /already exists/.test(message ?? '');
};

/** A message the backend no longer has: deleting it again is done, not refused. */
const isGone = (error: unknown) => {
  const { code, message } = error as { code?: number; message?: string };
  return code === 16 || /already hard deleted/.test(message ?? '');
};

/** One entry's identity, to merge what two tabs queued. */
function idOf(entry: Queued): string {
  if ('local' in entry) return entry.local.id;
  if ('change' in entry) return entry.key;
  // A reaction kept before reactions had keys of their own.
  return entry.key ?? `${entry.reaction.messageId}|${entry.reaction.type}|${entry.reaction.remove}`;
}

/** A queued reaction's or change's own id: the same message may be changed or reacted to again. */
const newKey = (messageId: string) => `${messageId}|${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/** Runs `work` while no other tab of this browser runs work of the same name (Web Locks); at once where there are none. */
const alone = (name: string, work: () => Promise<void>): Promise<void> =>
  navigator.locks ? navigator.locks.request(name, work).then(() => undefined) : work();

/**
 * The one home of the visitor's sends until the backend has stored them. A send made while the
 * chat cannot be reached, or whose answer never came, waits here and in IndexedDB (per API key
 * and user), shown as sending; when the connection is back they go out one at a time in the
 * order written. Exactly once: every try carries the same client-made id, and a try the backend
 * had already stored (its answer was lost) is answered "already exists", so the stored message
 * is read and shown in its place. A refused send leaves the queue (the next ones go on) and
 * stays shown as not sent, with its reason, for a retry.
 */
export class Outbox {
  private queue: Queued[] = [];
  private readonly refused = new Map<string, QueuedSend>();
  private flushing: Promise<void> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<(message: LocalMessage) => void>();
  private readonly key: string;
  /** The queue as this browser kept it, read once. */
  readonly restored: Promise<void>;
  private readonly stop: () => void;
  private closed = false;
  /** Entries this tab has settled: a save drops them from what another tab kept too. */
  private readonly done = new Set<string>();
  /** Entries this tab has kept in the browser: one missing there later was settled by another tab. */
  private readonly saved = new Set<string>();

  constructor(
    private readonly client: StreamChat,
    apiKey: string,
    readonly userId: string,
  ) {
    this.key = `outbox|${apiKey}|${userId}`;
    this.restored = keptQueue(this.key).then((saved = []) => {
      saved.forEach((entry) => this.saved.add(idOf(entry)));
      this.queue = [...saved, ...this.queue];
    });
    const wake = () => void this.flush();
    const subscriptions = [client.on('connection.recovered', wake), client.on('connection.changed', (event) => event.online && wake())];
    this.stop = () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }

  /** Hears every send that ended, stored or refused, to put it where the reader sees it. */
  onSettled(listener: (message: LocalMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The sends waiting in a channel, to show after a reload. */
  async waiting(cid: string): Promise<LocalMessage[]> {
    await this.restored;
    await this.catchUp();
    return this.queue.flatMap((entry) => ('local' in entry && entry.cid === cid ? [{ ...entry.local, status: 'sending' }] : []));
  }

  private get reachable(): boolean {
    return !this.closed && this.client.userID === this.userId && navigator.onLine !== false && isConnected(this.client);
  }

  /**
   * Sends now when the chat can be reached and nothing is waiting before it; otherwise queues it.
   * Resolves with the stored message, or null while it waits; throws the refusal.
   */
  async send(send: QueuedSend): Promise<MessageResponse | null> {
    this.refused.delete(send.local.id);
    const outcome = await this.submit(send);
    if (outcome && 'refused' in outcome) throw outcome.refused;
    return outcome && 'stored' in outcome ? outcome.stored : null;
  }

  /**
   * The visitor reacts to `message` (or takes a reaction back): shown at once, sent now or when
   * the connection is back, after everything written before it. A refusal puts the message back
   * as it was and is thrown.
   */
  async react(cid: string, message: LocalMessage, type: string, remove: boolean): Promise<void> {
    this.settle(withOwnReaction(message, type, remove, this.client.user));
    const outcome = await this.submit({ cid, key: newKey(message.id), reaction: { messageId: message.id, type, remove } });
    if (outcome && 'refused' in outcome) {
      this.settle(message);
      throw outcome.refused;
    }
  }

  /**
   * The visitor edits a message, or deletes it (`remove`): shown at once, sent now or when the
   * connection is back, after everything written before it. A refusal shows the message as it
   * was again and is thrown.
   */
  async change(cid: string, before: LocalMessage, change: LocalMessage, remove?: 'soft' | 'hard'): Promise<MessageResponse | null> {
    this.settle(change);
    const outcome = await this.submit({ cid, key: newKey(before.id), change, before, remove });
    if (outcome && 'refused' in outcome) {
      this.settle(before);
      throw outcome.refused;
    }
    const stored = outcome && 'stored' in outcome ? outcome.stored : null;
    if (stored) this.settle({ ...formatMessage(stored), status: 'received' });
    return stored;
  }

  /** Tries it now when nothing waits before it and the chat can be reached; else queues it (null). */
  private async submit(entry: Queued): Promise<Outcome | null> {
    await this.restored;
    // What another tab of this visitor queued goes first too.
    await this.catchUp();
    if (this.queue.length === 0 && this.reachable) {
      const outcome = await this.attempt(entry);
      if (!('unreachable' in outcome)) return outcome;
    }
    // Queued again (a retry): kept again, whatever became of an earlier try.
    this.done.delete(idOf(entry));
    this.saved.delete(idOf(entry));
    this.queue.push(entry);
    await this.save();
    if (this.reachable) void this.flush();
    else this.later();
    return null;
  }

  /** Whether a refused send is held for a retry. */
  canRetry(messageId: string): boolean {
    return this.refused.has(messageId);
  }

  /** A refused send the visitor dropped: it is not tried again. */
  discard(messageId: string) {
    this.refused.delete(messageId);
  }

  /** A refused send, tried again with the same id. */
  async retry(messageId: string): Promise<MessageResponse | null> {
    const send = this.refused.get(messageId);
    return send ? this.send(send) : null;
  }

  /** Sends what waits, oldest first, until one cannot reach the backend. */
  flush(): Promise<void> {
    this.flushing ??= this.drain().finally(() => (this.flushing = null));
    return this.flushing;
  }

  /** One tab of the browser at a time sends the queue, starting from what the others did to it. */
  private async drain() {
    await this.restored;
    await alone(`chat-widget-${this.key}`, async () => {
      await this.catchUp();
      while (this.queue[0] && this.reachable) {
        const entry = this.queue[0];
        const outcome = await this.attempt(entry);
        if ('unreachable' in outcome) return this.later();
        // By its id: a catch-up meanwhile may have made the queue anew.
        this.queue = this.queue.filter((queued) => idOf(queued) !== idOf(entry));
        this.done.add(idOf(entry));
        await this.save();
        // A refused reaction is left to the next read of the message; a refused message says why;
        // a refused edit or delete leaves the message as it was.
        if ('stored' in outcome && outcome.stored) this.settle({ ...formatMessage(outcome.stored), status: 'received' });
        else if ('refused' in outcome && 'local' in entry) {
          this.settle({ ...entry.local, cid: entry.cid, status: 'failed', error: outcome.refused as LocalMessage['error'] });
        } else if ('refused' in outcome && 'before' in entry) this.settle(entry.before);
      }
    });
  }

  /**
   * The queue as the browser keeps it, in the order kept: what another tab queued joins, and
   * what another tab sent meanwhile (kept by this tab before, gone now) leaves.
   */
  private async catchUp() {
    const kept = await keptQueue(this.key);
    if (!kept) return;
    const there = new Set(kept.map(idOf));
    // Kept now, by whichever tab: gone from the record later means sent.
    there.forEach((id) => this.saved.add(id));
    const unsaved = this.queue.filter((entry) => !there.has(idOf(entry)) && !this.saved.has(idOf(entry)));
    this.queue = [...kept.filter((entry) => !this.done.has(idOf(entry))), ...unsaved];
  }

  private async attempt(entry: Queued): Promise<Outcome> {
    try {
      if ('change' in entry) {
        const { change, remove } = entry;
        const answer = remove ? await this.client.deleteMessage(change.id, remove === 'hard') : await this.client.updateMessage(change);
        return { stored: answer.message };
      }
      const [type, id] = entry.cid.split(':', 2) as [string, string];
      const channel = this.client.activeChannels[entry.cid] ?? this.client.channel(type, id);
      if ('local' in entry) return { stored: (await channel.sendMessage(entry.message, entry.options)).message };
      const { messageId, type: kind, remove } = entry.reaction;
      // The SDK takes reactions back only on a watched channel.
      if (!channel.initialized) await channel.watch();
      await (remove ? channel.deleteReaction(messageId, kind) : channel.sendReaction(messageId, { type: kind }));
      return { stored: null };
    } catch (error) {
      if ('local' in entry && isRepeatedId(error)) {
        const stored = await this.client.getMessage(entry.local.id).catch(() => null);
        return stored ? { stored: stored.message } : { unreachable: true };
      }
      if (isTransient(error)) return { unreachable: true };
      if ('change' in entry && entry.remove && isGone(error)) return { stored: null };
      if ('local' in entry) this.refused.set(entry.local.id, entry);
      return { refused: error };
    }
  }

  private settle(message: LocalMessage) {
    this.listeners.forEach((listener) => listener(message));
  }

  /** Another try soon, for an answer that was lost while the connection looked healthy. */
  private later() {
    clearTimeout(this.retryTimer);
    if (this.queue.length && !this.closed) this.retryTimer = setTimeout(() => void this.flush(), RETRY_MS);
  }

  private save(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const queue = this.queue.map((entry) => ('local' in entry ? { ...entry, local: { ...entry.local, error: undefined } } : entry));
    // Another tab of this visitor may have queued too: its entries stay, in the order kept, those
    // this tab settled go, and one this tab kept before that another tab has sent is not put back.
    let added: Queued[] = [];
    return kept((store) =>
      update<Queued[]>(
        this.key,
        (previous = []) => {
          const there = new Set(previous.map(idOf));
          added = queue.filter((entry) => !there.has(idOf(entry)) && !this.saved.has(idOf(entry)));
          return [...previous.filter((entry) => !this.done.has(idOf(entry))), ...added];
        },
        store,
      ).then(() => added.forEach((entry) => this.saved.add(idOf(entry)))),
    ).then(() => undefined);
  }

  close() {
    this.closed = true;
    this.stop();
    clearTimeout(this.retryTimer);
  }
}

/** The message as it will be once the visitor's reaction of `type` is added or taken back. */
function withOwnReaction(message: LocalMessage, type: string, remove: boolean, user: StreamChat['user']): LocalMessage {
  const own = message.own_reactions ?? [];
  const had = own.some((reaction) => reaction.type === type);
  if (had !== remove) return message;
  const now = new Date().toISOString();
  const groups = { ...message.reaction_groups };
  const group = groups[type] ?? { count: 0, sum_scores: 0, first_reaction_at: now, last_reaction_at: now };
  const count = group.count + (remove ? -1 : 1);
  if (count > 0) groups[type] = { ...group, count, sum_scores: Math.max(0, group.sum_scores + (remove ? -1 : 1)), last_reaction_at: now };
  else delete groups[type];
  const mine = { type, message_id: message.id, user_id: user?.id, user: user ?? undefined, score: 1, created_at: now, updated_at: now };
  return {
    ...message,
    reaction_groups: groups,
    own_reactions: remove ? own.filter((reaction) => reaction.type !== type) : [...own, mine as NonNullable<LocalMessage['own_reactions']>[number]],
  };
}

const keptQueue = (key: string) => kept((store) => get<Queued[]>(key, store));

const outboxes = new WeakMap<StreamChat, Outbox>();

/** The connected user's outbox on this client (made on first use, so only once the chat is used). */
export function outboxFor(client: StreamChat): Outbox {
  // Before the connection, a panel opened from this browser's cache writes as its user.
  const userId = client.userID ?? client.user?.id ?? '';
  let outbox = outboxes.get(client);
  if (!outbox || outbox.userId !== userId) {
    outbox?.close();
    outbox = new Outbox(client, client.key, userId);
    outboxes.set(client, outbox);
  }
  return outbox;
}

/** The session ended: its outbox stops listening (what waits stays kept for the next visit). */
export function closeOutbox(client: StreamChat) {
  outboxes.get(client)?.close();
  outboxes.delete(client);
}

/** The visitor signed out: nothing they wrote stays in this browser. */
export function forgetOutbox(apiKey: string, userId: string): Promise<void> {
  return kept((store) => del(`outbox|${apiKey}|${userId}`, store)).then(() => undefined);
}
