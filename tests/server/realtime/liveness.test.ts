// Liveness: a connection that stops talking, or stops answering the server's
// protocol-level pings, is closed, and its watching and presence end with the same events as a
// clean close. Short timeouts are configured so this runs in seconds; the defaults (60 s idle,
// 25 s pings) are measured by the "dead clients" benchmark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsers, startHarness, type Harness } from '../helpers';
import { rawSocket, type RawSocket } from '../raw-socket';
import { sleep } from '../scenes';

const IDLE_MS = 1200;
const PING_MS = 400;

let harness: Harness;
const stops: Array<() => void> = [];

beforeAll(async () => {
  harness = await startHarness({ limits: { idleTimeoutMs: IDLE_MS, pingIntervalMs: PING_MS } });
  await createUsers(harness, 'dan', 'eve', 'fay', 'gus');
});

afterAll(async () => {
  for (const stop of stops) stop();
  await harness?.close();
});

/** `observer` and `subject` both watch `messaging:<id>`; the observer keeps itself alive. */
async function watchingTogether(id: string, subjectId: string, observerId = 'eve'): Promise<{ observer: RawSocket; subject: RawSocket }> {
  await harness.admin.channel('messaging', id, { members: [subjectId, observerId], created_by_id: observerId } as never).create();
  const observer = await rawSocket(harness, observerId);
  stops.push(observer.keepAlive(PING_MS / 2));
  await observer.watch('messaging', id);
  const subject = await rawSocket(harness, subjectId);
  await subject.watch('messaging', id);
  return { observer, subject };
}

async function online(userId: string): Promise<boolean | undefined> {
  const { users } = await harness.admin.queryUsers({ id: userId });
  return users[0]?.online;
}

describe('liveness', () => {
  it('closes a socket that stopped reading (no pongs, no pings): watching stops and its user goes offline, as on a clean close', async () => {
    const { observer, subject } = await watchingTogether('live-paused', 'dan');
    expect(await online('dan')).toBe(true);
    const started = Date.now();
    const stopped = observer.next('user.watching.stop', (f) => f.user?.id === 'dan', IDLE_MS * 4);
    const offline = observer.next('user.presence.changed', (f) => f.user?.id === 'dan' && f.user?.online === false, IDLE_MS * 4);
    subject.pause();

    expect((await stopped).watcher_count).toBe(1);
    expect((await offline).user.last_active).toEqual(expect.any(String));
    const took = Date.now() - started;
    // An unanswered ping is noticed within about two ping intervals, before the idle timeout.
    expect(took).toBeLessThan(IDLE_MS + 1000);
    expect(await online('dan')).toBe(false);
    const channel = await harness.admin.queryChannels({ cid: 'messaging:live-paused' }, {}, { state: true });
    expect(channel[0]?.state.watcher_count).toBe(1);
  });

  it('closes a socket that answers pings but has sent nothing for the idle timeout', async () => {
    const { observer, subject } = await watchingTogether('live-silent', 'fay');
    const started = Date.now();
    const offline = observer.next('user.presence.changed', (f) => f.user?.id === 'fay' && f.user?.online === false, IDLE_MS * 4);
    const { code } = await subject.closed;
    await offline;
    expect(code).not.toBe(1000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(IDLE_MS - 300);
    expect(await online('fay')).toBe(false);
  });

  it('keeps a socket that pings like the SDK open for many idle timeouts, and its user online', async () => {
    const { subject } = await watchingTogether('live-kept', 'gus');
    stops.push(subject.keepAlive(PING_MS));
    let closed = false;
    void subject.closed.then(() => (closed = true));
    await sleep(IDLE_MS * 3);
    expect(closed).toBe(false);
    expect(await online('gus')).toBe(true);
  });
});
