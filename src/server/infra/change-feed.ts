// The spine: every change the backend makes is one event emitted here, once, whoever it is
// delivered to. Sockets get it from the fan-out beside each emit (with per-receiver details such
// as unread counts); webhooks, the sync log and push subscribe here, so a new feature that raises
// its event once is heard by all of them.
import type { Event } from 'stream-chat';

/** What the request said about the change beyond the event itself (never sent anywhere). */
export type ChangeDetails = {
  /** The request's `skip_push`: no push notification for this change. */
  skipPush?: boolean;
  /** A campaign's `skip_webhook`: the change is not POSTed to the app's webhook. */
  skipWebhook?: boolean;
  /**
   * The event as JSON, when the emitter has serialised it already (message.new's shared frame):
   * the subscribers that store or send it whole use it rather than serialise it again.
   */
  json?: string;
};

export type ChangeListener = (event: Event, details: ChangeDetails) => void;

export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();
  /** Details every change emitted inside `within()` carries, whichever code path emits it. */
  private scope: ChangeDetails = {};

  constructor(private readonly onListenerError: (error: unknown) => void) {}

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs `work` with `details` added to every change it emits: a campaign's `skip_push` and
   * `skip_webhook` reach the channel creations, member changes and messages its sends raise,
   * through the same paths a user's request takes. `work` is synchronous, so no other
   * request's changes can be emitted inside the scope.
   */
  within<T>(details: ChangeDetails, work: () => T): T {
    const outer = this.scope;
    this.scope = { ...outer, ...details };
    try {
      return work();
    } finally {
      this.scope = outer;
    }
  }

  emit(event: Event, given: ChangeDetails = {}): void {
    const details: ChangeDetails = { ...given };
    if (this.scope.skipPush) details.skipPush = true;
    if (this.scope.skipWebhook) details.skipWebhook = true;
    for (const listener of this.listeners) {
      // A failing subscriber (a full disk under the webhook outbox) must not fail the change.
      try {
        listener(event, details);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }
}
