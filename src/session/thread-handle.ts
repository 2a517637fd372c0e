import { StateStore, type LocalMessage, type MessageResponse, type StreamChat, type Thread } from 'stream-chat';
import { applyChannelLimits } from './channel-handle';
import { MessageDelivery, type SendResult } from './message-delivery';
import { toSessionError, type SessionError } from './session-error';

export type ThreadLoadState = { status: 'loading' | 'ready' | 'error'; error: SessionError | null; thread: Thread | null };

/**
 * An open thread: the SDK's `Thread` (its state store holds the parent, the replies and
 * their pagination, kept live by its own subscriptions) and a delivery for its composer.
 */
export class ThreadHandle {
  readonly state = new StateStore<ThreadLoadState>({ status: 'loading', error: null, thread: null });
  private delivery: MessageDelivery | null = null;

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
      this.state.partialNext({ status: 'ready', thread });
    } catch (error) {
      this.state.partialNext({ status: 'error', error: toSessionError('channel-failed', 'error.thread', error) });
    }
  }

  send(): Promise<SendResult> {
    return this.delivery?.send() ?? Promise.resolve(null);
  }

  retry(messageId: string): Promise<SendResult> {
    return this.delivery?.retry(messageId) ?? Promise.resolve(null);
  }

  close() {
    const { thread } = this.state.getLatestValue();
    thread?.deactivate();
    thread?.unregisterSubscriptions();
  }
}
