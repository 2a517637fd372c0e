// Webhooks: every change event (infra/change-feed.ts) whose type the app's `webhook_events`
// selects is POSTed to `webhook_url` with the provider's headers: `X-Signature` (hex
// HMAC-SHA256 of the raw body keyed by the app secret, which `client.verifyWebhook` checks),
// `X-Webhook-Id`, `X-Webhook-Attempt` and `X-Api-Key`.
//
// Delivery is off the request path, through the outbox shared with push (infra/outbox-worker.ts): an
// event only adds a row; the worker sends due rows a small batch at a time and retries failures
// with exponential back-off.
import { createHmac, randomUUID } from 'node:crypto';
import type { Event } from 'stream-chat';
import type { ServerContext } from '../../http/context';
import { appSettings } from '../../infra/app-settings';
import type { DeliveryOptions } from '../../infra/delivery-options';
import { startOutboxWorker, type Outcome } from '../../infra/outbox-worker';

/**
 * Receiver time-out (default 6000 ms), retries before a delivery is given up (default 20, about
 * 30 hours of back-off), back-off from 1 s doubling to 2 h, and at most 100,000 waiting.
 */
export type WebhookOptions = DeliveryOptions;

export const DEFAULT_WEBHOOK_OPTIONS: WebhookOptions = {
  timeoutMs: 6000,
  maxAttempts: 20,
  baseDelayMs: 1000,
  maxDelayMs: 2 * 60 * 60 * 1000,
  maxQueued: 100_000,
};

export function signWebhook(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** Starts the worker; the returned function stops it once the deliveries in flight are settled. */
export function startWebhookDelivery(ctx: ServerContext, options: WebhookOptions): () => Promise<void> {
  async function deliver(webhookId: string, body: string, attempts: number): Promise<Outcome> {
    const url = appSettings(ctx).webhookUrl;
    // The URL was removed while deliveries waited: nothing is left to send them to.
    if (!url) return { status: 'drop' };
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-signature': signWebhook(body, ctx.config.apiSecret),
          'x-webhook-id': webhookId,
          'x-webhook-attempt': String(attempts + 1),
          'x-api-key': ctx.config.apiKey,
        },
        body,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      await response.body?.cancel();
      return response.ok ? { status: 'done' } : { status: 'retry', error: `HTTP ${response.status}` };
    } catch (error) {
      return { status: 'retry', error: error instanceof Error ? error.message : String(error) };
    }
  }

  const worker = startOutboxWorker(ctx, 'webhooks', ctx.store.webhookOutbox, options, (row) =>
    deliver(row.delivery_id, row.body, row.attempts),
  );
  const unsubscribe = ctx.changes.subscribe((event: Event, details) => {
    // A campaign started with skip_webhook raises its events for sockets and push only.
    if (details.skipWebhook) return;
    const settings = appSettings(ctx);
    if (!settings.webhookUrl) return;
    if (settings.webhookEvents.length && !settings.webhookEvents.includes(event.type)) return;
    worker.enqueue(randomUUID(), details.json ?? JSON.stringify(event));
  });
  return async () => {
    unsubscribe();
    await worker.stop();
  };
}
