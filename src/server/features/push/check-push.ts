// `POST /check_push` (testPushSettings): renders the push a message would make for a user, with
// the configured templates or the request's, and (unless `skip_devices`) sends it to each of the
// user's devices for real, reporting what failed per device. The message may be a /giphy preview
// still waiting to be sent; without `message_id` a sample message stands in.
import type { CheckPushResponse, MessageResponse, UserResponse } from 'stream-chat';
import { userActor } from '../../auth/actor';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { optionalBoolean, optionalString, requiredString, type JsonObject } from '../../http/input';
import { Presenter } from '../../present/presenter';
import type { ChannelRow } from '../../store/channels';
import { presentDevice } from '../../present/push';
import { providerFor, providerName, providerType, type ProviderConfig } from './provider-config';
import { getPreview, previewMessage } from '../commands/giphy-previews';
import { configuredProviders } from './push-delivery';
import { pushOptions } from './push-options';
import { pushContext, renderApn, renderFirebase, renderPush, renderSample, type TemplateOverrides } from './render-push';
import { sendPush } from './senders';
import { TemplateError } from './template';

/** The SDK gives up on a request after 3 s; the sends answer within that. */
const CHECK_TIMEOUT_MS = 2500;

type CheckPushResult = Omit<CheckPushResponse, 'duration'>;

function template(value: unknown, name: string): string | undefined {
  const text = optionalString(value, name) || undefined;
  if (text === undefined) return undefined;
  try {
    renderSample(text);
  } catch (error) {
    throw ApiError.input(`${name} is not a valid template: ${error instanceof TemplateError || error instanceof SyntaxError ? error.message : String(error)}`);
  }
  return text;
}

function sampleChannel(now: string): ChannelRow {
  return {
    cid: 'messaging:push-check', type: 'messaging', id: 'push-check', name: 'Push check', custom: '{}', created_by_id: null,
    member_count: 1, created_at: now, updated_at: now, last_message_at: now, frozen: 0, disabled: 0, cooldown: 0,
    deleted_at: null, truncated_at: null,
  };
}

export async function checkPush(ctx: ServerContext, body: JsonObject): Promise<CheckPushResult> {
  const userId = requiredString(body.user_id, 'user_id');
  const messageId = optionalString(body.message_id, 'message_id') || undefined;
  const overrides: TemplateOverrides = {};
  const apn = template(body.apn_template, 'apn_template');
  const firebase = template(body.firebase_template, 'firebase_template');
  const firebaseData = template(body.firebase_data_template, 'firebase_data_template');
  if (apn) overrides.apn = apn;
  if (firebase) overrides.firebase = firebase;
  if (firebaseData) overrides.firebaseData = firebaseData;
  const skipDevices = optionalBoolean(body.skip_devices, 'skip_devices') ?? false;
  const type = body.push_provider_type === undefined || body.push_provider_type === null || body.push_provider_type === ''
    ? undefined
    : providerType(body.push_provider_type, 'push_provider_type');
  const name = body.push_provider_name === undefined || body.push_provider_name === null || body.push_provider_name === ''
    ? undefined
    : providerName(body.push_provider_name, 'push_provider_name');

  const user = ctx.store.users.get(userId);
  if (!user) throw ApiError.input(`user ${userId} does not exist`);
  const presenter = new Presenter(ctx);
  const now = new Date().toISOString();
  let channel = sampleChannel(now);
  let message: MessageResponse | Record<string, unknown>;
  let sender: UserResponse;
  const row = messageId ? ctx.store.messages.get(messageId) : undefined;
  // A /giphy preview waiting to be sent is a message too, kept in memory, not stored.
  const preview = messageId && !row ? getPreview(ctx, messageId) : undefined;
  const previewAuthor = preview ? ctx.store.users.get(preview.userId) : undefined;
  const previewChannel = preview ? ctx.store.channels.get(preview.cid) : undefined;
  if (preview && previewAuthor && previewChannel && !previewChannel.deleted_at) {
    channel = previewChannel;
    message = previewMessage(presenter, channel, userActor(previewAuthor), preview);
    sender = presenter.user(preview.userId);
  } else if (messageId) {
    const stored = row ? ctx.store.channels.get(row.cid) : undefined;
    if (!row || !stored || row.deleted_at) throw ApiError.input(`message ${messageId} does not exist`);
    channel = stored;
    message = presenter.messages([row])[0] ?? {};
    sender = presenter.user(row.user_id);
  } else {
    sender = { id: 'push-check', name: 'Push check', role: 'user' } as UserResponse;
    message = { id: 'push-check-message', text: 'This is a test push from the chat backend', type: 'regular', user: sender, created_at: now };
  }
  const memberIds = messageId ? ctx.store.channels.members(channel.cid, 101, 0).map((m) => m.user_id).filter((id) => id !== sender.id) : [];
  presenter.preloadUsers(memberIds);
  const context = pushContext(channel, message, sender, presenter.user(userId), memberIds.slice(0, 100).map((id) => presenter.user(id)), ctx.store.reads.summary(userId));

  const generalErrors: string[] = [];
  const all = configuredProviders(ctx).filter((provider) => !provider.disabled_at);
  const chosen = all.filter((provider) => (!type || provider.type === type) && (!name || provider.name === name));
  if (!all.length) generalErrors.push('no push providers are configured');
  else if (!chosen.length) generalErrors.push(`no push provider${type ? ` of type ${type}` : ''}${name ? ` named ${name}` : ''} is configured`);
  const apnProvider = chosen.find((provider) => provider.type === 'apn');
  const firebaseProvider = chosen.find((provider) => provider.type === 'firebase');

  const result: CheckPushResult = { rendered_message: message, skip_devices: skipDevices };
  try {
    if (apnProvider || overrides.apn) result.rendered_apn_template = JSON.stringify(renderApn(apnProvider, context, overrides));
    if (firebaseProvider || overrides.firebase || overrides.firebaseData) {
      result.rendered_firebase_template = JSON.stringify(renderFirebase(firebaseProvider, context, overrides));
    }
  } catch (error) {
    generalErrors.push(`the template could not be rendered for this message: ${error instanceof Error ? error.message : String(error)}`);
  }

  if (!skipDevices) {
    const devices = ctx.store.devices.ofUser(userId);
    const errors: NonNullable<CheckPushResponse['device_errors']> = {};
    if (!devices.some((device) => !device.disabled_reason)) generalErrors.push(`user ${userId} has no enabled devices`);
    await Promise.all(devices.map(async (device) => {
      const shown = presentDevice(device);
      const fail = (error_message: string, provider?: ProviderConfig) => {
        errors[device.id] = { error_message, provider: shown.push_provider, ...(provider || device.push_provider_name ? { provider_name: provider?.name ?? device.push_provider_name ?? '' } : {}) };
      };
      if (device.disabled_reason) return fail(`the device is disabled: ${device.disabled_reason}`);
      const provider = providerFor(chosen.length ? chosen : all, device.push_provider, device.push_provider_name);
      if (!provider) return fail(`no ${device.push_provider} push provider${device.push_provider_name ? ` named ${device.push_provider_name}` : ''} is configured`);
      let payload: Record<string, unknown>;
      try {
        payload = renderPush(provider, context, overrides).payload;
      } catch (error) {
        return fail(`the template could not be rendered: ${error instanceof Error ? error.message : String(error)}`, provider);
      }
      const sent = await sendPush(provider, device.id, payload, Math.min(CHECK_TIMEOUT_MS, pushOptions(ctx).timeoutMs));
      if (sent.ok) return undefined;
      if (sent.deviceGone) ctx.store.devices.disable(device.id, sent.error);
      return fail(sent.error, provider);
    }));
    if (Object.keys(errors).length) result.device_errors = errors;
  }
  if (generalErrors.length) result.general_errors = generalErrors;
  return result;
}
