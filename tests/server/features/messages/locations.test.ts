// Shared locations through the SDK: a static location, a live one moved by its owner with
// message.updated for the channel, stopped, and over at end_at; and the locations refused.
import type { SharedLocationResponse, StreamChat } from 'stream-chat';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUsers, nextEvent, startHarness, type Harness } from '../../helpers';
import { watchingPair } from '../../scenes';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob');
});

afterAll(async () => {
  await harness?.close();
});

afterEach(() => {
  vi.useRealTimers();
});

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

/** alice's active shares among `ids` (other tests leave shares of their own). */
async function activeOf(client: StreamChat, ...ids: string[]) {
  const { active_live_locations } = await client.getSharedLocations();
  return active_live_locations.filter((l) => ids.includes(l.message_id));
}

describe('shared locations', () => {
  it('sends a static location: stored with the message and shown to bob as a SharedLocationResponse', async () => {
    const { ac, bc } = await watchingPair(harness, 'loc-static');
    const received = nextEvent(bc, 'message.new');
    const location = { created_by_device_id: 'phone-1', latitude: 52.37, longitude: 4.89, message_id: 'loc-static-1' };
    const { message } = await ac.sendSharedLocation(location);
    expect(message.id).toBe('loc-static-1');
    const expected = { ...location, channel_cid: 'messaging:loc-static', user_id: 'alice', created_at: expect.any(String) };
    expect(message.shared_location).toMatchObject(expected);
    expect(message.shared_location?.end_at).toBeUndefined();
    expect((await received).message?.shared_location).toMatchObject(expected);
    expect((await bc.query({})).messages.find((m) => m.id === 'loc-static-1')?.shared_location).toMatchObject(expected);
  });

  it('shares a live location: listed as active, moved with message.updated to both, refused to anyone but its owner', async () => {
    const { a, b, ac, bc } = await watchingPair(harness, 'loc-live');
    const endAt = inSeconds(120);
    await ac.sendSharedLocation({ created_by_device_id: 'phone-1', latitude: 1, longitude: 2, message_id: 'loc-live-1', end_at: endAt });
    expect((await activeOf(a, 'loc-live-1')).map((l) => [l.message_id, l.end_at])).toEqual([['loc-live-1', endAt]]);
    expect((await b.getSharedLocations()).active_live_locations).toEqual([]);

    const bobSees = nextEvent(bc, 'message.updated');
    const aliceSees = nextEvent(ac, 'message.updated');
    const moved = await a.updateLocation({ message_id: 'loc-live-1', latitude: 1.5, longitude: 2.5, created_by_device_id: 'phone-1' });
    expect(moved).toMatchObject({ message_id: 'loc-live-1', latitude: 1.5, longitude: 2.5, end_at: endAt, user_id: 'alice' });
    expect((await bobSees).message?.shared_location).toMatchObject({ latitude: 1.5, longitude: 2.5 });
    await aliceSees;
    await expect(b.updateLocation({ message_id: 'loc-live-1', latitude: 0, longitude: 0 })).rejects.toMatchObject({ code: 17 });
    await expect(a.updateLocation({ message_id: 'loc-live-1', latitude: 95 })).rejects.toThrow(/latitude must be a number from -90 to 90/);
  });

  it('moves a live location server-side for the user the query string names, as the provider\'s server SDKs send it', async () => {
    const { ac, bc } = await watchingPair(harness, 'loc-server');
    await ac.sendSharedLocation({ created_by_device_id: 'phone-1', latitude: 1, longitude: 2, message_id: 'loc-server-1', end_at: inSeconds(120) });
    const bobSees = nextEvent(bc, 'message.updated');
    const admin = harness.admin;
    const moved = await admin.doAxiosRequest<SharedLocationResponse>('put', `${admin.baseURL}/users/live_locations`, { message_id: 'loc-server-1', latitude: 3, longitude: 4 }, { params: { user_id: 'alice' } });
    expect(moved).toMatchObject({ message_id: 'loc-server-1', latitude: 3, longitude: 4, user_id: 'alice' });
    expect((await bobSees).message?.shared_location).toMatchObject({ latitude: 3, longitude: 4 });
  });

  it('stops sharing (end_at now): no longer active, and later updates are refused', async () => {
    const { a, ac } = await watchingPair(harness, 'loc-stop');
    await ac.sendSharedLocation({ created_by_device_id: 'd', latitude: 1, longitude: 1, message_id: 'loc-stop-1', end_at: inSeconds(300) });
    const stopped = nextEvent(a, 'live_location_sharing.stopped');
    await ac.stopLiveLocationSharing({ message_id: 'loc-stop-1' });
    expect((await stopped).live_location?.end_at).toBeDefined();
    expect(await activeOf(a, 'loc-stop-1')).toEqual([]);
    await expect(a.updateLocation({ message_id: 'loc-stop-1', latitude: 2, longitude: 2 })).rejects.toThrow(/code 4: this live location ended at/);
  });

  it('ends a live share at end_at: dropped from the active list and no longer movable', async () => {
    const { a, ac } = await watchingPair(harness, 'loc-expire');
    await ac.sendSharedLocation({ created_by_device_id: 'd', latitude: 3, longitude: 3, message_id: 'loc-expire-1', end_at: inSeconds(61) });
    expect(await activeOf(a, 'loc-expire-1')).toHaveLength(1);
    // Only Date is faked (the server runs in this process): sockets and timers keep working.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 62_000);
    expect(await activeOf(a, 'loc-expire-1')).toEqual([]);
    await expect(a.updateLocation({ message_id: 'loc-expire-1', latitude: 4, longitude: 4 })).rejects.toThrow(/ended/);
  });

  it('drops a live share when its message is deleted', async () => {
    const { a, ac } = await watchingPair(harness, 'loc-deleted');
    await ac.sendSharedLocation({ created_by_device_id: 'd', latitude: 5, longitude: 5, message_id: 'loc-del-1', end_at: inSeconds(300) });
    await a.deleteMessage('loc-del-1');
    expect(await activeOf(a, 'loc-del-1')).toEqual([]);
    await expect(a.updateLocation({ message_id: 'loc-del-1', latitude: 6, longitude: 6 })).rejects.toThrow(/is deleted/);
  });

  it('refuses a static location to be moved', async () => {
    const { a, ac } = await watchingPair(harness, 'loc-static-move');
    await ac.sendSharedLocation({ created_by_device_id: 'd', latitude: 1, longitude: 1, message_id: 'loc-sm-1' });
    await expect(a.updateLocation({ message_id: 'loc-sm-1', latitude: 2, longitude: 2 })).rejects.toThrow(/static location cannot be updated/);
  });
});

describe('shared locations refused', () => {
  it('refuses latitude 200, longitude -181, a missing device id and a live duration of 10 seconds, storing nothing', async () => {
    const { ac } = await watchingPair(harness, 'loc-bad');
    const base = { created_by_device_id: 'd', latitude: 10, longitude: 10 };
    await expect(ac.sendSharedLocation({ ...base, latitude: 200, message_id: 'bad-1' })).rejects.toThrow(
      /code 4: shared_location.latitude must be a number from -90 to 90/,
    );
    await expect(ac.sendSharedLocation({ ...base, longitude: -181, message_id: 'bad-2' })).rejects.toThrow(/longitude must be a number from -180 to 180/);
    await expect(ac.sendSharedLocation({ ...base, created_by_device_id: '', message_id: 'bad-3' })).rejects.toThrow(/created_by_device_id is a required field/);
    await expect(ac.sendSharedLocation({ ...base, message_id: 'bad-4', end_at: inSeconds(10) })).rejects.toThrow(/at least 60 seconds/);
    await expect(ac.sendSharedLocation({ ...base, message_id: 'bad-5', end_at: inSeconds(-5) })).rejects.toMatchObject({ code: 4 });
    expect((await ac.query({})).messages).toEqual([]);
    // A minute exactly, as the composer computes it on the device, is accepted.
    await expect(ac.sendSharedLocation({ ...base, message_id: 'ok-1', end_at: inSeconds(60) })).resolves.toBeDefined();
  });
});
