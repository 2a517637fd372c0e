// Sending a campaign's message to one target: a user (in the channel campaign-channel.ts finds or
// creates) or a channel (a cid from a channel segment). The message goes through the backend's
// own send path as the sender, with the app's authority (a server-side actor), so it is stored,
// counted unread, fanned out to sockets and long-poll, pushed and sent to webhooks as any message
// is; the campaign's skip_push and skip_webhook ride on every change it raises. A target that
// cannot be sent to is skipped with the reason, and the campaign goes on.
import { createHash } from 'node:crypto';
import type { UserActor } from '../../auth/actor';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { withoutKeys, type JsonObject } from '../../http/input';
import { Presenter } from '../../present/presenter';
import { notifyChannelHidden } from '../../events/channel-events';
import { notifyMemberUpdated } from '../../events/member-events';
import type { ChannelRow } from '../../store/channels';
import type { UserRow } from '../../store/users';
import { NOT_CUSTOM } from '../messages/message-fields';
import { sendMessage } from '../messages/send-message';
import { settingsOf, type CampaignRow, type CampaignSettings, type TargetOutcome } from '../../store/campaigns';
import { channelForReceiver, channelTemplates, includeSender, type ChannelPlan, type ChannelTemplates } from './campaign-channel';
import { campaignTemplate, type Render, type TemplateContext } from './campaign-template';

/** Everything one step of a run needs, read once per step so an update between steps applies. */
export type Delivery = {
  campaign: CampaignRow;
  settings: CampaignSettings;
  sender: UserRow;
  actor: UserActor;
  text: Render;
  channels: ChannelTemplates;
};

export function prepareDelivery(ctx: ServerContext, campaign: CampaignRow): Delivery {
  const sender = ctx.store.users.get(campaign.sender_id);
  if (!sender || sender.deleted_at) throw ApiError.input(`the sender ${campaign.sender_id} no longer exists`);
  const settings = settingsOf(campaign);
  return {
    campaign,
    settings,
    sender,
    actor: { id: sender.id, role: sender.role, server: true, anonymous: false },
    text: campaignTemplate(settings.message_template.text, 'message_template.text'),
    channels: channelTemplates(settings),
  };
}

/**
 * The message's id, the same whenever this campaign sends to this target: a run interrupted
 * between sending and recording finds its message on resuming instead of sending it twice.
 */
function messageId(campaign: CampaignRow, targetId: string): string {
  return createHash('sha256').update(`campaign\n${campaign.id}\n${campaign.created_at}\n${targetId}`).digest('hex').slice(0, 32);
}

export function deliverToUser(ctx: ServerContext, delivery: Delivery, userId: string): TargetOutcome {
  const { sender, settings } = delivery;
  if (userId === sender.id) return skipped('the sender is not sent their own campaign');
  const receiver = ctx.store.users.get(userId);
  if (!receiver || receiver.deleted_at) return skipped(`user ${userId} does not exist`);
  if (receiver.deactivated_at) return skipped(`user ${userId} is deactivated`);
  const presenter = new Presenter(ctx);
  const context: TemplateContext = { receiver: presenter.fromRow(receiver), sender: presenter.fromRow(sender) };
  return attempt(() =>
    ctx.changes.within({ skipPush: settings.skip_push, skipWebhook: settings.skip_webhook }, () => {
      const plan = channelForReceiver(ctx, settings, delivery.channels, sender, receiver, context);
      if (!plan) return skipped(`no channel with ${userId} exists and create_channels is off`);
      const sent = send(ctx, delivery, plan.row, { ...context, channel: channelContext(plan.row) }, messageId(delivery.campaign, userId));
      if (sent.state === 'sent' && plan.created) applySenderVisibility(ctx, settings, plan, sender);
      return { ...sent, channels: plan.created ? 1 : 0 };
    }),
  );
}

export function deliverToChannel(ctx: ServerContext, delivery: Delivery, cid: string): TargetOutcome {
  const { sender, settings } = delivery;
  const row = ctx.store.channels.get(cid);
  if (!row || row.deleted_at) return skipped(`channel ${cid} does not exist`);
  const context: TemplateContext = { sender: new Presenter(ctx).fromRow(sender), channel: channelContext(row) };
  return attempt(() =>
    ctx.changes.within({ skipPush: settings.skip_push, skipWebhook: settings.skip_webhook }, () => {
      includeSender(ctx, settings, row, sender);
      return send(ctx, delivery, ctx.store.channels.get(cid) ?? row, context, messageId(delivery.campaign, cid));
    }),
  );
}

function send(ctx: ServerContext, delivery: Delivery, row: ChannelRow, context: TemplateContext, id: string): TargetOutcome {
  const { settings, sender } = delivery;
  const receivers = ctx.store.channels.memberIds(row.cid).filter((userId) => userId !== sender.id).length;
  const existing = ctx.store.messages.get(id);
  if (existing) {
    // Sent before an interruption, not recorded: record it now.
    return { state: 'sent', cid: existing.cid, messageId: id, sentAt: existing.created_at, messages: 1, channels: 0, users: receivers };
  }
  const template = settings.message_template;
  const input: JsonObject = {
    // The template's custom fields are the message's; none of them may stand for a real field.
    ...withoutKeys(template.custom ?? {}, NOT_CUSTOM),
    id,
    text: delivery.text(context),
    ...(template.attachments ? { attachments: template.attachments } : {}),
  };
  sendMessage(ctx, row, delivery.actor, input, { keepHidden: !settings.show_channels });
  // A text that reads as a slash command is answered to the sender and not stored.
  const stored = ctx.store.messages.get(id);
  if (!stored) return skipped('the message was not stored (its text runs a command)');
  return { state: 'sent', cid: row.cid, messageId: id, sentAt: stored.created_at, messages: 1, channels: 0, users: receivers };
}

/** `sender_visibility` on a channel the campaign created: hidden or archived for the sender. */
function applySenderVisibility(ctx: ServerContext, settings: CampaignSettings, plan: ChannelPlan, sender: UserRow): void {
  const { store } = ctx;
  if (!store.channels.member(plan.row.cid, sender.id)) return;
  const now = new Date().toISOString();
  if (settings.sender_visibility === 'hidden' && store.channelAdmin.hide(plan.row.cid, sender.id, false, now)) {
    notifyChannelHidden(ctx, plan.row, sender.id, false);
  }
  if (settings.sender_visibility === 'archived') {
    const member = store.memberships.mark(plan.row.cid, sender.id, { archivedAt: now }, now);
    if (member) notifyMemberUpdated(ctx, plan.row, member);
  }
}

/** What `{{ channel.… }}` reads: the channel's own fields over its custom data. */
function channelContext(row: ChannelRow): Record<string, unknown> {
  return { ...(JSON.parse(row.custom) as object), id: row.id, type: row.type, cid: row.cid, name: row.name ?? undefined, member_count: row.member_count };
}

function skipped(reason: string): TargetOutcome {
  return { state: 'skipped', reason, messages: 0, channels: 0, users: 0 };
}

/** A refusal of this one target (a ban, a frozen channel, a bad id) skips it; anything else is the run's. */
function attempt(work: () => TargetOutcome): TargetOutcome {
  try {
    return work();
  } catch (error) {
    if (error instanceof ApiError) return skipped(error.message);
    throw error;
  }
}
