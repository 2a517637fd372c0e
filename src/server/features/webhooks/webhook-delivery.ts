// Webhooks: every change event (realtime/change-feed.ts) whose type the app's `webhook_events`
// selects is POSTed to `webhook_url` with the provider's headers: `X-Signature` (hex
// HMAC-SHA256 of the raw body keyed by the app secret, which `client.verifyWebhook` checks),
// `X-Webhook-Id`, `X-Webhook-Attempt` and `X-Api-Key`.
//
// Delivery is off the request path: an event only adds a row to the outbox (store/
// webhook-outbox.ts); one worker sends due rows a small batch at a time and retries failures
// with exponential back-off. A slow or dead receiver never slows a chat request, a long outage
// costs disk rather than memory, and a restart resumes where the last run stopped.
import { createHmac, randomUUID } from 'node:crypto';
import type { Event } from 'stream-chat';
import type { ServerContext } from '../../http/context';
import { appSettings } from '../app/settings';

export type WebhookOptions = {
  /** A receiver that has not answered after this long counts as failed. Default 6000 ms. */
  timeoutMs: number;
  /** Retries before a delivery is given up. Default 20 (about 30 hours of back-off). */
  maxAttempts: number;
  /** First retry delay, doubled each time up to `maxDelayMs`. Defaults 1 s and 2 h. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Deliveries kept waiting at most; past it the oldest are dropped (logged). Default 100,000. */
  maxQueued: number;
};

export const DEFAULT_WEBHOOK_OPTIONS: WebhookOptions = {
  timeoutMs: 6000,
  maxAttempts: 20,
  baseDelayMs: 1000,
  maxDelayMs: 2 * 60 * 60 * 1000,
  maxQueued: 100_000,
};

const BATCH = 20;

export function signWebhook(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** Starts the worker; the returned function stops it once the deliveries in flight are settled. */
export function startWebhookDelivery(ctx: ServerContext, options: WebhookOptions): () => Promise<void> {
  let sending: Promise<void> | undefined;
  let stopped = false;

  const schedule = () => {
    if (stopped) return;
    const at = ctx.store.webhookOutbox.nextDueAt();
    if (at === null) ctx.timers.cancel('webhooks');
    else ctx.timers.at('webhooks', at, () => void drain());
  };

  function drain(): Promise<void> {
    sending ??= sendDue().finally(() => {
      sending = undefined;
      schedule();
    });
    return sending;
  }

  async function sendDue(): Promise<void> {
    while (!stopped) {
      const rows = ctx.store.webhookOutbox.due(Date.now(), BATCH);
      if (!rows.length) break;
      const url = appSettings(ctx).webhookUrl;
      await Promise.all(rows.map((row) => deliver(row.seq, row.webhook_id, row.body, row.attempts, url)));
    }
  }

  async function deliver(seq: number, webhookId: string, body: string, attempts: number, url: string): Promise<void> {
    let failure: string;
    if (!url) {
      // The URL was removed while deliveries waited: nothing is left to send them to.
      ctx.store.webhookOutbox.remove(seq);
      return;
    }
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
      if (response.ok) {
        ctx.store.webhookOutbox.remove(seq);
        return;
      }
      failure = `HTTP ${response.status}`;
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    if (attempts + 1 >= options.maxAttempts) {
      ctx.log(`webhook ${webhookId} given up after ${attempts + 1} attempts: ${failure}`);
      ctx.store.webhookOutbox.remove(seq);
      return;
    }
    const delay = Math.min(options.baseDelayMs * 2 ** attempts, options.maxDelayMs);
    ctx.store.webhookOutbox.retryLater(seq, Date.now() + delay, failure);
  }

  const unsubscribe = ctx.changes.subscribe((event: Event) => {
    const settings = appSettings(ctx);
    if (!settings.webhookUrl) return;
    if (settings.webhookEvents.length && !settings.webhookEvents.includes(event.type)) return;
    const dropped = ctx.store.webhookOutbox.add(randomUUID(), JSON.stringify(event), Date.now(), options.maxQueued);
    if (dropped) ctx.log(`webhook outbox full: dropped the ${dropped} oldest deliveries`);
    if (!sending) schedule();
  });
  schedule();
  return async () => {
    stopped = true;
    unsubscribe();
    ctx.timers.cancel('webhooks');
    await sending;
  };
}
