import type { Channel, LocalMessage, MessageComposer, MessageResponse } from 'stream-chat';
import { formatMessage, MessageComposer as Composer } from 'stream-chat';
import { describeApiError, retryAfter, SessionError, why } from './session-error';
import { text } from '../i18n/translate';
import { outboxFor } from './outbox';

/** The stored message, a failure the panel already shows on the message, or null when there was nothing to send. */
export type SendResult = MessageResponse | SessionError | null;

/**
 * Sends what a composer composed, optimistically: the message shows at once as sending, then is
 * replaced by the backend's copy, or marked failed with the reason (kept for a retry with the
 * same id, so the backend cannot store it twice). While the chat cannot be reached it waits in
 * the session's outbox, still shown as sending; so do edits (`updateMessage`).
 */
export class MessageDelivery {
  /**
   * @param composer the channel's or a thread's composer
   * @param show puts a message (optimistic, stored or failed) where the reader sees it
   */
  constructor(
    private readonly channel: Channel,
    private readonly composer: MessageComposer,
    private readonly show: (message: LocalMessage) => void,
  ) {}

  async send(): Promise<SendResult> {
    const { composer } = this;
    const editing = composer.editedMessage;
    const composition = await composer.compose();
    if (!composition) return null;
    const { localMessage, message, sendOptions } = composition;
    // A poll goes out as a message of its own: what was typed stays for the next message.
    if (message.poll_id) composer.state.partialNext({ id: Composer.generateId(), pollId: null });
    else composer.clear();
    if (editing) return this.edit(localMessage);
    this.show(localMessage);
    void this.channel.stopTyping(composer.threadId ?? undefined).catch(() => undefined);
    // The options carry skip_enrich_url when the composer already attached the link previews.
    return this.deliver(outboxFor(this.channel.getClient()).send({ cid: this.channel.cid, message, options: sendOptions, local: localMessage }), localMessage);
  }

  async retry(messageId: string): Promise<SendResult> {
    const local = this.channel.state.findMessage(messageId, this.composer.threadId ?? undefined);
    const outbox = outboxFor(this.channel.getClient());
    if (!local || !outbox.canRetry(messageId)) return null;
    this.show({ ...local, status: 'sending', error: undefined });
    return this.deliver(outbox.retry(messageId), local);
  }

  /** An edit shows at once and, like a send, waits in the outbox while the chat cannot be reached. */
  private async edit(localMessage: LocalMessage): Promise<SendResult> {
    const before = this.channel.state.findMessage(localMessage.id, localMessage.parent_id) ?? localMessage;
    try {
      return await outboxFor(this.channel.getClient()).change(this.channel.cid, before, { ...localMessage, status: 'sending' });
    } catch (error) {
      return new SessionError('send-failed', text('error.notEdited', { why: why(error) }));
    }
  }

  private async deliver(sent: Promise<MessageResponse | null>, local: LocalMessage): Promise<SendResult> {
    try {
      const stored = await sent;
      if (stored) this.show({ ...formatMessage(stored), status: 'received' });
      return stored;
    } catch (error) {
      // The panel reads the reason with describeApiError when it draws the failed message.
      this.show({ ...local, status: 'failed', error: error as LocalMessage['error'] });
      const { code, text: said } = describeApiError(error);
      if (code === 9) {
        // Over the rate limit: say when a retry will work (the message stays, with Retry).
        const wait = retryAfter(error);
        return new SessionError('send-failed', wait ? text('error.sendTooFast', { seconds: wait }) : text('error.sendTooFastSoon'), true);
      }
      return new SessionError('send-failed', text('error.notSent', { why: said }));
    }
  }
}
