import { del, get, update } from 'idb-keyval';
import { kept } from './browser-store';
import { formatMessage, type LocalMessage, type Message, type MessageResponse, type SendMessageOptions, type StreamChat } from 'stream-chat';

/**
 * A message the backend has not stored yet, kept as the SDK's own pending `send-message` task
 * is (the message with its client-made id, and the send options), with the copy the reader
 * sees while it waits.
 */
export type QueuedSend = { cid: string; message: Message; options?: SendMessageOptions; local: LocalMessage };

/** How one send ended: stored (also when an earlier try had stored it), refused, or to be tried again. */
type Outcome = { stored: MessageResponse } | { refused: unknown } | { unreachable: true };

const RETRY_MS = 2000;

/** The provider answers a repeated message id with code 4, "a message with ID … already exists". */
const isRepeatedId = (error: unknown) => {
  const { code, message } = error as { code?: number; message?: string };
  return code === 4 && /already exists/.test(message ?? '');
};

/** No answer came (offline, a dropped response, a time-out) or a server fault: the send may work later. */
const isTransient = (error: unknown) => {
  const status = (error as { status?: number; response?: { status?: number } }).status ?? (error as { response?: { status?: number } }).response?.status;
  return !status || status >= 500;
};

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
  private queue: QueuedSend[] = [];
  private readonly refused = new Map<string, QueuedSend>();
  private flushing: Promise<void> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<(message: LocalMessage) => void>();
  private readonly key: string;
  /** The queue as this browser kept it, read once. */
  readonly restored: Promise<void>;
  private readonly stop: () => void;

  constructor(
    private readonly client: StreamChat,
    apiKey: string,
    readonly userId: string,
  ) {
    this.key = `outbox|${apiKey}|${userId}`;
    this.restored = kept((store) => get<QueuedSend[]>(this.key, store)).then((saved = []) => {
      this.queue = [...saved, ...this.queue.filter((send) => !saved.some((k) => k.local.id === send.local.id))];
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
    return this.queue.filter((send) => send.cid === cid).map((send) => ({ ...send.local, status: 'sending' }));
  }

  private get reachable(): boolean {
    const { wsConnection, wsFallback } = this.client;
    return navigator.onLine !== false && !!(wsConnection?.isHealthy || wsFallback?.isHealthy());
  }

  /**
   * Sends now when the chat can be reached and nothing is waiting before it; otherwise queues it.
   * Resolves with the stored message, or null while it waits; throws the refusal.
   */
  async send(send: QueuedSend): Promise<MessageResponse | null> {
    this.refused.delete(send.local.id);
    await this.restored;
    if (this.queue.length === 0 && this.reachable) {
      const outcome = await this.attempt(send);
      if ('stored' in outcome) return outcome.stored;
      if ('refused' in outcome) throw outcome.refused;
    }
    this.queue.push(send);
    await this.save();
    this.later();
    return null;
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

  private async drain() {
    await this.restored;
    while (this.queue[0] && this.reachable) {
      const send = this.queue[0];
      const outcome = await this.attempt(send);
      if ('unreachable' in outcome) return this.later();
      this.queue.shift();
      await this.save();
      if ('stored' in outcome) this.settle({ ...formatMessage(outcome.stored), status: 'received' });
      else this.settle({ ...send.local, cid: send.cid, status: 'failed', error: outcome.refused as LocalMessage['error'] });
    }
  }

  private async attempt(send: QueuedSend): Promise<Outcome> {
    const [type, id] = send.cid.split(':', 2) as [string, string];
    const channel = this.client.activeChannels[send.cid] ?? this.client.channel(type, id);
    try {
      return { stored: (await channel.sendMessage(send.message, send.options)).message };
    } catch (error) {
      if (isRepeatedId(error)) {
        const stored = await this.client.getMessage(send.local.id).catch(() => null);
        return stored ? { stored: stored.message } : { unreachable: true };
      }
      if (isTransient(error)) return { unreachable: true };
      this.refused.set(send.local.id, send);
      return { refused: error };
    }
  }

  private settle(message: LocalMessage) {
    this.listeners.forEach((listener) => listener(message));
  }

  /** Another try soon, for an answer that was lost while the connection looked healthy. */
  private later() {
    clearTimeout(this.retryTimer);
    if (this.queue.length) this.retryTimer = setTimeout(() => void this.flush(), RETRY_MS);
  }

  private save(): Promise<void> {
    const queue = this.queue.map(({ cid, message, options, local }) => ({ cid, message, options, local: { ...local, error: undefined } }));
    return kept((store) => update(this.key, () => queue, store)).then(() => undefined);
  }

  close() {
    this.stop();
    clearTimeout(this.retryTimer);
  }
}

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
