// Connections per user: one user may hold at most the configured number of
// connections; the next is refused with code 71 (the SDK's ErrTooManyConnections), others are
// unaffected, and closing one makes room again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/server/limits';
import { createUsers, startHarness, type Harness } from '../helpers';
import { rawSocket } from '../raw-socket';

const CAP = 3;

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ limits: { maxConnectionsPerUser: CAP } });
  await createUsers(harness, 'alice', 'bob');
});

afterAll(async () => {
  await harness?.close();
});

describe('connections per user', () => {
  it('refuses the connection past the cap with code 71, counting SDK clients and raw sockets alike', async () => {
    const first = await harness.connect('alice');
    await harness.connect('alice');
    const raw = await rawSocket(harness, 'alice');
    await expect(harness.connect('alice')).rejects.toThrow(/"code":71/);

    // bob is not alice.
    const bob = await harness.connect('bob');
    expect(bob.wsConnection?.isHealthy).toBe(true);

    // Closing one makes room.
    raw.ws.close();
    await raw.closed;
    await first.disconnectUser();
    const again = await harness.connect('alice');
    expect(again.wsConnection?.isHealthy).toBe(true);
  });

  it('sends the refusal to a raw socket as the provider\'s error frame: code 71, StatusCode 429', async () => {
    await expect(rawSocket(harness, 'alice').then(() => rawSocket(harness, 'alice'))).rejects.toThrow(/handshake refused.*"code":71.*"StatusCode":429/);
  });

  it('has a default cap of 25', () => {
    expect(DEFAULT_LIMITS.maxConnectionsPerUser).toBe(25);
  });
});
