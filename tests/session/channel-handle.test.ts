// The channel handle mirrors the SDK's channel state into a store after each event, and only
// what an event changed: in a busy channel, each needless update re-renders the message list.
import { waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { StreamChat } from 'stream-chat';
import { ChannelHandle } from '../../src/session/channel-handle';
import { otherUser, useBackend } from '../ui/backend';

const backend = useBackend();

async function watchedBy(client: StreamChat) {
  const handle = new ChannelHandle(client, { type: 'messaging', id: 'general' });
  await handle.load();
  const updates: string[][] = [];
  handle.state.subscribe((state, previous) => {
    if (previous) updates.push(Object.keys(state).filter((key) => state[key as keyof typeof state] !== previous[key as keyof typeof previous]));
  });
  return { handle, updates };
}

/** Resolves when `client` has received the next `type` event from `userId`. */
function eventFrom(client: StreamChat, type: string, userId: string) {
  return new Promise<void>((resolve) => {
    const subscription = client.on(type, (event) => {
      if (event.user?.id !== userId) return;
      subscription.unsubscribe();
      resolve();
    });
  });
}

describe('ChannelHandle', () => {
  it('does not update the view for its own typing echo, and does for another member typing', async () => {
    const alice = await otherUser(backend.server.url, 'alice');
    const bob = await otherUser(backend.server.url, 'bob');
    try {
      const { handle, updates } = await watchedBy(alice);
      const bobWatching = eventFrom(alice, 'user.watching.start', 'bob');
      await bob.channel('messaging', 'general').watch();
      await bobWatching;
      updates.length = 0;

      const ownEcho = eventFrom(alice, 'typing.start', 'alice');
      await handle.channel.keystroke();
      await ownEcho;
      expect(updates).toEqual([]);

      const bobTyping = eventFrom(alice, 'typing.start', 'bob');
      await bob.channel('messaging', 'general').keystroke();
      await bobTyping;
      expect(updates).toEqual([['typing']]);
      expect(handle.state.getLatestValue().typing).toEqual(['Bob Smith']);
    } finally {
      await Promise.all([alice.disconnectUser(), bob.disconnectUser()]);
    }
  });

  it('still updates members when a presence change edits them in place', async () => {
    const alice = await otherUser(backend.server.url, 'alice');
    try {
      const { handle, updates } = await watchedBy(alice);
      const carolOnline = eventFrom(alice, 'user.presence.changed', 'carol');
      const carol = await otherUser(backend.server.url, 'carol');
      await carolOnline;
      await waitFor(() => expect(updates.flat()).toContain('members'));
      const member = handle.state.getLatestValue().members.find((m) => m.user?.id === 'carol');
      expect(member?.user?.online).toBe(true);
      await carol.disconnectUser();
    } finally {
      await alice.disconnectUser();
    }
  });
});
