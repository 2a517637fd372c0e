// What a push carries, rendered from the provider's templates (or its defaults) for one message
// and one receiver. The context holds the variables the provider documents: channel, sender,
// receiver, message, members, otherMembers, unread_count, unread_channels, event_type.
import type { MessageResponse, PushProviderConfig, UserResponse } from 'stream-chat';
import type { ChannelRow } from '../../store/channels';
import { compileTemplate } from './template';

export type PushContext = {
  event_type: string;
  channel: Record<string, unknown>;
  sender: UserResponse;
  receiver: UserResponse;
  message: MessageResponse | Record<string, unknown>;
  members: UserResponse[];
  otherMembers: UserResponse[];
  unread_count: number;
  unread_channels: number;
};

/** The provider's default APNs payload (push v3). */
export const DEFAULT_APN_TEMPLATE = `{
  "aps": {
    "alert": { "title": "New message from {{ sender.name }}", "body": "{{ truncate message.text 200 }}" },
    "badge": {{ unread_count }},
    "sound": "default",
    "mutable-content": 1,
    "content-available": 0
  },
  "stream": {
    "sender": "stream.chat",
    "type": "{{ event_type }}",
    "version": "v2",
    "id": "{{ message.id }}",
    "cid": "{{ channel.cid }}"
  }
}`;

/** The provider's default data payload: what its SDKs read to fetch the message themselves. */
export const DEFAULT_DATA_TEMPLATE = `{
  "version": "v2",
  "sender": "stream.chat",
  "type": "{{ event_type }}",
  "id": "{{ message.id }}",
  "message_id": "{{ message.id }}",
  "channel_type": "{{ channel.type }}",
  "channel_id": "{{ channel.id }}",
  "cid": "{{ channel.cid }}",
  "receiver_id": "{{ receiver.id }}"
}`;

export type TemplateOverrides = { apn?: string; firebase?: string; firebaseData?: string };

/** A rendered push: the request body's message part, as the provider's API takes it. */
export type RenderedPush = { type: string; payload: Record<string, unknown> };

function renderJson(template: string, context: unknown): Record<string, unknown> {
  const parsed = JSON.parse(compileTemplate(template)(context)) as unknown;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new SyntaxError('the template must render a JSON object');
  return parsed as Record<string, unknown>;
}

/** FCM's `data` holds strings only. */
function stringMap(data: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]));
}

function alertOf(apn: Record<string, unknown>): { title: string; body: string } {
  const aps = (apn.aps ?? {}) as { alert?: { title?: unknown; body?: unknown } | string };
  const alert = typeof aps.alert === 'string' ? { body: aps.alert } : aps.alert ?? {};
  return { title: String(alert.title ?? ''), body: String(alert.body ?? '') };
}

/** The APNs payload for this provider (an APNs provider's template, or Firebase's for iOS). */
export function renderApn(provider: PushProviderConfig | undefined, context: PushContext, overrides: TemplateOverrides = {}) {
  const template = overrides.apn ?? provider?.apn_notification_template ?? provider?.firebase_apn_template ?? DEFAULT_APN_TEMPLATE;
  return renderJson(template, context);
}

/** FCM v1's `message` without its `token`: data, Android priority, the APNs payload, a notification when templated. */
export function renderFirebase(provider: PushProviderConfig | undefined, context: PushContext, overrides: TemplateOverrides = {}) {
  const data = stringMap(renderJson(overrides.firebaseData ?? provider?.firebase_data_template ?? DEFAULT_DATA_TEMPLATE, context));
  const notification = overrides.firebase ?? provider?.firebase_notification_template;
  return {
    data,
    ...(notification ? { notification: renderJson(notification, context) } : {}),
    android: { priority: 'high' },
    apns: { payload: renderApn(provider, context, overrides) },
  };
}

export function renderPush(provider: PushProviderConfig, context: PushContext, overrides: TemplateOverrides = {}): RenderedPush {
  switch (provider.type) {
    case 'apn':
      return { type: 'apn', payload: renderApn(provider, context, overrides) };
    case 'firebase':
      return { type: 'firebase', payload: renderFirebase(provider, context, overrides) };
    default: {
      // Huawei and Xiaomi take a title and body plus the same data the SDKs read.
      const { title, body } = alertOf(renderApn(undefined, context));
      return { type: provider.type, payload: { title, body, data: stringMap(renderJson(DEFAULT_DATA_TEMPLATE, context)) } };
    }
  }
}

/** The context for one receiver; `members` excludes the sender. */
export function pushContext(
  channel: ChannelRow,
  message: MessageResponse | Record<string, unknown>,
  sender: UserResponse,
  receiver: UserResponse,
  members: UserResponse[],
  unread: { total: number; channels: number },
): PushContext {
  return {
    event_type: 'message.new',
    channel: {
      ...(JSON.parse(channel.custom) as Record<string, unknown>),
      id: channel.id,
      type: channel.type,
      cid: channel.cid,
      ...(channel.name !== null ? { name: channel.name } : {}),
      member_count: channel.member_count,
      created_at: channel.created_at,
      updated_at: channel.updated_at,
    },
    sender,
    receiver,
    message,
    members,
    otherMembers: members.filter((member) => member.id !== receiver.id),
    unread_count: unread.total,
    unread_channels: unread.channels,
  };
}

const SAMPLE_USER = { id: 'sample-user', name: 'Sample "User"', role: 'user' } as UserResponse;
const SAMPLE: PushContext = {
  event_type: 'message.new',
  channel: { id: 'sample', type: 'messaging', cid: 'messaging:sample', name: 'Sample', member_count: 2 },
  sender: SAMPLE_USER,
  receiver: { id: 'sample-receiver', name: 'Receiver', role: 'user' } as UserResponse,
  message: { id: 'sample-message', text: 'Sample "text"\nwith a line break', type: 'regular', user: SAMPLE_USER },
  members: [SAMPLE_USER],
  otherMembers: [],
  unread_count: 1,
  unread_channels: 1,
};

/** Renders a template against a sample context; throws when it fails or is not a JSON object. */
export function renderSample(template: string): void {
  renderJson(template, SAMPLE);
}
