// Backpressure: fan-out never waits for a slow socket, and a socket whose
// unsent data passes the bound is dropped (the peer sees 1006, on which the SDK reconnects), while a
// reading socket on the same channel gets every message. The bound is set low here (256 KB) so
// a few megabytes of messages pass it; the "slow readers" benchmark runs it at full size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsers, nextEvent, startHarness, type Harness } from '../helpers';
import { rawSocket } from '../raw-socket';
import { UnsentData } from '../../../src/server/realtime/unsent-data';

const BOUND = 256 * 1024;
const MESSAGES = 160;
/** 64 KB of custom data per message: 10 MB in all, past what loopback's kernel buffers absorb. */
const PADDING = 'x'.repeat(64 * 1024);

let harness: Harness;

beforeAll(async () => {
  // The server-side sender posts far more than a user could in a minute: rate limits off.
  harness = await startHarness({ limits: { maxUnsentBytes: BOUND, rateLimits: false } });
  await createUsers(harness, 'reader', 'slow1', 'slow2', 'slow3', 'sender');
});

afterAll(async () => {
  await harness?.close();
});

describe('backpressure', () => {
  it('drops stalled sockets past the bound (the peer sees 1006, not 1000) while a reading socket receives every message', async () => {
    const members = ['reader', 'slow1', 'slow2', 'slow3', 'sender'];
    const channel = harness.admin.channel('messaging', 'firehose', { members, created_by_id: 'sender' } as never);
    await channel.create();
    const reader = await rawSocket(harness, 'reader');
    await reader.watch('messaging', 'firehose');
    const stalled = await Promise.all(['slow1', 'slow2', 'slow3'].map((id) => rawSocket(harness, id)));
    for (const socket of stalled) {
      await socket.watch('messaging', 'firehose');
      socket.pause();
    }
    const gone = stalled.map((socket) =>
      reader.next('user.watching.stop', (f) => f.user?.id === socket.userId, 30_000),
    );

    for (let i = 0; i < MESSAGES; i++) {
      await channel.sendMessage({ id: `fire-${i}`, text: `message ${i}`, user_id: 'sender', padding: PADDING } as never);
    }
    await reader.next('message.new', (f) => f.message?.id === `fire-${MESSAGES - 1}`, 10_000);
    const received = reader.frames.filter((f) => f.type === 'message.new').map((f) => f.message.id);
    expect(received).toEqual(Array.from({ length: MESSAGES }, (_, i) => `fire-${i}`));

    // The server let go of every stalled socket: its watching ended, and once it reads again
    // it finds itself closed, abnormally, which the SDK reconnects on.
    await Promise.all(gone);
    for (const socket of stalled) socket.resume();
    const codes = await Promise.all(stalled.map((socket) => socket.closed.then(({ code }) => code)));
    // Dropped at once (a close frame would queue behind what it never read): 1006, not 1000.
    for (const code of codes) expect(code).toBe(1006);
  }, 60_000);

  it('the SDK reconnects after being dropped for being too slow, and recovers the channel', async () => {
    const client = await harness.connect('slow1');
    const watched = client.channel('messaging', 'firehose');
    await watched.watch();
    const recovered = nextEvent(client, 'connection.recovered', () => true, 15_000);
    // Stall the SDK's own socket, then push past the bound.
    const socket = (client.wsConnection as unknown as { ws: { _socket: { pause(): void; resume(): void } } }).ws._socket;
    socket.pause();
    const channel = harness.admin.channel('messaging', 'firehose');
    for (let i = 0; i < MESSAGES; i++) {
      await channel.sendMessage({ id: `again-${i}`, text: `again ${i}`, user_id: 'sender', padding: PADDING } as never);
    }
    socket.resume();
    await recovered;
    expect(client.wsConnection?.isHealthy).toBe(true);
    expect(watched.state.messages.at(-1)?.id).toBe(`again-${MESSAGES - 1}`);
  }, 60_000);

  it('bounds the sum over all sockets too: the ones holding the most are cut off first, a reader that keeps up never', () => {
    const held = new Map<string, number>();
    const cut: string[] = [];
    const unsent = new UnsentData({ maxUnsentBytes: 1000, maxUnsentBytesTotal: 2500 });
    for (const id of ['stalled-a', 'stalled-b', 'stalled-c', 'reader']) {
      held.set(id, 0);
      unsent.track(id, { unsent: () => held.get(id) ?? 0, cutOff: () => cut.push(id) });
    }
    const send = (id: string, amount: number) => {
      held.set(id, amount);
      unsent.sent(id, amount);
    };
    send('stalled-a', 900);
    send('stalled-b', 800);
    send('reader', 50);
    expect(cut).toEqual([]);
    send('stalled-c', 850); // 2,600 in all: the largest goes
    expect(cut).toEqual(['stalled-a']);
    send('reader', 0);
    send('stalled-b', 1001); // over its own bound
    expect(cut).toEqual(['stalled-a', 'stalled-b']);
    // A stale sum is re-read before anyone is cut: the reader drained meanwhile.
    held.set('stalled-c', 100);
    send('reader', 900);
    expect(cut).toEqual(['stalled-a', 'stalled-b']);
  });
});
