// What one user does, the other sees by event: two real stream-chat clients on one backend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { API_KEY, collectEvents, createUsers, nextEvent, startHarness, type Harness } from '../helpers';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob', 'carol', 'erin', 'frank');
});

afterAll(async () => {
  await harness?.close();
});

/** `first` creates `id` with `second` as member; both watch it. */
async function sharedChannel(id: string, first = 'alice', second = 'bob') {
  const alice = await harness.connect(first);
  const bob = await harness.connect(second);
  const aliceChannel = alice.channel('messaging', id, { members: [first, second] });
  await aliceChannel.watch();
  const bobChannel = bob.channel('messaging', id);
  await bobChannel.watch();
  return { alice, bob, aliceChannel, bobChannel };
}

describe('realtime events', () => {
  it('delivers a message sent by one user to the other as message.new, keeping the client-generated id', async () => {
    const { aliceChannel, bobChannel } = await sharedChannel('deliver');
    const received = nextEvent(bobChannel, 'message.new');
    const echoed = nextEvent(aliceChannel, 'message.new');

    const sent = await aliceChannel.sendMessage({ id: 'alice-msg-1', text: 'Hi Bob!' });
    const event = await received;

    expect(sent.message.id).toBe('alice-msg-1');
    expect(event.message?.id).toBe('alice-msg-1');
    expect(event.message?.text).toBe('Hi Bob!');
    expect(event.message?.user?.id).toBe('alice');
    expect(event.user?.id).toBe('alice');
    expect(event).toMatchObject({ cid: 'messaging:deliver', channel_type: 'messaging', channel_id: 'deliver' });
    expect(event.watcher_count).toBe(2);
    // bob's own totals: one unread message in one channel.
    expect(event.unread_count).toBe(1);
    expect(event.unread_channels).toBe(1);
    expect((await echoed).message?.id).toBe('alice-msg-1');
    expect(bobChannel.state.latestMessages.map((m) => m.text)).toContain('Hi Bob!');
    expect(bobChannel.state.unreadCount).toBe(1);
  });

  it('gives each watcher of one message.new its own unread totals, the message itself the same for all', async () => {
    // Users of their own: ivy already has an unread message elsewhere, hal has none.
    await createUsers(harness, 'gina', 'hal', 'ivy');
    const gina = await harness.connect('gina');
    const hal = await harness.connect('hal');
    const ivy = await harness.connect('ivy');
    const elsewhere = gina.channel('messaging', 'grouped-elsewhere', { members: ['gina', 'ivy'] });
    await elsewhere.create();
    await elsewhere.sendMessage({ text: 'earlier' });
    const room = gina.channel('messaging', 'grouped', { members: ['gina', 'hal', 'ivy'] });
    await room.watch();
    const [halRoom, ivyRoom] = [hal.channel('messaging', 'grouped'), ivy.channel('messaging', 'grouped')];
    await Promise.all([halRoom.watch(), ivyRoom.watch()]);

    const [toGina, toHal, toIvy] = [room, halRoom, ivyRoom].map((channel) => nextEvent(channel, 'message.new'));
    await room.sendMessage({ id: 'grouped-1', text: 'to all three' });
    const [ginaSees, halSees, ivySees] = await Promise.all([toGina, toHal, toIvy]);
    expect(ginaSees).toMatchObject({ total_unread_count: 0, unread_channels: 0 });
    expect(halSees).toMatchObject({ total_unread_count: 1, unread_count: 1, unread_channels: 1 });
    expect(ivySees).toMatchObject({ total_unread_count: 2, unread_count: 2, unread_channels: 2 });
    for (const event of [ginaSees, halSees, ivySees]) {
      expect(event).toMatchObject({ type: 'message.new', cid: 'messaging:grouped', watcher_count: 3, message: { id: 'grouped-1', text: 'to all three' } });
    }
  });

  it('sends typing.start and typing.stop from one user to the other', async () => {
    const { aliceChannel, bobChannel } = await sharedChannel('typing');
    const started = nextEvent(bobChannel, 'typing.start');
    await aliceChannel.keystroke();
    expect((await started).user?.id).toBe('alice');
    expect(bobChannel.state.typing.alice).toBeDefined();

    const stopped = nextEvent(bobChannel, 'typing.stop');
    await aliceChannel.stopTyping();
    expect((await stopped).user?.id).toBe('alice');
    expect(bobChannel.state.typing.alice).toBeUndefined();
  });

  it('marks read: message.read to the other watcher, notification.mark_read to the reader, counts reset', async () => {
    // Users of their own, so that their unread totals count this channel only.
    const { aliceChannel: erinChannel, bobChannel: frankChannel } = await sharedChannel('reading', 'erin', 'frank');
    for (const text of ['one', 'two']) {
      const delivered = nextEvent(frankChannel, 'message.new');
      await erinChannel.sendMessage({ text });
      await delivered;
    }

    // A fresh connection for frank sees the unread state in `me` and in the channel response.
    const frankAgain = harness.client();
    const connected = await frankAgain.connectUser({ id: 'frank' }, harness.token('frank'));
    expect(connected?.me).toMatchObject({ unread_count: 2, total_unread_count: 2, unread_channels: 1 });
    const state = await frankAgain.channel('messaging', 'reading').query({});
    expect(state.read?.find((r) => r.user.id === 'frank')?.unread_messages).toBe(2);
    expect(state.read?.find((r) => r.user.id === 'erin')?.unread_messages).toBe(0);
    await frankAgain.disconnectUser();

    const erinSees = nextEvent(erinChannel, 'message.read');
    const frankNotified = nextEvent(frankChannel.getClient(), 'notification.mark_read');
    await frankChannel.markRead();
    const read = await erinSees;
    const notification = await frankNotified;

    expect(read.user?.id).toBe('frank');
    expect(read.last_read_message_id).toBe(frankChannel.state.latestMessages.at(-1)?.id);
    expect(erinChannel.state.read.frank?.unread_messages).toBe(0);
    expect(notification).toMatchObject({
      cid: 'messaging:reading',
      unread_count: 0,
      total_unread_count: 0,
      unread_channels: 0,
    });
    expect(frankChannel.state.unreadCount).toBe(0);
    const after = await frankChannel.query({});
    expect(after.read?.find((r) => r.user.id === 'frank')?.unread_messages).toBe(0);
  });

  it('announces user.watching.start when a user watches and user.watching.stop when their socket closes', async () => {
    const alice = await harness.connect('alice');
    const aliceChannel = alice.channel('messaging', 'watchers', { members: ['alice', 'carol'] });
    await aliceChannel.watch();
    const carol = await harness.connect('carol');

    const started = nextEvent(aliceChannel, 'user.watching.start');
    await carol.channel('messaging', 'watchers').watch();
    const start = await started;
    expect(start.user?.id).toBe('carol');
    expect(start.watcher_count).toBe(2);
    expect(aliceChannel.state.watchers.carol).toBeDefined();

    const stopped = nextEvent(aliceChannel, 'user.watching.stop');
    await carol.disconnectUser();
    const stop = await stopped;
    expect(stop.user?.id).toBe('carol');
    expect(stop.watcher_count).toBe(1);
    expect(aliceChannel.state.watchers.carol).toBeUndefined();
  });

  it('stops delivering channel events after stopWatching, announcing user.watching.stop', async () => {
    const { aliceChannel, bobChannel } = await sharedChannel('quiet');
    const stopped = nextEvent(aliceChannel, 'user.watching.stop');
    await bobChannel.stopWatching();
    expect((await stopped).user?.id).toBe('bob');

    const bobNews = collectEvents(bobChannel.getClient(), 'message.new');
    const notified = nextEvent(bobChannel.getClient(), 'notification.message_new');
    await aliceChannel.sendMessage({ text: 'are you there?' });
    expect((await notified).cid).toBe('messaging:quiet');
    bobNews.stop();
    expect(bobNews.events).toHaveLength(0);
  });

  it('delivers a thread reply with its parent_id and bumps the parent reply_count by message.updated', async () => {
    const { aliceChannel, bobChannel } = await sharedChannel('threads');
    const { message: parent } = await aliceChannel.sendMessage({ text: 'thread starter' });
    const reply = nextEvent(bobChannel, 'message.new', (e) => e.message?.parent_id === parent.id);
    const updated = nextEvent(bobChannel, 'message.updated');

    const sent = await bobChannel.sendMessage({ text: 'a reply', parent_id: parent.id });
    expect(sent.message).toMatchObject({ parent_id: parent.id, type: 'reply', show_in_channel: false });
    expect((await reply).message?.text).toBe('a reply');
    expect((await updated).message).toMatchObject({ id: parent.id, reply_count: 1 });

    // A thread-only reply is not part of the channel's message list.
    const state = await aliceChannel.query({ messages: { limit: 10 } });
    expect(state.messages.map((m) => m.text)).toEqual(['thread starter']);
  });

  it('sends notification.message_new with the full channel to a member who is connected but not watching', async () => {
    const alice = await harness.connect('alice');
    const aliceChannel = alice.channel('messaging', 'elsewhere', { members: ['alice', 'carol'] });
    await aliceChannel.watch();
    const carol = await harness.connect('carol');
    const notified = nextEvent(carol, 'notification.message_new');
    const newMessages = collectEvents(carol, 'message.new');

    await aliceChannel.sendMessage({ text: 'ping carol' });
    const event = await notified;
    newMessages.stop();

    expect(event.cid).toBe('messaging:elsewhere');
    expect(event.message?.text).toBe('ping carol');
    expect(event.channel?.config?.read_events).toBe(true);
    expect(event.channel?.own_capabilities).toContain('send-message');
    expect(event.unread_count).toBeGreaterThanOrEqual(1);
    expect(newMessages.events).toHaveLength(0);
  });

  it('answers a client ping (a JSON array) with health.check, and shuts sockets down with 1001', async () => {
    const own = await startHarness();
    try {
      const params = new URLSearchParams({
        json: JSON.stringify({ user_id: 'dora', user_details: { id: 'dora', name: 'Dora' } }),
        api_key: API_KEY,
        authorization: own.token('dora'),
        'stream-auth-type': 'jwt',
      });
      const socket = new WebSocket(`${own.url.replace('http', 'ws')}/connect?${params}`);
      const frames: any[] = [];
      const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
      const frame = () => new Promise<any>((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))));

      const first = await frame();
      frames.push(first);
      expect(first).toMatchObject({ type: 'health.check', cid: '*' });
      expect(first.me).toMatchObject({ id: 'dora', name: 'Dora', mutes: [], channel_mutes: [], devices: [] });
      expect(first.connection_id).toEqual(expect.any(String));

      socket.send(JSON.stringify([{ type: 'health.check', client_id: 'dora--1' }]));
      const pong = await frame();
      expect(pong).toMatchObject({ type: 'health.check', connection_id: first.connection_id, cid: '*' });

      await own.server.close();
      expect(await closed).toBe(1001);
    } finally {
      await own.close();
    }
  });
});
