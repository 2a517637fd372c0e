// The long-poll fallback: the SDK's WSConnectionFallback against GET /longpoll,
// with the socket made unreachable (the client's WebSocket URL points at a closed port) or its
// upgrade refused by the backend. A long-poll connection is one more connection in the registry:
// it receives what a socket would (in order, nothing lost between polls), watches through REST
// calls that carry its connection_id, and is closed like a socket when it stops polling or when
// the SDK disconnects. Raw requests do what the SDK would not: stop polling, poll late.
import { StreamChat, type Event } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, collectEvents, createUsers, nextEvent, signToken, startHarness, type Harness } from '../helpers';
import { sleep } from '../scenes';

/** A client with the fallback on whose WebSocket cannot connect (nothing listens on port 1). */
function fallbackClient(harness: Harness, clients: StreamChat[]): StreamChat {
  const client = new StreamChat(API_KEY, { baseURL: harness.url, enableWSFallback: true, allowServerSideConnect: true });
  client.wsBaseURL = 'ws://127.0.0.1:1';
  // The SDK waits this long for the socket before falling back (6 s by default with the fallback).
  client.defaultWSTimeoutWithFallback = 200;
  clients.push(client);
  return client;
}

async function connectFallback(harness: Harness, clients: StreamChat[], userId: string): Promise<StreamChat> {
  const client = fallbackClient(harness, clients);
  await client.connectUser({ id: userId }, harness.token(userId));
  return client;
}

type RawLongPoll = {
  connectionId: string;
  /** One GET /longpoll with this connection's id. */
  poll(): Promise<{ status: number; body: any }>;
  /** Watches `messaging:<id>` with this connection's id, as channel.watch() does. */
  watch(id: string): Promise<void>;
};

/** A long-poll connection opened by hand, polled only when the test says so. */
async function rawLongPoll(harness: Harness, userId: string): Promise<RawLongPoll> {
  const token = harness.token(userId);
  const opened = await harness.request('/longpoll', {
    token,
    userId,
    query: { json: JSON.stringify({ user_id: userId, user_details: { id: userId } }) },
  });
  expect(opened.status).toBe(200);
  expect(opened.body.event).toMatchObject({ type: 'health.check', me: { id: userId } });
  const connectionId: string = opened.body.event.connection_id;
  return {
    connectionId,
    poll: () => harness.request('/longpoll', { token, userId, query: { connection_id: connectionId } }),
    async watch(id) {
      const watched = await harness.request(`/channels/messaging/${id}/query`, {
        token,
        userId,
        query: { connection_id: connectionId },
        body: { watch: true, state: true },
      });
      expect(watched.status).toBe(200);
    },
  };
}

const texts = (events: Event[]) => events.map((event) => event.message?.text);

describe('the long-poll fallback with the SDK', () => {
  let harness: Harness;
  const clients: StreamChat[] = [];

  beforeAll(async () => {
    harness = await startHarness({ limits: { rateLimits: false }, longPollHoldMs: 400 });
    await createUsers(harness, 'alice', 'bob', 'carol', 'dave', 'erin');
  });

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.disconnectUser()));
    await harness?.close();
  });

  it('connects over long-poll when the socket is unreachable: transport.changed, the health.check with me, online', async () => {
    const client = fallbackClient(harness, clients);
    const modes: unknown[] = [];
    client.on('transport.changed', (event) => modes.push((event as Event & { mode?: string }).mode));
    const connected = await client.connectUser({ id: 'alice', name: 'Alice' }, harness.token('alice'));
    expect(modes).toEqual(['longpoll']);
    expect(client.wsFallback?.isHealthy()).toBe(true);
    expect(connected).toMatchObject({ type: 'health.check', connection_id: client.wsFallback?.connectionID, me: { id: 'alice', name: 'Alice', mutes: [], channel_mutes: [] } });
    expect(client.user?.name).toBe('Alice');
    const { users } = await harness.admin.queryUsers({ id: 'alice' });
    expect(users[0]?.online).toBe(true);
  });

  it('receives every event a socket receives, in order, none lost between polls', async () => {
    const bob = await harness.connect('bob');
    const carol = await connectFallback(harness, clients, 'carol');
    const channel = bob.channel('messaging', 'lp-order', { members: ['bob', 'carol'] });
    await channel.watch();
    const watching = nextEvent(bob, 'user.watching.start', (e) => e.user?.id === 'carol');
    const carolChannel = carol.channel('messaging', 'lp-order');
    await carolChannel.watch();
    // Watching with the long-poll connection's id subscribed it, as it would a socket.
    expect((await watching).watcher_count).toBe(2);

    const atBob = collectEvents(bob, 'message.new');
    const atCarol = collectEvents(carol, 'message.new');
    const sent: string[] = [];
    // Bursts land while a poll is out and while none is (between an answer and the next poll).
    for (let burst = 0; burst < 6; burst++) {
      await Promise.all(
        Array.from({ length: 5 }, (_, i) => {
          const text = `m${burst * 5 + i}`;
          sent.push(text);
          return harness.admin.channel('messaging', 'lp-order').sendMessage({ text, user_id: 'bob' });
        }),
      );
      await sleep(burst % 2 ? 0 : 450);
    }
    await expect.poll(() => atCarol.events.length, { timeout: 5000 }).toBe(sent.length);
    // The order the backend stored them in, as the socket saw it.
    expect(texts(atCarol.events)).toEqual(texts(atBob.events));
    expect(new Set(texts(atCarol.events))).toEqual(new Set(sent));
    expect(carolChannel.state.messages.map((m) => m.text)).toEqual(channel.state.messages.map((m) => m.text));
    atBob.stop();
    atCarol.stop();
  });

  it('sends and reads through REST with its connection id, and its own events come back by long-poll', async () => {
    const bob = await harness.connect('bob');
    const dave = await connectFallback(harness, clients, 'dave');
    const bobChannel = bob.channel('messaging', 'lp-send', { members: ['bob', 'dave'] });
    await bobChannel.watch();
    const daveChannel = dave.channel('messaging', 'lp-send');
    await daveChannel.watch();

    // keystroke() sends nothing without a healthy socket (the SDK's _isTypingIndicatorsEnabled),
    // but an event sent over REST reaches the others as from a socket client.
    const typing = nextEvent(bob, 'typing.start', (e) => e.user?.id === 'dave');
    await daveChannel.sendEvent({ type: 'typing.start' });
    await typing;

    const atBob = nextEvent(bob, 'message.new', (e) => e.message?.text === 'from dave');
    const echo = nextEvent(dave, 'message.new', (e) => e.message?.text === 'from dave');
    const { message } = await daveChannel.sendMessage({ text: 'from dave' });
    expect((await atBob).message?.id).toBe(message.id);
    expect((await echo).message?.id).toBe(message.id);

    const reaction = nextEvent(dave, 'reaction.new', (e) => e.reaction?.user_id === 'bob');
    await bobChannel.sendReaction(message.id, { type: 'like' });
    await reaction;
    expect(daveChannel.state.messages.at(-1)?.reaction_counts).toEqual({ like: 1 });

    const read = nextEvent(bob, 'message.read', (e) => e.user?.id === 'dave');
    await daveChannel.markRead();
    await read;
  });

  it('closes the connection when the SDK disconnects: watching stops and the user goes offline at once', async () => {
    const bob = await harness.connect('bob');
    const erin = await connectFallback(harness, clients, 'erin');
    const bobChannel = bob.channel('messaging', 'lp-leave', { members: ['bob', 'erin'] });
    await bobChannel.watch();
    await erin.channel('messaging', 'lp-leave').watch();
    const connectionId = erin.wsFallback?.connectionID;
    const stopped = nextEvent(bob, 'user.watching.stop', (e) => e.user?.id === 'erin');
    const offline = nextEvent(bob, 'user.presence.changed', (e) => e.user?.id === 'erin' && e.user?.online === false);
    const started = Date.now();
    await erin.disconnectUser();
    expect((await stopped).watcher_count).toBe(1);
    await offline;
    expect(Date.now() - started).toBeLessThan(2000);
    // The closed id is gone for good.
    const late = await harness.request('/longpoll', { token: harness.token('erin'), userId: 'erin', query: { connection_id: connectionId ?? '' } });
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ code: 46, StatusCode: 400 });
  });

  it('opens a new connection and recovers its channels when its connection id is no longer known (code 46)', async () => {
    const bob = await harness.connect('bob');
    const alice = await connectFallback(harness, clients, 'alice');
    const channel = alice.channel('messaging', 'lp-recover', { members: ['alice', 'bob'] });
    await channel.watch();
    const first = alice.wsFallback?.connectionID;
    const recovered = nextEvent(alice, 'connection.recovered', () => true, 5000);
    // The backend forgets the connection (as after the liveness sweep) while a poll is out.
    const closed = await harness.request('/longpoll', { query: { close: 'true', connection_id: first ?? '' } });
    expect(closed.status).toBe(200);
    await recovered;
    expect(alice.wsFallback?.connectionID).toEqual(expect.any(String));
    expect(alice.wsFallback?.connectionID).not.toBe(first);
    // recoverState() watched the channel again on the new connection.
    const arrived = nextEvent(alice, 'message.new', (e) => e.message?.text === 'after recovery');
    await bob.channel('messaging', 'lp-recover').sendMessage({ text: 'after recovery' });
    await arrived;
  });

  it('holds a poll until an event arrives, and queues events between polls in order', async () => {
    const bob = await harness.connect('bob');
    await bob.channel('messaging', 'lp-raw', { members: ['bob', 'carol'] }).create();
    const carol = await rawLongPoll(harness, 'carol');
    await carol.watch('lp-raw');
    // Nothing polls now: these wait for the next poll.
    for (let i = 0; i < 5; i++) await bob.channel('messaging', 'lp-raw').sendMessage({ text: `queued ${i}` });
    const queued = await carol.poll();
    expect(queued.status).toBe(200);
    expect(texts(queued.body.events.filter((e: Event) => e.type === 'message.new'))).toEqual([0, 1, 2, 3, 4].map((i) => `queued ${i}`));
    // A poll with nothing queued waits for the next event instead of answering at once.
    const started = Date.now();
    const held = carol.poll();
    await sleep(100);
    await bob.channel('messaging', 'lp-raw').sendMessage({ text: 'while waiting' });
    const answer = await held;
    expect(texts(answer.body.events)).toContain('while waiting');
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    // With nothing at all, the hold ends empty.
    const empty = await carol.poll();
    expect(empty.body).toMatchObject({ events: [] });

    // A poll whose client went away takes nothing with it: the next poll gets what arrived.
    const gaveUp = new AbortController();
    const abandoned = fetch(`${harness.url}/longpoll?api_key=${API_KEY}&user_id=carol&connection_id=${carol.connectionId}`, {
      headers: { authorization: harness.token('carol'), 'stream-auth-type': 'jwt' },
      signal: gaveUp.signal,
    }).catch(() => 'aborted');
    await sleep(50);
    gaveUp.abort();
    expect(await abandoned).toBe('aborted');
    await sleep(50);
    await bob.channel('messaging', 'lp-raw').sendMessage({ text: 'after the abort' });
    expect(texts((await carol.poll()).body.events)).toEqual(['after the abort']);
  });

  it('answers malformed long-poll requests with the provider\'s error JSON, never a 500', async () => {
    const token = harness.token('bob');
    const other = await rawLongPoll(harness, 'carol');
    const cases: Array<[Record<string, string>, string | undefined, number, number]> = [
      [{ json: '{"user_id":' }, token, 400, 4],
      [{ json: '[1,2]' }, token, 400, 4],
      [{ json: '{}' }, token, 400, 4],
      [{ json: '{"user_id":"bob","user_details":{"id":"carol"}}' }, token, 400, 4],
      [{ json: '{"user_id":"bob"}' }, 'not.a.token', 401, 43],
      [{ json: '{"user_id":"bob"}' }, undefined, 401, 2],
      [{ json: '{"user_id":"carol"}' }, token, 401, 43],
      [{}, token, 400, 4],
      [{ connection_id: 'no-such-connection' }, token, 400, 46],
      // Someone else's connection is not yours to poll.
      [{ connection_id: other.connectionId }, token, 400, 46],
      [{ close: 'true', connection_id: 'x', api_key: 'wrong' }, token, 401, 2],
    ];
    for (const [query, auth, status, code] of cases) {
      const response = await harness.request('/longpoll', { ...(auth ? { token: auth } : {}), userId: 'bob', query });
      expect({ query, status: response.status, code: response.body.code }).toEqual({ query, status, code });
      expect(response.body).toMatchObject({ StatusCode: status, message: expect.any(String), duration: expect.any(String) });
    }
    const deep = await harness.request('/longpoll', { token, userId: 'bob', query: { json: '{"user_id":"bob","user_details":' + '['.repeat(100) + ']'.repeat(100) + '}' } });
    expect(deep.body.code).toBe(4);
    const server = await harness.request('/longpoll', { token: await signToken({ server: true }) });
    expect(server.body.code).toBe(4);
  });
});

describe('WebSocket upgrades refused by the backend', () => {
  let harness: Harness;
  const clients: StreamChat[] = [];

  beforeAll(async () => {
    harness = await startHarness({ refuseWebSockets: true, limits: { rateLimits: false }, longPollHoldMs: 400 });
    await createUsers(harness, 'alice', 'bob');
  });

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.disconnectUser()));
    await harness?.close();
  });

  it('falls back to long-poll, and two such clients chat live', async () => {
    const make = () => {
      const client = new StreamChat(API_KEY, { baseURL: harness.url, enableWSFallback: true, allowServerSideConnect: true });
      client.defaultWSTimeoutWithFallback = 200;
      clients.push(client);
      return client;
    };
    const alice = make();
    const bob = make();
    await alice.connectUser({ id: 'alice' }, harness.token('alice'));
    await bob.connectUser({ id: 'bob' }, harness.token('bob'));
    expect([alice.wsFallback?.isHealthy(), bob.wsFallback?.isHealthy()]).toEqual([true, true]);
    const aliceChannel = alice.channel('messaging', 'refused', { members: ['alice', 'bob'] });
    await aliceChannel.watch();
    const bobChannel = bob.channel('messaging', 'refused');
    await bobChannel.watch();
    const atBob = nextEvent(bob, 'message.new', (e) => e.message?.text === 'over long-poll');
    await aliceChannel.sendMessage({ text: 'over long-poll' });
    await atBob;
    const atAlice = nextEvent(alice, 'message.new', (e) => e.message?.text === 'and back');
    await bobChannel.sendMessage({ text: 'and back' });
    await atAlice;
  });

  it('leaves a client without the fallback unconnected', async () => {
    const client = new StreamChat(API_KEY, { baseURL: harness.url, allowServerSideConnect: true });
    client.defaultWSTimeout = 300;
    clients.push(client);
    await expect(client.connectUser({ id: 'bob' }, harness.token('bob'))).rejects.toThrow(/initial WS connection could not be established/);
  });
});

describe('long-poll liveness and bounds', () => {
  const IDLE_MS = 1200;
  let harness: Harness;
  const clients: StreamChat[] = [];

  beforeAll(async () => {
    // Rate limits on (the defaults): polls count against the LongPoll window, not the user's own.
    harness = await startHarness({ limits: { idleTimeoutMs: IDLE_MS, maxUnsentBytes: 32 * 1024 }, longPollHoldMs: 20_000 });
    await createUsers(harness, 'fay', 'gus', 'hal', 'ivy');
    await harness.admin.channel('messaging', 'lp-live', { members: ['fay', 'gus', 'hal', 'ivy'], created_by_id: 'fay' } as never).create();
  });

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.disconnectUser()));
    await harness?.close();
  });

  it('closes a connection that stopped polling: watching stops and its user goes offline, as on a clean close', async () => {
    // The observer polls through the SDK, so it stays alive across many idle time-outs.
    const fay = await connectFallback(harness, clients, 'fay');
    await fay.channel('messaging', 'lp-live').watch();
    const gus = await rawLongPoll(harness, 'gus');
    const joined = nextEvent(fay, 'user.watching.start', (e) => e.user?.id === 'gus');
    await gus.watch('lp-live');
    await joined;
    const stopped = nextEvent(fay, 'user.watching.stop', (e) => e.user?.id === 'gus', IDLE_MS * 4);
    const offline = nextEvent(fay, 'user.presence.changed', (e) => e.user?.id === 'gus' && e.user?.online === false, IDLE_MS * 4);
    const started = Date.now();
    // gus never polls again.
    expect((await stopped).watcher_count).toBe(1);
    expect((await offline).user?.last_active).toEqual(expect.any(String));
    expect(Date.now() - started).toBeGreaterThanOrEqual(IDLE_MS - 400);
    const late = await gus.poll();
    expect(late.body.code).toBe(46);
    const { users } = await harness.admin.queryUsers({ id: { $in: ['fay', 'gus'] } }, { id: 1 });
    expect(users.map((u) => [u.id, u.online])).toEqual([['fay', true], ['gus', false]]);
  });

  it('keeps a polling connection (the hold is under half the idle time-out) and does not hold polls to the user\'s rate limit', async () => {
    const hal = await rawLongPoll(harness, 'hal');
    await hal.watch('lp-live');
    // More polls than the 60 a minute one user may make to one endpoint, each answered by an event.
    const pings = (events: Event[]) => events.filter((e) => e.type === ('ping.custom' as never)).length;
    let received = 0;
    for (let i = 0; i < 70; i++) {
      const answer = hal.poll();
      await harness.admin.channel('messaging', 'lp-live').sendEvent({ type: 'ping.custom', user_id: 'ivy' } as never);
      const { status, body } = await answer;
      expect(status).toBe(200);
      expect(body.events.length).toBeGreaterThan(0);
      received += pings(body.events);
    }
    // A poll may have left with what was queued before its event (user.watching.start first).
    while (received < 70) {
      const { body } = await hal.poll();
      expect(body.events.length).toBeGreaterThan(0);
      received += pings(body.events);
    }
    expect(received).toBe(70);
    // A poll with nothing to say is answered empty before the idle time-out, and the connection lives on.
    const started = Date.now();
    const empty = await hal.poll();
    expect(empty.body.events).toEqual([]);
    expect(Date.now() - started).toBeLessThan(IDLE_MS);
    expect((await hal.poll()).status).toBe(200);
  }, 30_000);

  it('counts long-poll connections toward the connections one user may hold (code 71)', async () => {
    await createUsers(harness, 'joe');
    const open = () =>
      harness.request('/longpoll', { token: harness.token('joe'), userId: 'joe', query: { json: JSON.stringify({ user_id: 'joe' }) } });
    for (let i = 0; i < 25; i++) expect((await open()).status).toBe(200);
    const refused = await open();
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe(71);
  });

  it('drops a connection whose unread events pass the unsent-data bound; its next poll is code 46', async () => {
    const ivy = await rawLongPoll(harness, 'ivy');
    await ivy.watch('lp-live');
    const text = 'x'.repeat(4000);
    for (let i = 0; i < 12; i++) {
      await harness.admin.channel('messaging', 'lp-live').sendMessage({ text: `${i} ${text}`, user_id: 'fay' });
    }
    const after = await ivy.poll();
    expect(after.body.code).toBe(46);
  });
});
