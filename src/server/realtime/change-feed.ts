// The spine: every change the backend makes is one event emitted here, once, whoever it is
// delivered to. Sockets get it from the fan-out beside each emit (with per-receiver details such
// as unread counts); webhooks (and later push) subscribe here, so a new feature that raises its
// event once is heard by all of them.
import type { Event } from 'stream-chat';

export type ChangeListener = (event: Event) => void;

export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();

  constructor(private readonly onListenerError: (error: unknown) => void) {}

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: Event): void {
    for (const listener of this.listeners) {
      // A failing subscriber (a full disk under the webhook outbox) must not fail the change.
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }
}
