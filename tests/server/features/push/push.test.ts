// Push notifications for real: a server-side client configures providers pointing at receivers
// on localhost, visitors register devices, and a message from one member reaches the others'
// devices through FCM v1 and APNs as those APIs take it, unless preferences, mutes or
// skip_push say otherwise. Also check_push, check_sqs and check_sns.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importSPKI, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, StreamChat } from 'stream-chat';
import { createUsers, startHarness, type Harness } from '../../helpers';
import { apnReceiver, firebaseReceiver, until } from '../../push-receiver';
import { sleep } from '../../scenes';

let harness: Harness;
let fcm: Awaited<ReturnType<typeof firebaseReceiver>>;
let apns: Awaited<ReturnType<typeof apnReceiver>>;
let alice: StreamChat;
let bob: StreamChat;
let room: Channel;

beforeAll(async () => {
  harness = await startHarness({ push: { baseDelayMs: 50, maxDelayMs: 100 } });
  fcm = await firebaseReceiver();
  apns = await apnReceiver();
  await createUsers(harness, 'alice', 'bob', 'carol', 'dave');
  await harness.admin.channel('messaging', 'push-room', { members: ['alice', 'bob', 'carol', 'dave'], created_by_id: 'alice' }).create();
  alice = await harness.connect('alice');
  bob = await harness.connect('bob');
  room = alice.channel('messaging', 'push-room');
  await room.watch();
});

afterAll(async () => {
  await harness?.close();
  await fcm?.close();
  await apns?.close();
});

const firebaseProvider = () => ({ type: 'firebase' as const, name: 'android', firebase_credentials: fcm.credentials, base_url: fcm.url });

/** Pushes FCM received for a device token. */
const fcmTo = (token: string) => fcm.sends.filter((send) => send.json.message.token === token);
/** Whether FCM received a push of this message for this device token. */
const pushed = (token: string, messageId: string) => fcmTo(token).some((send) => send.json.message.data.id === messageId);

let markers = 0;

/**
 * Sends `message` as alice, then a marker message that carol's device is sure to get: once the
 * marker's push has arrived (and a moment more, for sends in the same batch), the first message's
 * pushes have been decided.
 */
async function sendThenMarker(message: Parameters<Channel['sendMessage']>[0], options?: Parameters<Channel['sendMessage']>[1]): Promise<string> {
  const sent = await room.sendMessage(message, options);
  const marker = `marker ${++markers}`;
  await room.sendMessage({ text: marker });
  await until(() => fcmTo('carol-phone').some((send) => send.json.message.apns.payload.aps.alert.body === marker), `the push of "${marker}"`);
  await sleep(150);
  return sent.message.id;
}

describe('push providers (server-side)', () => {
  it('upserts, lists and deletes providers, checking their credentials', async () => {
    const created = await harness.admin.upsertPushProvider({ ...firebaseProvider(), name: 'temp' } as never);
    expect((created.push_provider as unknown as { name: string; type: string }).name).toBe('temp');
    const listed = await harness.admin.listPushProviders();
    expect((listed.push_providers as unknown as { name: string }[]).map((p) => p.name)).toContain('temp');
    await harness.admin.deletePushProvider({ type: 'firebase', name: 'temp' });
    const after = await harness.admin.listPushProviders();
    expect((after.push_providers as unknown as { name: string }[]).map((p) => p.name)).not.toContain('temp');
    await expect(harness.admin.deletePushProvider({ type: 'firebase', name: 'temp' })).rejects.toMatchObject({ code: 16, status: 404 });

    await expect(harness.admin.upsertPushProvider({ type: 'firebase', name: 'bad' } as never)).rejects.toMatchObject({ code: 4, status: 400 });
    await expect(
      harness.admin.upsertPushProvider({ type: 'firebase', name: 'bad', firebase_credentials: '{"project_id":"p"}' } as never),
    ).rejects.toMatchObject({ code: 4 });
    await expect(
      harness.admin.upsertPushProvider({ type: 'apn', name: 'bad', apn_auth_key: 'not a key', apn_key_id: 'K', apn_team_id: 'T', apn_topic: 'x' } as never),
    ).rejects.toMatchObject({ code: 4 });
    await expect(
      harness.admin.upsertPushProvider({ ...firebaseProvider(), name: 'bad', firebase_notification_template: '{"title": "{{#if x}}"}' } as never),
    ).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.upsertPushProvider({ type: 'nokia', name: 'x' } as never)).rejects.toMatchObject({ code: 4 });
    // A visitor cannot touch providers.
    await expect(alice.listPushProviders()).rejects.toMatchObject({ code: 17, status: 403 });
  });

  it('sends nothing while no provider is configured', async () => {
    await bob.addDevice('bob-phone', 'firebase');
    await room.sendMessage({ text: 'before any provider' });
    await sleep(200);
    expect(fcm.sends).toHaveLength(0);
  });
});

describe('pushes for new messages', () => {
  beforeAll(async () => {
    await harness.admin.upsertPushProvider(firebaseProvider() as never);
    await harness.admin.upsertPushProvider({
      type: 'apn',
      name: 'ios',
      apn_auth_type: 'token',
      apn_auth_key: apns.authKey,
      apn_key_id: 'KEY123',
      apn_team_id: 'TEAM123',
      apn_topic: 'com.example.chat',
      base_url: apns.url,
    } as never);
    await alice.addDevice('alice-phone', 'firebase');
    await harness.admin.addDevice('carol-phone', 'firebase', 'carol');
    await harness.admin.addDevice('a'.repeat(64), 'apn', 'dave');
  });

  it('sends one FCM v1 request to a member\'s device with the rendered payload, none to the sender', async () => {
    const { message } = await room.sendMessage({ text: 'Hello "Bob"' });
    await until(() => fcmTo('bob-phone').length === 1, 'bob\'s push');
    await sleep(100);
    const [push] = fcmTo('bob-phone');
    expect(push?.path).toBe('/v1/projects/test-project/messages:send');
    expect(push?.headers.authorization).toBe('Bearer fcm-access-token');
    expect(push?.json.message).toMatchObject({
      token: 'bob-phone',
      data: { type: 'message.new', id: message.id, message_id: message.id, cid: 'messaging:push-room', receiver_id: 'bob', sender: 'stream.chat' },
      android: { priority: 'high' },
      apns: { payload: { aps: { alert: { title: 'New message from Alice', body: 'Hello "Bob"' }, badge: expect.any(Number) } } },
    });
    expect(fcmTo('bob-phone')).toHaveLength(1);
    expect(fcmTo('alice-phone')).toHaveLength(0);

    // The access token came from the service account: an RS256 assertion signed with its key.
    const exchange = fcm.tokenRequests[0];
    expect(exchange?.json.grant_type).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const { payload } = await jwtVerify(exchange?.json.assertion, await importSPKI(fcm.publicKey, 'RS256'), { audience: `${fcm.url}/token` });
    expect(payload).toMatchObject({ iss: 'push@test-project.iam.gserviceaccount.com', scope: 'https://www.googleapis.com/auth/firebase.messaging' });
    expect(fcm.tokenRequests).toHaveLength(1);
  });

  it('sends APNs\' POST /3/device/{token} over HTTP/2 with a provider token', async () => {
    await room.sendMessage({ text: 'to the iPhone' });
    await until(() => apns.sends.some((send) => send.json.aps.alert.body === 'to the iPhone'), 'the APNs push');
    const push = apns.sends.find((send) => send.json.aps.alert.body === 'to the iPhone');
    expect(push?.path).toBe(`/3/device/${'a'.repeat(64)}`);
    expect(push?.headers['apns-topic']).toBe('com.example.chat');
    expect(push?.headers['apns-push-type']).toBe('alert');
    const jwt = String(push?.headers.authorization).replace(/^bearer /, '');
    const { payload, protectedHeader } = await jwtVerify(jwt, await importSPKI(apns.publicKey, 'ES256'));
    expect(protectedHeader.kid).toBe('KEY123');
    expect(payload.iss).toBe('TEAM123');
    expect(push?.json).toMatchObject({ aps: { alert: { title: 'New message from Alice', body: 'to the iPhone' } }, stream: { cid: 'messaging:push-room' } });
  });

  it('sends a reply kept in its thread to the thread\'s participants only', async () => {
    const carolRoom = harness.admin.channel('messaging', 'push-room');
    const { message: parent } = await carolRoom.sendMessage({ text: 'a question', user_id: 'carol' });
    const { message: reply } = await room.sendMessage({ text: 'an answer', parent_id: parent.id });
    await until(() => fcmTo('carol-phone').some((send) => send.json.message.data.id === reply.id), 'the reply\'s push to carol');
    await sleep(150);
    expect(fcm.sends.filter((send) => send.json.message.data.id === reply.id).map((send) => send.json.message.token)).toEqual(['carol-phone']);
  });

  it('sends nothing for skip_push', async () => {
    const quiet = await sendThenMarker({ text: 'quiet' }, { skip_push: true });
    expect(pushed('bob-phone', quiet)).toBe(false);
    expect(pushed('carol-phone', quiet)).toBe(false);
  });

  it('follows the user\'s chat_level: none, then mentions', async () => {
    await bob.setPushPreferences([{ chat_level: 'none' }]);
    expect(pushed('bob-phone', await sendThenMarker({ text: 'nobody hears this' }))).toBe(false);

    await bob.setPushPreferences([{ chat_level: 'mentions' }]);
    expect(pushed('bob-phone', await sendThenMarker({ text: 'not for bob' }))).toBe(false);
    const { message } = await room.sendMessage({ text: '@Bob look', mentioned_users: ['bob'] });
    await until(() => pushed('bob-phone', message.id), 'the mention\'s push');
    await bob.setPushPreferences([{ chat_level: 'all' }]);
  });

  it('snoozes with disabled_until, and remove_disable ends the snooze', async () => {
    const snooze = await bob.setPushPreferences([{ disabled_until: new Date(Date.now() + 3_600_000).toISOString() }]);
    expect(snooze.user_preferences.bob?.disabled_until).toBeDefined();
    expect(pushed('bob-phone', await sendThenMarker({ text: 'while snoozed' }))).toBe(false);
    await bob.setPushPreferences([{ remove_disable: true }]);
    const { message } = await room.sendMessage({ text: 'awake again' });
    await until(() => pushed('bob-phone', message.id), 'the push after the snooze');
  });

  it('follows a channel\'s own level over the user\'s', async () => {
    const answer = await bob.setPushPreferences([{ channel_cid: 'messaging:push-room', chat_level: 'none' }]);
    expect(answer.user_channel_preferences.bob?.['messaging:push-room']).toEqual({ chat_level: 'none' });
    expect(pushed('bob-phone', await sendThenMarker({ text: 'channel says none' }))).toBe(false);
    await bob.setPushPreferences([{ channel_cid: 'messaging:push-room', chat_level: 'default' }]);
  });

  it('sends nothing to a member who muted the channel, or the sender', async () => {
    await bob.channel('messaging', 'push-room').mute();
    expect(pushed('bob-phone', await sendThenMarker({ text: 'muted channel' }))).toBe(false);
    await bob.channel('messaging', 'push-room').unmute();

    await bob.muteUser('alice');
    expect(pushed('bob-phone', await sendThenMarker({ text: 'muted sender' }))).toBe(false);
    await bob.unmuteUser('alice');
  });

  it('disables a device whose token the provider calls unregistered', async () => {
    await harness.admin.addDevice('stale-phone', 'firebase', 'carol');
    fcm.unregistered.add('stale-phone');
    await room.sendMessage({ text: 'to a stale phone' });
    await until(() => fcmTo('carol-phone').some((s) => s.json.message.apns.payload.aps.alert.body === 'to a stale phone'), 'carol\'s push');
    await sleep(150);
    const { devices } = await harness.admin.getDevices('carol');
    expect(devices?.find((d) => d.id === 'stale-phone')).toMatchObject({ disabled: true, disabled_reason: expect.stringContaining('UNREGISTERED') });
    // A disabled device is sent nothing more.
    await sendThenMarker({ text: 'after the stale phone' });
    expect(fcm.sends.filter((send) => send.json.message.token === 'stale-phone')).toHaveLength(0);
  });
});

describe('check_push', () => {
  it('renders the templates for a message and the user\'s devices, and sends to them', async () => {
    const { message } = await room.sendMessage({ text: 'check this' });
    const answer = await harness.admin.testPushSettings('bob', { messageID: message.id });
    expect(answer.general_errors).toBeUndefined();
    expect(answer.device_errors).toBeUndefined();
    expect(JSON.parse(answer.rendered_firebase_template ?? '{}')).toMatchObject({
      data: { id: message.id, receiver_id: 'bob' },
      apns: { payload: { aps: { alert: { body: 'check this' } } } },
    });
    expect(JSON.parse(answer.rendered_apn_template ?? '{}')).toMatchObject({ aps: { alert: { title: 'New message from Alice' } } });
    expect(answer.rendered_message).toMatchObject({ id: message.id, text: 'check this' });
    // The check itself went to bob's device, on top of the message's own push.
    await until(() => fcmTo('bob-phone').filter((send) => send.json.message.data.id === message.id).length === 2, 'the test push');
  });

  it('takes the request\'s templates, skips devices when asked, and reports what is missing', async () => {
    const answer = await harness.admin.testPushSettings('bob', {
      apnTemplate: '{"aps":{"alert":"{{ sender.name }} says {{ truncate message.text 4 }}"}}',
      skipDevices: true,
    });
    expect(answer.skip_devices).toBe(true);
    expect(JSON.parse(answer.rendered_apn_template ?? '{}')).toEqual({ aps: { alert: 'Push check says This...' } });

    await createUsers(harness, 'erin');
    const none = await harness.admin.testPushSettings('erin');
    expect(none.general_errors).toEqual(['user erin has no enabled devices']);
    await harness.admin.addDevice('erin-phone', 'huawei', 'erin');
    const missing = await harness.admin.testPushSettings('erin', { pushProviderType: 'firebase' });
    expect(missing.device_errors?.['erin-phone']).toMatchObject({ provider: 'huawei', error_message: expect.stringContaining('no huawei push provider') });

    await expect(harness.admin.testPushSettings('bob', { apnTemplate: '{{#each x}}' })).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.testPushSettings('bob', { messageID: 'nope' })).rejects.toMatchObject({ code: 4 });
    await expect(harness.admin.testPushSettings('nobody')).rejects.toMatchObject({ code: 4 });
    await expect(bob.testPushSettings('bob')).rejects.toMatchObject({ code: 17 });
  });
});

/** An SQS/SNS stand-in on localhost. */
async function awsReceiver() {
  const received: { headers: IncomingHttpHeaders; form: Record<string, string> }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, form: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) });
      res.writeHead(200, { 'content-type': 'text/xml' }).end('<SendMessageResponse><MessageId>1</MessageId></SendMessageResponse>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('check_sqs and check_sns', () => {
  it('report a missing or unreachable configuration as the provider does', async () => {
    expect(await harness.admin.testSQSSettings()).toMatchObject({ status: 'error', error: expect.stringContaining('sqs_url') });
    expect(await harness.admin.testSNSSettings()).toMatchObject({ status: 'error', error: expect.stringContaining('sns_topic_arn') });
    const remote = await harness.admin.testSQSSettings({ sqs_url: 'https://sqs.us-east-1.amazonaws.com/123456789012/chat', sqs_key: 'k', sqs_secret: 's' });
    expect(remote).toMatchObject({ status: 'error', error: expect.stringContaining('cannot be reached') });
    const topic = await harness.admin.testSNSSettings({ sns_topic_arn: 'arn:aws:sns:us-east-1:123456789012:chat', sns_key: 'k', sns_secret: 's' });
    expect(topic).toMatchObject({ status: 'error', error: expect.stringContaining('sns.us-east-1.amazonaws.com') });
    expect(await harness.admin.testSNSSettings({ sns_topic_arn: 'not-an-arn', sns_key: 'k', sns_secret: 's' })).toMatchObject({ status: 'error' });
    const dead = await harness.admin.testSQSSettings({ sqs_url: 'http://127.0.0.1:9/queue', sqs_key: 'k', sqs_secret: 's' });
    expect(dead).toMatchObject({ status: 'error', error: expect.stringContaining('unreachable') });
    await expect(alice.testSQSSettings()).rejects.toMatchObject({ code: 17 });
  });

  it('send a signed test message to a queue on localhost, from the app settings', async () => {
    const aws = await awsReceiver();
    try {
      await harness.admin.updateAppSettings({ sqs_url: `${aws.url}/000000000000/chat`, sqs_key: 'AKIDEXAMPLE', sqs_secret: 'secret' });
      expect(await harness.admin.testSQSSettings()).toMatchObject({ status: 'ok' });
      expect(aws.received[0]?.form).toMatchObject({ Action: 'SendMessage', Version: '2012-11-05' });
      expect(aws.received[0]?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/sqs\/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=[0-9a-f]{64}$/);
      const sns = await harness.admin.testSNSSettings({
        sns_topic_arn: 'arn:aws:sns:eu-west-1:000000000000:chat', sns_key: 'AKIDEXAMPLE', sns_secret: 'secret', sns_endpoint: aws.url,
      } as never);
      expect(sns).toMatchObject({ status: 'ok' });
      expect(aws.received[1]?.form).toMatchObject({ Action: 'Publish', TopicArn: 'arn:aws:sns:eu-west-1:000000000000:chat' });
    } finally {
      await aws.close();
    }
  });
});
