// Big rooms: joining a channel of many members costs what the provider
// sends, not work in proportion to the room. A watch answers a bounded read state (the most
// recent readers and the viewer's own) and a page of watchers; watching events in a room of more
// than BIG_ROOM_WATCHERS watchers are coalesced; a type without connect events sends none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_LIMITS } from '../../../src/server/limits';
import { READ_STATES } from '../../../src/server/present/channel-state';
import { BIG_ROOM_WATCHERS, WATCHING_COALESCE_MS } from '../../../src/server/realtime/big-room';
import { startHarness, type Harness } from '../helpers';
import { rawSocket, type RawSocket } from '../raw-socket';

let harness: Harness;
const ROOM = BIG_ROOM_WATCHERS + 20;
const ids = Array.from({ length: ROOM }, (_, i) => `member${i}`);
const sockets: RawSocket[] = [];

beforeAll(async () => {
  harness = await startHarness({ limits: NO_LIMITS });
  for (let i = 0; i < ids.length; i += 100) await harness.admin.upsertUsers(ids.slice(i, i + 100).map((id) => ({ id, name: id })));
  await harness.admin.channel('messaging', 'big', { members: ids, created_by_id: 'member0' } as never).create();
});

afterAll(async () => {
  for (const socket of sockets) socket.ws.terminate();
  await harness?.close();
});

describe('a channel of many members', () => {
  it('answers a watch with the most recent readers and the viewer, however many members read', async () => {
    // Everyone but the viewer has read, the newest readers last.
    const channel = harness.admin.channel('messaging', 'big');
    await channel.sendMessage({ text: 'welcome', user_id: 'member0' } as never);
    for (const id of ids.slice(0, -1)) await channel.markRead({ user_id: id } as never);
    const viewer = ids.at(-1)!;
    const client = await harness.connect(viewer);
    const state = await client.channel('messaging', 'big').watch();
    expect(state.members).toHaveLength(100);
    expect(state.read).toHaveLength(READ_STATES + 1);
    const readers = state.read!.map((read) => read.user.id);
    expect(readers).toContain(viewer);
    // The most recent readers: the last READ_STATES to mark read.
    expect(new Set(readers)).toEqual(new Set([viewer, ...ids.slice(-1 - READ_STATES, -1)]));
    await client.disconnectUser();
  });

  it('coalesces watching events once the room has more than BIG_ROOM_WATCHERS watchers, with the count right', async () => {
    for (const id of ids.slice(0, BIG_ROOM_WATCHERS)) {
      const socket = await rawSocket(harness, id);
      sockets.push(socket);
      await socket.watch('messaging', 'big');
    }
    const first = sockets[0]!;
    const heardBefore = first.frames.filter((f) => f.type === 'user.watching.start').length;
    expect(heardBefore).toBe(BIG_ROOM_WATCHERS); // one per joiner (its own included), at once, in a room this size

    // Twenty more join at once: the room is big now, and they are heard as one event.
    const late = await Promise.all(ids.slice(BIG_ROOM_WATCHERS).map((id) => rawSocket(harness, id)));
    sockets.push(...late);
    const started = Date.now();
    await Promise.all(late.map((socket) => socket.watch('messaging', 'big')));
    const coalesced = await first.next('user.watching.start', (f) => f.watcher_count === ROOM, WATCHING_COALESCE_MS * 3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(WATCHING_COALESCE_MS - 50);
    const heard = first.frames.filter((f) => f.type === 'user.watching.start').length - heardBefore;
    expect(heard).toBeLessThanOrEqual(2);
    expect(coalesced.user.id).toMatch(/^member\d+$/);

    // A query of the channel lists a page of watchers and counts them all.
    const state = await harness.request('/channels/messaging/big/query', {
      token: harness.token('member0'),
      userId: 'member0',
      body: { state: true, watchers: { limit: 10, offset: 0 } },
    });
    expect(state.body.watcher_count).toBe(ROOM);
    expect(state.body.watchers.length).toBeLessThanOrEqual(100);
  });

  it('tells a big room of a member going offline only through the coalesced watching event, not presence to every watcher', async () => {
    // A watcher that did not ask for presence (the raw sockets above did, for the members listed).
    const quiet = await rawSocket(harness, 'member3');
    sockets.push(quiet);
    const watched = await harness.request('/channels/messaging/big/query', {
      token: harness.token('member3'),
      userId: 'member3',
      query: { connection_id: quiet.connectionId },
      body: { watch: true, state: true },
    });
    expect(watched.status).toBe(200);
    const leaving = sockets[5]!;
    leaving.ws.terminate();
    const stopped = await quiet.next('user.watching.stop', (f) => f.user.id === leaving.userId, WATCHING_COALESCE_MS * 3);
    expect(stopped.watcher_count).toBe(ROOM - 1);
    expect(quiet.frames.filter((f) => f.type === 'user.presence.changed')).toEqual([]);
  });

  it('sends no watching events for a type without connect events', async () => {
    await harness.admin.updateChannelType('livestream', { connect_events: false } as never);
    await harness.admin.channel('livestream', 'quiet', { created_by_id: 'member0' } as never).create();
    const [a, b] = [sockets[0]!, sockets[1]!];
    await a.watch('livestream', 'quiet');
    await b.watch('livestream', 'quiet');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(a.frames.filter((f) => f.type === 'user.watching.start' && f.cid === 'livestream:quiet')).toEqual([]);
  });
});
