// Push notifications, built from the change feed and delivered through the outbox shared with
// webhooks (infra/outbox-worker.ts). A new message (not `skip_push`, not shadowed) with a push provider
// configured costs the request one row; the worker then, off the request path:
// 1. expands the message a page of receivers at a time (channel members with an enabled device,
//    or a thread's participants for a reply kept in its thread; never the sender, nobody who
//    blocked them, nobody whose preferences or mutes say no), rendering each receiver's payload
//    and queueing one row per device;
// 2. sends each device's row through its provider's HTTP API (senders.ts), retrying what may pass
//    later and disabling a device whose token the provider says is dead.
// The outbox is bounded (rows), a pass holds one page of receivers, and nothing is queued while
// no provider is configured.
import type { Event, MessageResponse, UserResponse } from 'stream-chat';
import type { ServerContext } from '../../http/context';
import { Presenter } from '../../present/presenter';
import type { ChannelRow } from '../../store/channels';
import type { OutboxRow } from '../../store/outbox';
import { startOutboxWorker, type Outcome } from '../../infra/outbox-worker';
import { providerFor, storedProvider, type ProviderConfig } from './provider-config';
import { pushOptions } from './push-options';
import { wantsPush } from './push-preferences';
import { pushContext, renderPush } from './render-push';
import { sendPush } from './senders';
import { restrictedTo, seesRestricted } from '../../store/visibility';

/** Members named in the template context at most (`members`, `otherMembers`). */
const CONTEXT_MEMBERS = 100;

type MessageJob = { kind: 'message'; message_id: string; after: string };
type DeviceJob = { kind: 'device'; type: string; name: string; device_id: string; user_id: string; payload: Record<string, unknown> };

export function configuredProviders(ctx: ServerContext): ProviderConfig[] {
  return ctx.store.pushProviders.all().map(storedProvider);
}

/** Starts push delivery; the returned function stops it once the sends in flight are settled. */
export function startPushDelivery(ctx: ServerContext): () => Promise<void> {
  const options = pushOptions(ctx);
  const worker = startOutboxWorker(ctx, 'push', ctx.store.pushOutbox, options, (row) => deliver(row));

  async function deliver(row: OutboxRow): Promise<Outcome> {
    const job = JSON.parse(row.body) as MessageJob | DeviceJob;
    return job.kind === 'message' ? expand(job) : send(job);
  }

  /** One page of a message's receivers: their device rows, then where the next page starts. */
  function expand(job: MessageJob): Outcome {
    const { store } = ctx;
    const row = store.messages.get(job.message_id);
    const channel = row ? store.channels.get(row.cid) : undefined;
    if (!row || !channel || row.deleted_at || row.shadowed || channel.deleted_at) return { status: 'done' };
    const providers = configuredProviders(ctx);
    if (!providers.length) return { status: 'done' };
    const threadOnly = row.parent_id !== null && row.show_in_channel === 0;
    const limit = options.receiversPerPass;
    const page = threadOnly
      ? store.devices.participantsWithDevices(row.cid, row.parent_id as string, row.user_id, job.after, limit)
      : store.devices.membersWithDevices(row.cid, row.user_id, job.after, limit);
    if (!page.length) return { status: 'done' };

    const presenter = new Presenter(ctx);
    const [message] = presenter.messages([row]);
    if (!message) return { status: 'done' };
    const contextMembers = store.channels.members(row.cid, CONTEXT_MEMBERS + 1, 0).map((member) => member.user_id).filter((id) => id !== row.user_id);
    presenter.preloadUsers([...page, ...contextMembers, row.user_id]);
    const members = contextMembers.slice(0, CONTEXT_MEMBERS).map((id) => presenter.user(id));
    const sender = presenter.user(row.user_id);
    const blockers = store.blocks.blockersOf(row.user_id);
    const listed = restrictedTo(row);
    const extras = message as MessageResponse & { mentioned_here?: boolean; mentioned_channel?: boolean };
    const facts = {
      cid: row.cid,
      senderId: row.user_id,
      mentioned: (message.mentioned_users ?? []).map((user) => user.id),
      mentionsEveryone: extras.mentioned_here === true || extras.mentioned_channel === true,
    };
    const now = new Date().toISOString();
    for (const userId of page) {
      if (blockers.has(userId) || !seesRestricted(listed, row.user_id, userId) || !wantsPush(ctx, userId, facts, now)) continue;
      queueDevices(job.message_id, channel, message, sender, presenter.user(userId), members, providers);
    }
    const last = page[page.length - 1] as string;
    return page.length < limit ? { status: 'done' } : { status: 'continue', body: JSON.stringify({ ...job, after: last }) };
  }

  function queueDevices(
    messageId: string,
    channel: ChannelRow,
    message: MessageResponse,
    sender: UserResponse,
    receiver: UserResponse,
    members: UserResponse[],
    providers: ProviderConfig[],
  ): void {
    const rendered = new Map<ProviderConfig, Record<string, unknown> | null>();
    const context = pushContext(channel, message, sender, receiver, members, ctx.store.reads.summary(receiver.id));
    for (const device of ctx.store.devices.ofUser(receiver.id)) {
      if (device.disabled_reason) continue;
      const provider = providerFor(providers, device.push_provider, device.push_provider_name);
      if (!provider) continue;
      if (!rendered.has(provider)) {
        try {
          rendered.set(provider, renderPush(provider, context).payload);
        } catch (error) {
          // Templates are checked when stored; a message can still make one fail (logged once per receiver).
          ctx.log(`push: the ${provider.type} provider "${provider.name}" could not render message ${messageId}`, error);
          rendered.set(provider, null);
        }
      }
      const payload = rendered.get(provider);
      if (!payload) continue;
      const job: DeviceJob = { kind: 'device', type: provider.type, name: provider.name, device_id: device.id, user_id: receiver.id, payload };
      worker.enqueue(`${messageId}:${device.id}`, JSON.stringify(job));
    }
  }

  async function send(job: DeviceJob): Promise<Outcome> {
    const stored = ctx.store.pushProviders.get(job.type, job.name);
    const device = ctx.store.devices.get(job.device_id);
    // The provider was removed or disabled, or the device left (or moved to someone else).
    if (!stored || !device || device.user_id !== job.user_id || device.disabled_reason) return { status: 'drop' };
    const provider = storedProvider(stored);
    if (provider.disabled_at) return { status: 'drop' };
    const result = await sendPush(provider, job.device_id, job.payload, options.timeoutMs);
    if (result.ok) return { status: 'done' };
    if (result.deviceGone) {
      ctx.store.devices.disable(job.device_id, result.error);
      return { status: 'drop', error: `device disabled: ${result.error}` };
    }
    return result.retry ? { status: 'retry', error: result.error } : { status: 'drop', error: result.error };
  }

  const unsubscribe = ctx.changes.subscribe((event: Event, details) => {
    if (event.type !== 'message.new' || details.skipPush || !event.message) return;
    const { message } = event;
    if (message.shadowed || (message.type !== 'regular' && message.type !== 'reply')) return;
    if (!ctx.store.pushProviders.any()) return;
    const job: MessageJob = { kind: 'message', message_id: message.id, after: '' };
    worker.enqueue(message.id, JSON.stringify(job));
  });
  return async () => {
    unsubscribe();
    await worker.stop();
  };
}
