// The live locations' restore (the shares still live) waits for the page to be idle, off the
// path of the first channel's watch, and not at all for a session that ends before that.
import { waitFor } from '@testing-library/preact';
import { StreamChat } from 'stream-chat';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startLiveLocations } from '../../src/session/live-locations';

afterEach(() => vi.restoreAllMocks());

const fakeClient = () => {
  const client = new StreamChat('live-locations-key', { baseURL: 'http://127.0.0.1:9' });
  client.userID = 'alice'; // a connected user's client (the manager is for client-side use)
  const asked = vi.spyOn(client, 'getSharedLocations').mockResolvedValue({ active_live_locations: [], duration: '0' } as never);
  return { client, asked };
};

describe('live locations on connect', () => {
  it('asks for the shares still live once the page is idle, not at once', async () => {
    const { client, asked } = fakeClient();
    const stop = startLiveLocations(client);
    expect(asked).not.toHaveBeenCalled();
    await waitFor(() => expect(asked).toHaveBeenCalledTimes(1));
    stop();
  });

  it('asks nothing when the session ends first', async () => {
    const { client, asked } = fakeClient();
    startLiveLocations(client)();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(asked).not.toHaveBeenCalled();
  });
});
