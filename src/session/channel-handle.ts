import { StateStore, type Channel, type LocalMessage, type Message, type MessageResponse, type StreamChat } from 'stream-chat';
import type { ChannelRef } from '../element/attributes';
import { describeApiError, SessionError, toSessionError } from './session-error';

export type ChannelViewState = {
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: SessionError | null;
  /** The current message set, oldest first, as the SDK keeps it. */
  messages: LocalMessage[];
  name: string;
  watcherCount: number;
  memberCount: number;
  unreadCount: number;
  /** Display names of the others typing right now. */
  typing: string[];
};

/** The stored message, a failure the panel already shows on the message, or null when there was nothing to send. */
export type SendResult = MessageResponse | SessionError | null;

/**
 * One watched channel. The SDK's channel state is plain objects updated by events, so
 * this mirrors what the panel shows into a StateStore after each event; sending goes
 * through the channel's own `messageComposer`.
 */
export class ChannelHandle {
  readonly channel: Channel;
  readonly state: StateStore<ChannelViewState>;
  private loading: Promise<void> | null = null;
  private stopListening: (() => void) | null = null;
  /** What was sent for each failed message, so "retry" sends exactly that again. */
  private failed = new Map<string, Message>();

  constructor(
    private readonly client: StreamChat,
    ref: ChannelRef,
  ) {
    this.channel = client.channel(ref.type, ref.id);
    this.state = new StateStore<ChannelViewState>({ ...this.snapshot(), status: 'idle', error: null });
  }

  get cid() {
    return this.channel.cid;
  }

  /** Watches the channel once; after an error, calling again retries. */
  load(): Promise<void> {
    this.loading ??= this.watch();
    return this.loading;
  }

  private async watch() {
    this.state.partialNext({ status: 'loading', error: null });
    try {
      await this.channel.watch();
    } catch (error) {
      this.loading = null;
      this.state.partialNext({
        status: 'error',
        error: toSessionError('channel-failed', `Could not open the channel ${this.cid}`, error),
      });
      return;
    }
    this.stopListening ??= this.channel.on(() => this.sync()).unsubscribe;
    this.state.partialNext({ ...this.snapshot(), status: 'ready' });
  }

  private sync() {
    this.state.partialNext(this.snapshot());
  }

  private snapshot() {
    const { state, data } = this.channel;
    const ownId = this.client.userID;
    return {
      messages: [...state.messages],
      name: channelName(this.channel),
      watcherCount: state.watcher_count ?? 0,
      memberCount: Number(data?.member_count ?? Object.keys(state.members).length),
      unreadCount: this.channel.countUnread(),
      typing: Object.values(state.typing)
        .filter((event) => event.user && event.user.id !== ownId)
        .map((event) => event.user?.name || event.user?.id || ''),
    };
  }

  /**
   * Sends what the composer holds. The composer decides whether there is anything to
   * send (its middleware discards empty or too-long text); the message shows at once
   * and is replaced by the backend's copy, or marked failed with a way to retry.
   */
  async send(): Promise<SendResult> {
    const composer = this.channel.messageComposer;
    const composition = await composer.compose();
    if (!composition) return null;
    const { localMessage, message, sendOptions } = composition;
    composer.clear();
    this.channel.state.addMessageSorted(localMessage, true);
    this.sync();
    void this.channel.stopTyping().catch(() => undefined);
    return this.deliver(message, localMessage);
  }

  /** Sends a failed message again, with the same id so the backend cannot duplicate it. */
  async retry(messageId: string): Promise<SendResult> {
    const message = this.failed.get(messageId);
    const local = this.channel.state.findMessage(messageId);
    if (!message || !local) return null;
    this.channel.state.addMessageSorted({ ...local, status: 'sending', error: undefined }, true);
    this.sync();
    return this.deliver(message, local);
  }

  private async deliver(message: Message, local: LocalMessage): Promise<SendResult> {
    try {
      const response = await this.channel.sendMessage(message);
      this.failed.delete(local.id);
      this.channel.state.addMessageSorted({ ...response.message, status: 'received' }, true);
      this.sync();
      return response.message;
    } catch (error) {
      this.failed.set(local.id, message);
      // The panel reads the reason with describeApiError when it draws the failed message.
      this.channel.state.addMessageSorted({ ...local, status: 'failed', error: error as LocalMessage['error'] }, true);
      this.sync();
      return new SessionError('send-failed', `A message was not sent: ${describeApiError(error).text}.`);
    }
  }

  /** Marks the channel read when there is something unread (the SDK checks the capability). */
  async markRead() {
    if (this.channel.countUnread() > 0) await this.channel.markRead().catch(() => undefined);
  }

  dispose() {
    this.stopListening?.();
    this.stopListening = null;
    this.loading = null;
  }
}

export function channelName(channel: Channel): string {
  const name = (channel.data as { name?: unknown } | undefined)?.name;
  return (typeof name === 'string' && name) || channel.id || channel.cid;
}
