// Pending messages through the real SDK: the site's server sends a message for Ann with
// `pending: true` and metadata; Bob, connected and watching, never sees it (no event, no webhook,
// no push, not in his queries, search, unread counts or threads) while Ann finds it in her own
// queries (`pending_messages` with the metadata); `commitMessage` then delivers it and Bob gets
// message.new live, as for a send. Errors as the provider's docs give them: a second commit, a
// message that was never pending, someone else's, client-side `pending`, edits, reactions and
// soft deletes of a pending message; malformed input is the provider's error JSON.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, Event, StreamChat } from 'stream-chat';
import { collectEvents, createUsers, nextEvent, signToken, startHarness, type Harness, failure } from '../../helpers';
import { firebaseReceiver, until } from '../../push-receiver';
import { sleep } from '../../scenes';

let harness: Harness;
let admin: StreamChat;
let ann: StreamChat;
let bob: StreamChat;
let annChannel: Channel;
let bobChannel: Channel;
let fcm: Awaited<ReturnType<typeof firebaseReceiver>>;
let hooks: Server;
const hooked: Event[] = [];

beforeAll(async () => {
  harness = await startHarness({ webhooks: { baseDelayMs: 50, maxDelayMs: 200, timeoutMs: 1000 }, push: { baseDelayMs: 50, maxDelayMs: 100 } });
  admin = harness.admin;
  await createUsers(harness, 'ann', 'bob', 'carol');
  await admin.channel('messaging', 'orders', { members: ['ann', 'bob'], created_by_id: 'ann' } as never).create();
  ann = await harness.connect('ann');
  bob = await harness.connect('bob');
  annChannel = ann.channel('messaging', 'orders');
  bobChannel = bob.channel('messaging', 'orders');
  await annChannel.watch();
  await bobChannel.watch();

  hooks = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (admin.verifyWebhook(body, String(req.headers['x-signature']))) hooked.push(JSON.parse(body) as Event);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  await admin.updateAppSettings({ webhook_url: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks`, webhook_events: [] });
  fcm = await firebaseReceiver();
  await admin.upsertPushProvider({ type: 'firebase', name: 'android', firebase_credentials: fcm.credentials, base_url: fcm.url } as never);
  await bob.addDevice('bob-phone', 'firebase');
});

afterAll(async () => {
  await harness?.close();
  await fcm?.close();
  await new Promise<void>((resolve) => hooks?.close(() => resolve()));
});

/** What a failed SDK call carries: the HTTP status and the provider's error code and message. */

/** Sends for Ann, pending, from the site's server. */
function sendPending(id: string, text: string, extra: Record<string, unknown> = {}, metadata?: Record<string, string>) {
  return admin.channel('messaging', 'orders').sendMessage(
    { id, text, user_id: 'ann', ...extra },
    { pending: true, ...(metadata ? { pending_message_metadata: metadata } : {}) },
  );
}

describe('a pending message', () => {
  it('reaches nobody until it is committed, then reaches Bob live as message.new; webhooks and push only then', async () => {
    const bobEvents = collectEvents(bob, 'all' as never);
    const annEvents = collectEvents(ann, 'all' as never);
    const { total_unread_count: unreadBefore } = await bob.getUnreadCount();

    const sent = await sendPending('order-42', 'Your order zebracorn is confirmed', {}, { order: '42', total: '19.90' });
    expect(sent.message).toMatchObject({ id: 'order-42', text: 'Your order zebracorn is confirmed', user: { id: 'ann' } });
    expect(sent.pending_message_metadata).toEqual({ order: '42', total: '19.90' });

    await sleep(400);
    const about = (events: Event[]) => events.filter((e) => e.message?.id === 'order-42' || e.message_id === 'order-42');
    expect(about(bobEvents.events)).toEqual([]);
    expect(about(annEvents.events)).toEqual([]);
    expect(hooked.filter((e) => e.message?.id === 'order-42')).toEqual([]);
    expect(fcm.sends).toEqual([]);

    // Bob: not in his channel query, not by id, not in search, no unread.
    const bobView = await bob.channel('messaging', 'orders').query({ messages: { limit: 50 } });
    expect(bobView.messages.map((m) => m.id)).not.toContain('order-42');
    expect(bobView.pending_messages ?? []).toEqual([]);
    expect(await failure(bob.getMessage('order-42'))).toMatchObject({ status: 404, code: 16 });
    expect((await bob.search({ cid: 'messaging:orders' }, 'zebracorn')).results).toEqual([]);
    expect((await bob.getUnreadCount()).total_unread_count).toBe(unreadBefore);
    expect(bobChannel.state.messages.map((m) => m.id)).not.toContain('order-42');

    // Ann: as the provider shows it, her own pending messages with their metadata.
    const annView = await ann.channel('messaging', 'orders').query({ messages: { limit: 50 } });
    expect(annView.pending_messages).toEqual([
      { message: expect.objectContaining({ id: 'order-42', text: 'Your order zebracorn is confirmed' }), pending_message_metadata: { order: '42', total: '19.90' } },
    ]);
    expect(annView.messages.map((m) => m.id)).toContain('order-42');
    expect((await ann.getMessage('order-42')).message.text).toBe('Your order zebracorn is confirmed');
    expect((await ann.search({ cid: 'messaging:orders' }, 'zebracorn')).results.map((r) => r.message.id)).toEqual(['order-42']);

    // The commit: Bob hears it live, as for any send, and so do webhooks and push.
    const bobHears = nextEvent(bob, 'message.new', (e) => e.message?.id === 'order-42');
    const committed = (await admin.commitMessage('order-42')) as unknown as { message: { id: string; text: string; created_at: string } };
    expect(committed.message).toMatchObject({ id: 'order-42', text: 'Your order zebracorn is confirmed' });
    expect(Date.parse(committed.message.created_at)).toBeGreaterThan(Date.parse(sent.message.created_at as string));
    const heard = await bobHears;
    expect(heard).toMatchObject({ cid: 'messaging:orders', user: { id: 'ann' }, message: { id: 'order-42' } });
    expect(bobChannel.state.messages.at(-1)?.id).toBe('order-42');
    expect((await bob.getUnreadCount()).total_unread_count).toBe(unreadBefore + 1);
    expect((await bob.getMessage('order-42')).message.id).toBe('order-42');
    expect((await bob.search({ cid: 'messaging:orders' }, 'zebracorn')).results.map((r) => r.message.id)).toEqual(['order-42']);
    await until(() => hooked.some((e) => e.type === 'message.new' && e.message?.id === 'order-42'), 'the message.new webhook');
    await until(() => fcm.sends.length === 1, 'the push to Bob');
    expect(fcm.sends[0]?.json.message.token).toBe('bob-phone');
    const annAfter = await ann.channel('messaging', 'orders').query({ messages: { limit: 50 } });
    expect(annAfter.pending_messages).toEqual([]);
    expect(annAfter.messages.filter((m) => m.id === 'order-42')).toHaveLength(1);
    bobEvents.stop();
    annEvents.stop();

    // Only the first commit succeeds.
    expect(await failure(admin.commitMessage('order-42'))).toMatchObject({ status: 400, code: 4, message: expect.stringContaining('not pending') });
  });

  it('stays out of threads until committed: no reply count, no replies, no thread for Bob', async () => {
    const { message: parent } = await annChannel.sendMessage({ text: 'Which size?' });
    await sendPending('size-reply', 'Size M please', { parent_id: parent.id });
    expect((await bob.getMessage(parent.id)).message.reply_count).toBe(0);
    expect((await bob.channel('messaging', 'orders').getReplies(parent.id, {})).messages).toEqual([]);
    expect((await bob.queryThreads()).threads.map((t) => t.id)).not.toContain(parent.id);
    // Ann cannot build on it either: no reply to it, no quote of it.
    expect((await failure(annChannel.sendMessage({ text: 'and?', quoted_message_id: 'size-reply' }))).code).toBe(4);

    const bobHears = nextEvent(bob, 'message.new', (e) => e.message?.id === 'size-reply');
    await admin.commitMessage('size-reply');
    expect((await bobHears).message?.parent_id).toBe(parent.id);
    expect((await bob.getMessage(parent.id)).message.reply_count).toBe(1);
    expect((await bob.channel('messaging', 'orders').getReplies(parent.id, {})).messages.map((m) => m.id)).toEqual(['size-reply']);
  });

  it('may be committed by its author, but is nobody else\'s to see, commit or delete', async () => {
    await sendPending('ann-own', 'mine to release');
    expect(await failure(bob.commitMessage('ann-own'))).toMatchObject({ status: 404, code: 16 });
    expect(await failure(bob.deleteMessage('ann-own', true))).toMatchObject({ status: 404, code: 16 });
    const bobHears = nextEvent(bob, 'message.new', (e) => e.message?.id === 'ann-own');
    const { message } = (await ann.commitMessage('ann-own')) as unknown as { message: { id: string } };
    expect(message.id).toBe('ann-own');
    await bobHears;
    // A committed message of someone else: not pending, and not Bob's to commit anyway.
    expect(await failure(bob.commitMessage('ann-own'))).toMatchObject({ status: 400, code: 4 });
  });

  it('cannot be edited, reacted to or soft deleted; its author may hard delete it, and nobody is told', async () => {
    await sendPending('regret', 'oops');
    expect(await failure(ann.updateMessage({ id: 'regret', text: 'better' }))).toMatchObject({ status: 400, code: 4, message: expect.stringContaining('pending') });
    expect(await failure(ann.partialUpdateMessage('regret', { set: { text: 'better' } }))).toMatchObject({ status: 400, code: 4 });
    expect(await failure(annChannel.sendReaction('regret', { type: 'like' }))).toMatchObject({ status: 400, code: 4 });
    expect(await failure(ann.deleteMessage('regret'))).toMatchObject({ status: 400, code: 4, message: expect.stringContaining('hard') });
    const bobEvents = collectEvents(bob, 'message.deleted');
    const { message } = await ann.deleteMessage('regret', true);
    expect(message).toMatchObject({ id: 'regret', type: 'deleted' });
    await sleep(200);
    expect(bobEvents.events).toEqual([]);
    bobEvents.stop();
    expect((await ann.channel('messaging', 'orders').query({})).pending_messages).toEqual([]);
    expect(await failure(admin.commitMessage('regret'))).toMatchObject({ status: 400, code: 4 });
  });

  it('is a server-side feature: a client asking for pending is refused (403 code 17)', async () => {
    expect(await failure(annChannel.sendMessage({ text: 'sneaky' }, { pending: true }))).toMatchObject({ status: 403, code: 17 });
    expect(await failure(annChannel.sendMessage({ text: 'sneaky' }, { pending_message_metadata: { a: 'b' } }))).toMatchObject({ status: 403, code: 17 });
    // A plain message was never pending.
    const { message } = await annChannel.sendMessage({ text: 'plain' });
    expect(await failure(admin.commitMessage(message.id))).toMatchObject({ status: 400, code: 4, message: expect.stringContaining('not pending') });
    expect(await failure(admin.commitMessage('no-such-message'))).toMatchObject({ status: 404, code: 16 });
  });

  it('answers malformed input with the provider\'s error JSON, never a 500', async () => {
    const token = await signToken({ server: true });
    const cases: Array<[string, unknown]> = [
      ['/channels/messaging/orders/message', { message: { text: 'x', user_id: 'ann' }, pending: 'yes' }],
      ['/channels/messaging/orders/message', { message: { text: 'x', user_id: 'ann' }, pending: true, pending_message_metadata: 'meta' }],
      ['/channels/messaging/orders/message', { message: { text: 'x', user_id: 'ann' }, pending: true, pending_message_metadata: { n: 1 } }],
      ['/channels/messaging/orders/message', { message: { text: 'x', user_id: 'ann' }, pending_message_metadata: { a: 'b' } }],
      ['/messages/order-42/commit', '[1,2]'],
      ['/messages/order-42/commit', { user_id: 12 }],
    ];
    for (const [path, body] of cases) {
      const response = await harness.request(path, { token, body: body as object });
      expect({ path, body, status: response.status, code: response.body.code }).toEqual({ path, body, status: 400, code: 4 });
    }
  });
});
