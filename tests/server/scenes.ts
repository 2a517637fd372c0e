// Set-ups shared by the channel-view tests: two users watching one channel, each with their own
// real stream-chat client, and a user with the admin role.
import type { Channel, StreamChat } from 'stream-chat';
import type { Harness } from './helpers';

export type Pair = { a: StreamChat; b: StreamChat; ac: Channel; bc: Channel };

/** `first` creates `type:id` with `second` as a member; both watch it on fresh connections. */
export async function watchingPair(harness: Harness, id: string, first = 'alice', second = 'bob', type = 'messaging'): Promise<Pair> {
  const a = await harness.connect(first);
  const b = await harness.connect(second);
  const ac = a.channel(type, id, { members: [first, second] });
  await ac.watch();
  const bc = b.channel(type, id);
  await bc.watch();
  return { a, b, ac, bc };
}

/** Stores `id` as an admin (only server-side calls may assign roles). */
export async function createAdmin(harness: Harness, id: string): Promise<void> {
  await harness.admin.upsertUsers([{ id, name: id, role: 'admin' }]);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
