import { StateStore, type LocalMessage, type MessageResponse, type StreamChat, type Thread } from 'stream-chat';
import { applyChannelLimits } from './channel-handle';
import { MessageDelivery, type SendResult } from './message-delivery';
import { CATCH_UP_LIMIT } from './message-gap';
import { outboxFor } from './outbox';
import { toSessionError, type SessionError } from './session-error';

export type ThreadLoadState = { status: 'loading' | 'ready' | 'error'; error: SessionError | null; thread: Thread | null };

/**
 * An open thread: the SDK's `Thread` (its state store holds the parent, the replies and
 * their pagination, kept live by its own subscriptions) and a delivery for its composer.
 */
export class ThreadHandle {
  readonly state = new StateStore<ThreadLoadState>({ status: 'loading', error: null, thread: null });
  private delivery: MessageDelivery | null = null;
  private stopRecovery: (() => void) | null = null;
  private closed = false;

  constructor(
    private readonly client: StreamChat,
    readonly parentId: string,
  ) {}

  async open() {
    this.state.partialNext({ status: 'loading', error: null });
    try {
      const thread = await this.client.getThread(this.parentId, { watch: true, reply_limit: 25 });
      applyChannelLimits(thread.messageComposer, thread.channel);
      thread.registerSubscriptions();
      thread.activate();
      this.delivery = new MessageDelivery(thread.channel, thread.messageComposer, (message: LocalMessage) =>
        thread.upsertReplyLocally({ message: message as unknown as MessageResponse }),
      );
      // Closed while it loaded: nothing to listen for.
      if (this.closed) return;
      this.stopRecovery?.();
      const recovered = this.client.on('connection.recovered', () => void this.catchUp(thread));
      const settled = outboxFor(this.client).onSettled((message) => message.parent_id === this.parentId && thread.upsertReplyLocally({ message, timestampChanged: true }));
      this.stopRecovery = () => {
        recovered.unsubscribe();
        settled();
      };
      this.state.partialNext({ status: 'ready', thread });
    } catch (error) {
      this.state.partialNext({ status: 'error', error: toSessionError('channel-failed', 'error.thread', error) });
    }
  }

  /**
   * Back after a lost connection: the replies written meanwhile are asked for after the last one
   * this browser had, page by page, and put in their place (a reply that also came live is
   * there once). The SDK's own reload would keep only the newest few.
   */
  private async catchUp(thread: Thread) {
    let after = thread.state.getLatestValue().replies.filter((reply) => reply.status === 'received').at(-1)?.id;
    for (let page = 0; after && page < 10; page += 1) {
      const { messages } = await thread.queryReplies({ id_gt: after, limit: CATCH_UP_LIMIT }).catch(() => ({ messages: [] }));
      messages.forEach((message) => thread.upsertReplyLocally({ message }));
      after = messages.length < CATCH_UP_LIMIT ? undefined : messages.at(-1)?.id;
    }
  }

  send(): Promise<SendResult> {
    return this.delivery?.send() ?? Promise.resolve(null);
  }

  retry(messageId: string): Promise<SendResult> {
    return this.delivery?.retry(messageId) ?? Promise.resolve(null);
  }

  /** A reply the backend refused, dropped by the visitor. */
  discard(messageId: string) {
    const { thread } = this.state.getLatestValue();
    const reply = thread?.state.getLatestValue().replies.find((message) => message.id === messageId);
    if (!thread || reply?.status !== 'failed') return;
    outboxFor(this.client).discard(messageId);
    thread.deleteReplyLocally({ message: reply as unknown as MessageResponse });
  }

  close() {
    const { thread } = this.state.getLatestValue();
    this.closed = true;
    this.stopRecovery?.();
    this.stopRecovery = null;
    thread?.deactivate();
    thread?.unregisterSubscriptions();
  }
}
