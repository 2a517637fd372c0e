// Signing in and out without a reload: changing `token-endpoint` signs the previous visitor
// out (their client disconnected before the next one connects, what the browser kept for them
// forgotten) and the next one in, with nothing of the previous panel left.
import { waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount, part, record, waitForEvent } from '../element/helpers';
import { API_KEY, otherUser, stubTokenEndpoint, tokenFor, useBackend } from '../ui/backend';

const backend = useBackend();

afterEach(() => {
  vi.restoreAllMocks();
});

describe('changing who the visitor is', () => {
  it('signs the previous visitor out before the next one connects, and shows only the new one\'s messages', async () => {
    const bob = await otherUser(backend.server.url, 'bob');
    const room = bob.channel('messaging', 'identity-room', { members: ['bob', 'alice', 'carol'] });
    await room.watch();
    await room.sendMessage({ text: 'Only for the three of us' });

    // Bob watches the room: alice's client must be gone before carol's arrives.
    const watching: string[] = [];
    room.on((event) => {
      if (event.type === 'user.watching.start' || event.type === 'user.watching.stop') watching.push(`${event.type.slice(14)} ${event.user?.id}`);
    });

    stubTokenEndpoint(
      { token: tokenFor('alice'), user: { id: 'alice' } },
      { token: tokenFor('carol'), user: { id: 'carol' } },
    );
    const el = mount({ 'api-key': API_KEY, 'base-url': backend.server.url, channel: 'messaging:identity-room', 'token-endpoint': '/token/alice', open: true });
    expect((await waitForEvent(el, 'chat-widget-ready')).userId).toBe('alice');
    await waitFor(() => expect(part(el, 'message-list')?.textContent).toContain('Only for the three of us'));

    const ready = record(el, 'chat-widget-ready');
    el.setAttribute('token-endpoint', '/token/carol');
    await waitFor(() => expect(ready.at(-1)?.userId).toBe('carol'), { timeout: 5000 });
    await waitFor(() => expect(watching).toContain('start carol'));
    expect(watching.filter((entry) => entry.endsWith('alice') || entry.endsWith('carol'))).toEqual(['start alice', 'stop alice', 'start carol']);
    expect(part(el, 'message-list')?.textContent).toContain('Only for the three of us');
    el.remove();
    await bob.disconnectUser();
  });

  it('several elements on the page follow the same change on one connection', async () => {
    const bob = await otherUser(backend.server.url, 'bob');
    const room = bob.channel('messaging', 'identity-pair', { members: ['bob', 'alice', 'carol'] });
    await room.watch();
    const watching: string[] = [];
    room.on((event) => {
      if (event.type === 'user.watching.start' || event.type === 'user.watching.stop') watching.push(`${event.type.slice(14)} ${event.user?.id}`);
    });
    const calls = stubTokenEndpoint({ token: tokenFor('alice'), user: { id: 'alice' } }, { token: tokenFor('carol'), user: { id: 'carol' } });
    const common = { 'api-key': API_KEY, 'base-url': backend.server.url, channel: 'messaging:identity-pair', 'token-endpoint': '/token/alice' };
    const bubble = mount({ ...common, open: true });
    const inline = mount({ ...common, mode: 'inline' });
    expect((await waitForEvent(bubble, 'chat-widget-ready')).userId).toBe('alice');
    await waitFor(() => expect(part(inline, 'composer-input')).not.toBeNull());

    // The site signs carol in: it sets the endpoint on each element, in one task.
    const readyBubble = record(bubble, 'chat-widget-ready');
    const readyInline = record(inline, 'chat-widget-ready');
    for (const el of [bubble, inline]) el.setAttribute('token-endpoint', '/token/carol');
    await waitFor(() => expect([readyBubble.at(-1)?.userId, readyInline.at(-1)?.userId]).toEqual(['carol', 'carol']), { timeout: 5000 });
    await waitFor(() => expect(watching).toContain('start carol'));
    // One session per identity: one sign-in each, alice gone before carol came.
    expect(calls).toEqual(['/token/alice', '/token/carol'].map((path) => new URL(path, document.baseURI).href));
    expect(watching.filter((entry) => entry.endsWith('alice') || entry.endsWith('carol'))).toEqual(['start alice', 'stop alice', 'start carol']);
    bubble.remove();
    inline.remove();
    await bob.disconnectUser();
  });

  it('forgets a guest\'s id when they sign in, and signing out starts a new guest', async () => {
    // No channel: a guest may not read the members-only demo channel, but lists their own.
    const guest = mount({ 'api-key': API_KEY, 'base-url': backend.server.url, open: true });
    const first = (await waitForEvent(guest, 'chat-widget-ready')).userId;
    expect(localStorage.getItem(`chat-widget:${API_KEY}:guest-id`)).toBe(first);
    stubTokenEndpoint({ token: tokenFor('alice'), user: { id: 'alice' } });
    const ready = record(guest, 'chat-widget-ready');
    guest.setAttribute('token-endpoint', '/token/alice-again');
    await waitFor(() => expect(ready.at(-1)?.userId).toBe('alice'), { timeout: 5000 });
    expect(localStorage.getItem(`chat-widget:${API_KEY}:guest-id`)).toBeNull();

    // Signing out again: a guest, and not the one from before.
    guest.removeAttribute('token-endpoint');
    await waitFor(() => expect(ready.at(-1)?.userId).toMatch(/^guest-/), { timeout: 5000 });
    expect(ready.at(-1)?.userId).not.toBe(first);
    guest.remove();
  });

  it('with guests="none", signing out closes the chat instead of starting a guest, and signing in opens it again', async () => {
    stubTokenEndpoint({ token: tokenFor('alice'), user: { id: 'alice' } }, { token: tokenFor('carol'), user: { id: 'carol' } });
    const el = mount({ 'api-key': API_KEY, 'base-url': backend.server.url, channel: 'messaging:general', 'token-endpoint': '/token/alice', guests: 'none', open: true });
    expect((await waitForEvent(el, 'chat-widget-ready')).userId).toBe('alice');
    expect(localStorage.getItem(`chat-widget:${API_KEY}:session`)).toBe('1');
    const ready = record(el, 'chat-widget-ready');

    el.removeAttribute('token-endpoint');
    await waitFor(() => expect(part(el, 'panel')).toBeNull());
    expect(part(el, 'launcher')).toBeNull();
    expect(localStorage.getItem(`chat-widget:${API_KEY}:session`)).toBeNull();
    // Inline, the place says why.
    el.setAttribute('mode', 'inline');
    expect(el.shadowRoot?.textContent).toContain('Sign in to chat with us.');
    el.removeAttribute('mode');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ready).toEqual([]); // no guest was started

    el.setAttribute('token-endpoint', '/token/carol');
    expect(part(el, 'launcher')).not.toBeNull();
    await waitFor(() => expect(ready.at(-1)?.userId).toBe('carol'), { timeout: 5000 });
    await waitFor(() => expect(part(el, 'composer-input')).not.toBeNull());
    el.remove();
  });
});
