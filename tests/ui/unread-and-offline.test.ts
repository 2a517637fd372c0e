import { waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { mount, part, record, shadow, waitForEvent } from '../element/helpers';
import { API_KEY, otherUser, stubTokenEndpoint, tokenFor, useBackend } from './backend';

const backend = useBackend();

describe('the launcher badge', () => {
  it('counts messages that arrive while the panel is closed, and clears when the panel is read', async () => {
    // A browser that chatted before counts at page load (the badge client), so the bubble can show unread messages.
    localStorage.setItem(`chat-widget:${API_KEY}:session`, '1');
    stubTokenEndpoint({ token: tokenFor('carol'), user: { id: 'carol' } });
    document.title = 'Shop';
    const el = mount({ 'api-key': API_KEY, 'base-url': backend.server.url, channel: 'messaging:general', 'token-endpoint': '/token/carol-badge', notify: 'title' });
    const unread = record(el, 'chat-widget-unread');
    const messages = record(el, 'chat-widget-message');

    const dave = await otherUser(backend.server.url, 'dave');
    try {
      const channel = dave.channel('messaging', 'general');
      await channel.watch();
      await channel.sendMessage({ text: 'Carol, are you there?' });
      await channel.sendMessage({ text: 'Ping again' });
      await waitFor(() => expect(part(el, 'badge')?.textContent).toBe('2'));
      await waitFor(() => expect(unread.at(-1)).toEqual({ count: 2 }));
      expect(part(el, 'launcher')?.getAttribute('aria-label')).toBe('Open chat, 2 unread');
      // Counted without the chat: no panel, and the page heard of the messages as the chat would tell them.
      expect(part(el, 'panel')).toBeNull();
      await waitFor(() => expect(messages.map((event) => event.message.text)).toContain('Ping again'));
      expect(document.title).toBe('(2) Shop');

      el.open();
      await waitFor(() => expect(unread.at(-1)).toEqual({ count: 0 }), { timeout: 5000 });
      expect(document.title).toBe('Shop');
      el.close();
      await waitFor(() => expect(part(el, 'launcher')).not.toBeNull());
      expect(part(el, 'badge')).toBeNull();
    } finally {
      await dave.disconnectUser();
    }
  });
});

describe('connection states', () => {
  it('shows "Connecting…" first, then the channel', async () => {
    stubTokenEndpoint({ token: tokenFor('bob'), user: { id: 'bob' } });
    const el = mount({ 'api-key': API_KEY, 'base-url': backend.server.url, channel: 'general', 'token-endpoint': '/token/bob-states', open: true });
    expect(await shadow(el).findByText('Connecting…')).toBeTruthy();
    await waitFor(() => expect(part(el, 'message-list')).not.toBeNull(), { timeout: 5000 });
  });

  it('says when the browser goes offline, and the composer stays usable meanwhile', async () => {
    stubTokenEndpoint({ token: tokenFor('alice'), user: { id: 'alice' } });
    const el = mount({ 'api-key': API_KEY, 'base-url': backend.server.url, channel: 'general', 'token-endpoint': '/token/alice-offline', open: true });
    await waitForEvent(el, 'chat-widget-ready');
    await waitFor(() => expect(part(el, 'composer-input')).not.toBeNull());
    window.dispatchEvent(new Event('offline'));
    await waitFor(() => expect(part(el, 'offline-banner')?.textContent).toMatch(/You are offline/));
    // What the visitor writes now waits, shown as sending (tests/e2e/offline-writing.test.ts sends it).
    expect((part(el, 'composer-input') as HTMLTextAreaElement).disabled).toBe(false);
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(part(el, 'offline-banner')).toBeNull(), { timeout: 8000 });
    expect((part(el, 'composer-input') as HTMLTextAreaElement).disabled).toBe(false);
  });

  it('shows a readable error when the backend cannot be reached', async () => {
    stubTokenEndpoint({ token: tokenFor('alice'), user: { id: 'alice' } });
    const errors = record(document, 'chat-widget-error');
    const el = mount({ 'api-key': API_KEY, 'base-url': 'http://127.0.0.1:9', channel: 'general', 'token-endpoint': '/token/alice-down', open: true });
    const alert = await shadow(el).findByRole('alert', {}, { timeout: 20_000 });
    expect(alert.textContent).toMatch(/Chat is unavailable right now/);
    await waitFor(() => expect(errors.map((e) => e.reason)).toContain('connection-failed'));
  }, 30_000);
});

describe('the header\'s "N online"', () => {
  it('counts online members, connected or not watching, and follows them going offline', async () => {
    // alice is a member who is connected but not watching the channel (watchers alone said "1 online").
    const alice = await otherUser(backend.server.url, 'alice');
    const room = alice.channel('messaging', 'online-room', { members: ['alice', 'bob'] } as never);
    await room.create();
    stubTokenEndpoint({ token: tokenFor('bob'), user: { id: 'bob' } });
    const el = mount({ 'api-key': API_KEY, 'base-url': backend.server.url, channel: 'messaging:online-room', 'token-endpoint': '/token/bob-online', open: true });
    const subtitle = () => el.shadowRoot?.querySelector('.header-subtitle')?.textContent;
    try {
      await waitFor(() => expect(subtitle()).toBe('2 online'), { timeout: 5000 });
    } finally {
      await alice.disconnectUser();
    }
    await waitFor(() => expect(subtitle()).toBe('1 online'), { timeout: 5000 });
  });
});
