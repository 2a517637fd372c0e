// The spine: every change the backend makes is one event emitted here, once, whoever it is
// delivered to. Sockets get it from the fan-out beside each emit (with per-receiver details such
// as unread counts); webhooks, the sync log and push subscribe here, so a new feature that raises
// its event once is heard by all of them.
import type { Event } from 'stream-chat';

/** What the request said about the change beyond the event itself (never sent anywhere). */
export type ChangeDetails = {
  /** The request's `skip_push`: no push notification for this change. */
  skipPush?: boolean;
};

export type ChangeListener = (event: Event, details: ChangeDetails) => void;

export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();

  constructor(private readonly onListenerError: (error: unknown) => void) {}

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: Event, details: ChangeDetails = {}): void {
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
