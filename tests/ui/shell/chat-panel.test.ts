import { fireEvent, waitFor } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { mount, part, record, shadow, waitForEvent } from '../../element/helpers';
import { API_KEY, otherUser, stubTokenEndpoint, tokenFor, useBackend } from '../backend';
import { recordDateFormats } from '../intl-spy';

const backend = useBackend();

function widget(attributes: Record<string, string | true>) {
  return mount({ 'api-key': API_KEY, 'base-url': backend.server.url, channel: 'messaging:general', ...attributes });
}

const input = (el: Element & { shadowRoot: ShadowRoot | null }) =>
  el.shadowRoot?.querySelector('[part~="composer-input"]') as HTMLTextAreaElement;

async function type(el: Parameters<typeof input>[0], text: string) {
  const textarea = input(el);
  textarea.value = text;
  fireEvent.input(textarea);
  // The composer's text store has it once the send button enables.
  await waitFor(() => expect((part(el as never, 'send-button') as HTMLButtonElement).disabled).toBe(false));
  return textarea;
}

describe('a signed-in visitor (token endpoint)', () => {
  it('opens messaging:general, sends with Enter, and hears the reply', async () => {
    stubTokenEndpoint({ token: tokenFor('alice'), user: { id: 'alice', name: 'Alice Johnson' } });
    const el = widget({ 'token-endpoint': '/token/alice', open: true });
    const ready = await waitForEvent(el, 'chat-widget-ready');
    expect(ready).toEqual({ userId: 'alice', channel: 'messaging:general' });
    await waitFor(() => expect(part(el, 'message-list')).not.toBeNull());
    expect(shadow(el).getByRole('heading', { name: 'General' })).toBeTruthy();

    const sent = record(el, 'chat-widget-message-sent');
    const text = `Enter sends ${Date.now()}`;
    const textarea = await type(el, text);
    fireEvent.keyDown(textarea, { key: 'Enter' });
    await waitFor(() => expect(sent.map((e) => e.message.text)).toContain(text));
    await waitFor(() => expect(textarea.value).toBe(''));
    expect(shadow(el).getByText(text).closest('[part~="own-message"]')).not.toBeNull();

    const arrived = record(el, 'chat-widget-message');
    const bob = await otherUser(backend.server.url, 'bob');
    try {
      const channel = bob.channel('messaging', 'general');
      await channel.watch();
      await channel.sendMessage({ text: 'Hi Alice, Bob here' });
      await waitFor(() => expect(shadow(el).getByText('Hi Alice, Bob here')).toBeTruthy());
      await waitFor(() => expect(arrived.map((e) => e.message.user.id)).toContain('bob'));
    } finally {
      await bob.disconnectUser();
    }
  });

  it('Shift+Enter adds a line instead of sending', async () => {
    stubTokenEndpoint({ token: tokenFor('carol'), user: { id: 'carol' } });
    const el = widget({ 'token-endpoint': '/token/carol', open: true });
    await waitFor(() => expect(part(el, 'composer-input')).not.toBeNull(), { timeout: 5000 });
    const sent = record(el, 'chat-widget-message-sent');
    const textarea = await type(el, 'first line');
    expect(fireEvent.keyDown(textarea, { key: 'Enter', shiftKey: true })).toBe(true); // not prevented
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sent).toEqual([]);
    expect(textarea.value).toBe('first line');
  });

  it('fetches a new token when the first one has expired (the SDK token provider)', async () => {
    const calls = stubTokenEndpoint(
      { token: tokenFor('dave', -60), user: { id: 'dave' } },
      { token: tokenFor('dave'), user: { id: 'dave' } },
    );
    const el = widget({ 'token-endpoint': '/token/dave', open: true });
    await waitForEvent(el, 'chat-widget-ready');
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(shadow(el).queryByRole('alert')).toBeNull();
  });

  it('refreshes an expired token once before the typing event and the send, so the message is stored at once', async () => {
    // The first token runs out two seconds after it is issued: the backend then refuses it (code 40).
    const calls = stubTokenEndpoint({ token: tokenFor('bob', 2), user: { id: 'bob' } }, { token: tokenFor('bob'), user: { id: 'bob' } });
    const el = widget({ 'token-endpoint': '/token/bob-expiry', open: true });
    await waitForEvent(el, 'chat-widget-ready');
    await waitFor(() => expect(part(el, 'composer-input')).not.toBeNull(), { timeout: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 2500)); // expired for the backend too
    const sent = record(el, 'chat-widget-message-sent');
    // Every answer the SDK's requests get from now on (it sends them with XMLHttpRequest).
    const statuses: number[] = [];
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, ...args: Parameters<XMLHttpRequest['send']>) {
      this.addEventListener('loadend', () => statuses.push(this.status));
      return send.apply(this, args);
    };
    try {
      const textarea = await type(el, 'after the token ran out');
      fireEvent.keyDown(textarea, { key: 'Enter' });
      await waitFor(() => expect(sent).toHaveLength(1), { timeout: 5000 });
    } finally {
      XMLHttpRequest.prototype.send = send;
    }
    // No request went out with the expired token: no 401, so none of the SDK's back-off either.
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status === 401)).toEqual([]);
    // One refresh for the typing event and the send together. Before, each got a 401 and its own
    // refresh, the second after the SDK's back-off (the message came 3.3 s after Enter).
    expect(calls).toHaveLength(2);
  });

  it('keeps the connection and the text being typed when the element moves', async () => {
    stubTokenEndpoint({ token: tokenFor('alice'), user: { id: 'alice' } });
    const el = widget({ 'token-endpoint': '/token/alice-move', open: true });
    await waitForEvent(el, 'chat-widget-ready');
    await type(el, 'half-written thought');
    const elsewhere = document.createElement('section');
    document.body.append(elsewhere);
    const errors = record(el, 'chat-widget-error');
    elsewhere.append(el); // disconnected and connected again: r2wc unmounts and remounts
    await waitFor(() => expect(input(el)?.value).toBe('half-written thought'));
    expect(shadow(el).queryByText('Connecting…')).toBeNull();
    expect(errors).toEqual([]);
  });
});

describe('a guest visitor (no token endpoint)', () => {
  it('connects as a guest, and returns as the same guest', async () => {
    const el = widget({ channel: 'livestream:lobby', 'user-name': 'Visitor', open: true });
    const first = await waitForEvent(el, 'chat-widget-ready');
    expect(first.userId).toMatch(/^guest-/);
    expect(localStorage.getItem(`chat-widget:${API_KEY}:guest-id`)).toBe(first.userId);
    el.remove();
    await new Promise((resolve) => setTimeout(resolve, 1200)); // the session closes once no element holds it

    const again = widget({ channel: 'livestream:lobby', open: true });
    const second = await waitForEvent(again, 'chat-widget-ready');
    expect(second.userId).toBe(first.userId);
  });

  it('a returning browser connects at page load to show its unread count', async () => {
    localStorage.setItem(`chat-widget:${API_KEY}:session`, '1');
    const el = widget({ channel: 'livestream:lobby' });
    await waitForEvent(el, 'chat-widget-ready');
    expect(part(el, 'panel')).toBeNull();
  });

  it("makes the time formatter ahead of the messages for a shown panel, not for a returning browser's closed bubble", async () => {
    // The page's first Intl formatter costs 11-16 ms of ICU set-up: a shown panel makes it while
    // its channel's answer travels, but a bubble that stays closed must not pay for it. The
    // channel has no messages, so nothing but that warm-up makes a time formatter.
    const bob = await otherUser(backend.server.url, 'bob');
    await bob.channel('livestream', 'quiet').create();
    await bob.disconnectUser();
    // Dutch's catalogue is a file beside the script, which this page has not: it is not found.
    vi.stubGlobal('fetch', vi.fn(async () => new Response('not found', { status: 404 })));
    const { made, spy } = recordDateFormats();
    try {
      localStorage.setItem(`chat-widget:${API_KEY}:session`, '1');
      const el = widget({ channel: 'livestream:quiet', locale: 'nl' });
      await waitForEvent(el, 'chat-widget-ready');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(made).not.toContain('nl');
      el.setAttribute('open', '');
      await waitFor(() => expect(made).toContain('nl'));
      expect(part(el, 'message')).toBeNull();
    } finally {
      spy.mockRestore();
    }
  });

  it('says so when the channel cannot be read', async () => {
    const bob = await otherUser(backend.server.url, 'bob');
    await bob.channel('team', 'bob-only', { members: ['bob'] }).create();
    await bob.disconnectUser();
    stubTokenEndpoint({ token: tokenFor('dave'), user: { id: 'dave' } });
    const errors = record(document, 'chat-widget-error');
    const el = widget({ 'token-endpoint': '/token/dave-private', channel: 'team:bob-only', open: true });
    const alert = await shadow(el).findByRole('alert', {}, { timeout: 5000 });
    expect(alert.textContent).toMatch(/could not be opened/);
    expect(alert.textContent).toMatch(/not allowed/);
    await waitFor(() => expect(errors.map((e) => e.reason)).toContain('channel-failed'));
  });
});
