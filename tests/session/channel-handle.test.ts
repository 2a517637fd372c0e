// The channel handle mirrors the SDK's channel state into a store after each event, and only
// what an event changed: in a busy channel, each needless update re-renders the message list.
import { waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { StreamChat } from 'stream-chat';
import { ChannelHandle } from '../../src/session/channel-handle';
import { API_KEY, API_SECRET, otherUser, useBackend } from '../ui/backend';

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

  it('marks nothing read between the recovery\'s new page and the catch-up that shows the missed messages', async () => {
    const alice = await otherUser(backend.server.url, 'alice');
    const owner = new StreamChat(API_KEY, API_SECRET, { baseURL: backend.server.url });
    const channel = owner.channel('messaging', `recovery-${Date.now()}`, { members: ['alice', 'bob'], created_by_id: 'bob' } as never);
    await channel.create();
    await channel.sendMessage({ text: 'before', user_id: 'bob' });
    try {
      const handle = new ChannelHandle(alice, { type: 'messaging', id: channel.id ?? '' });
      await handle.load();
      // Away: the socket is closed while bob writes more than a catch-up brings (131 unread with the one before).
      await alice.closeConnection();
      for (let i = 0; i < 130; i++) await channel.sendMessage({ text: `missed ${i}`, user_id: 'bob' });
      await alice.openConnection();
      // Whatever asks to mark read while the catch-up is under way (a scroll as the offline
      // banner goes) must not: the list does not show the missed messages yet.
      let asked = false;
      const recovered = alice.on('connection.recovered', () => {
        asked = true;
        void handle.markRead();
      });
      await alice.recoverState();
      recovered.unsubscribe();
      expect(asked).toBe(true);
      await waitFor(() => expect(handle.state.getLatestValue().hasNewer).toBe(true));
      expect(handle.state.getLatestValue().unreadCount).toBe(131);
      const [stored] = await owner.queryChannelsRequest({ cid: channel.cid }, {}, { user_id: 'alice' } as never);
      expect(stored?.read?.find((entry) => entry.user.id === 'alice')?.unread_messages).toBe(131);
    } finally {
      await alice.disconnectUser();
    }
  });

  it('marks read up to the last message shown, so what the backend holds beyond it stays unread', async () => {
    const alice = await otherUser(backend.server.url, 'alice');
    const owner = new StreamChat(API_KEY, API_SECRET, { baseURL: backend.server.url });
    const channel = owner.channel('messaging', `read-up-to-${Date.now()}`, { members: ['alice', 'bob'], created_by_id: 'bob' } as never);
    await channel.create();
    try {
      const handle = new ChannelHandle(alice, { type: 'messaging', id: channel.id ?? '' });
      await handle.load();
      const arrived = eventFrom(alice, 'message.new', 'bob');
      await channel.sendMessage({ text: 'seen', user_id: 'bob' });
      await arrived;
      await waitFor(() => expect(handle.state.getLatestValue().messages.at(-1)?.text).toBe('seen'));
      // The socket is gone: three more reach the backend but not this client.
      await alice.closeConnection();
      for (const text of ['unseen 1', 'unseen 2', 'unseen 3']) await channel.sendMessage({ text, user_id: 'bob' });
      await handle.markRead();
      const [stored] = await owner.queryChannelsRequest({ cid: channel.cid }, {}, { user_id: 'alice' } as never);
      expect(stored?.read?.find((entry) => entry.user.id === 'alice')?.unread_messages).toBe(3);
    } finally {
      await alice.disconnectUser();
    }
  });
});
