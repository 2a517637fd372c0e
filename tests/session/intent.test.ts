// The first message: the visitor's intent (a pointer over the launcher, its
// focus, a touch) fetches the token and opens the socket, so the click finds them ready; a page
// where nobody reaches for the launcher makes no request; and the channel's watch goes out with
// the socket, not after the connection has gone round the panel's render.
import { waitFor } from '@testing-library/preact';
import { StreamChat } from 'stream-chat';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setRuntimeSource } from '../../src/element/chat-widget';
import type { ChatRuntime } from '../../src/contract/runtime';
import { sessionFor } from '../../src/session/sessions';
import { loadRuntime } from '../../src/entries/runtime-loader';
import { mount, part, waitForEvent } from '../element/helpers';
import { API_KEY, stubTokenEndpoint, tokenFor, useBackend } from '../ui/backend';

const backend = useBackend();
const SESSION_MARK = `chat-widget:${API_KEY}:session`;

afterEach(() => {
  setRuntimeSource(loadRuntime);
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const settle = (ms = 100) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the visitor reaching for the launcher', () => {
  it('makes no request while nobody shows intent', async () => {
    const calls = stubTokenEndpoint({ token: tokenFor('alice'), user: { id: 'alice' } });
    const sockets = vi.spyOn(StreamChat.prototype, 'connect');
    const el = mount({ 'api-key': API_KEY, 'base-url': backend.server.url, channel: 'messaging:general', 'token-endpoint': '/token/alice' });
    window.dispatchEvent(new Event('load'));
    await settle(300);
    expect(calls).toEqual([]);
    expect(sockets).not.toHaveBeenCalled();
    expect(part(el, 'panel')).toBeNull();
    el.remove();
  });

  it('fetches the token and opens the socket on hover, once, and the click uses them', async () => {
    const calls = stubTokenEndpoint({ token: tokenFor('alice'), user: { id: 'alice' } });
    const sockets = vi.spyOn(StreamChat.prototype, 'connect');
    const el = mount({ 'api-key': API_KEY, 'base-url': backend.server.url, channel: 'messaging:general', 'token-endpoint': '/token/alice' });
    const launcher = part(el, 'launcher') as HTMLElement;
    launcher.dispatchEvent(new Event('pointerenter'));
    await waitFor(() => expect(sockets).toHaveBeenCalledTimes(1));
    expect(calls).toHaveLength(1);
    // Still a closed bubble, and nothing remembered: a hover is not a visit to the chat.
    expect(part(el, 'panel')).toBeNull();
    expect(localStorage.getItem(SESSION_MARK)).toBeNull();

    // More intent (the keyboard too), then the click: the same token and socket.
    launcher.dispatchEvent(new Event('focus'));
    launcher.dispatchEvent(new Event('pointerenter'));
    const ready = waitForEvent(el, 'chat-widget-ready');
    launcher.click();
    expect((await ready).userId).toBe('alice');
    await waitFor(() => expect(part(el, 'message-list')).not.toBeNull());
    expect(calls).toHaveLength(1);
    expect(sockets).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(SESSION_MARK)).toBe('1');
    el.remove();
  });

  it('sends the token request while the runtime is still loading, and the session uses its answer', async () => {
    const calls = stubTokenEndpoint({ token: tokenFor('alice'), user: { id: 'alice' } });
    const sockets = vi.spyOn(StreamChat.prototype, 'connect');
    let loaded: (runtime: ChatRuntime) => void = () => undefined;
    setRuntimeSource(() => new Promise<ChatRuntime>((resolve) => (loaded = resolve)));
    const el = mount({ 'api-key': API_KEY, 'base-url': backend.server.url, channel: 'messaging:general', 'token-endpoint': '/token/parallel' });
    part(el, 'launcher')?.dispatchEvent(new Event('pointerenter'));
    expect(calls).toHaveLength(1);
    expect(sockets).not.toHaveBeenCalled();
    loaded(await loadRuntime());
    await waitFor(() => expect(sockets).toHaveBeenCalledTimes(1));
    const ready = waitForEvent(el, 'chat-widget-ready');
    el.open();
    expect((await ready).userId).toBe('alice');
    expect(calls).toHaveLength(1);
    el.remove();
  });

  it('hosts the panel of a click that follows the intent at once only when the socket is under way', async () => {
    stubTokenEndpoint({ token: tokenFor('alice'), user: { id: 'alice' } });
    const el = mount({ 'api-key': API_KEY, 'base-url': backend.server.url, channel: 'messaging:general', 'token-endpoint': '/token/at-once' });
    // What the element shows when the socket is opened: the panel's long first render would
    // otherwise hold up the token's answer and the socket behind it.
    const connect = StreamChat.prototype.connect;
    let panelAtConnect: Element | null | undefined;
    vi.spyOn(StreamChat.prototype, 'connect').mockImplementation(function (this: StreamChat, ...args) {
      panelAtConnect ??= el.shadowRoot?.querySelector('chat-widget-panel') ?? null;
      return connect.apply(this, args);
    });
    const launcher = part(el, 'launcher') as HTMLElement;
    launcher.dispatchEvent(new Event('pointerenter'));
    const ready = waitForEvent(el, 'chat-widget-ready');
    launcher.click();
    expect(el.shadowRoot?.textContent).toContain('Connecting');
    expect((await ready).userId).toBe('alice');
    expect(panelAtConnect).toBeNull();
    await waitFor(() => expect(part(el, 'message-list')).not.toBeNull());
    el.remove();
  });

  it('starts the session on a touch and on focus as well', async () => {
    for (const type of ['touchstart', 'focus']) {
      const calls = stubTokenEndpoint({ token: tokenFor('alice'), user: { id: 'alice' } });
      const el = mount({ 'api-key': API_KEY, 'base-url': backend.server.url, channel: 'messaging:general', 'token-endpoint': `/token/${type}` });
      part(el, 'launcher')?.dispatchEvent(new Event(type));
      const session = sessionFor({ apiKey: API_KEY, baseUrl: backend.server.url, tokenEndpoint: new URL(`/token/${type}`, document.baseURI).href, userName: null });
      await waitFor(() => expect(session.state.getLatestValue().status).toBe('connected'));
      expect(calls).toHaveLength(1);
      expect(session.held).toBe(false);
      await session.signOut();
      el.remove();
      vi.unstubAllGlobals();
    }
  });

  it('starts nothing on intent where the site lets no guest chat and nobody is signed in', async () => {
    const post = vi.spyOn(StreamChat.prototype, 'connect');
    const el = mount({ 'api-key': API_KEY, 'base-url': backend.server.url, guests: 'none', launcher: 'bubble' });
    part(el, 'launcher')?.dispatchEvent(new Event('pointerenter'));
    await settle(200);
    expect(post).not.toHaveBeenCalled();
    el.remove();
  });
});

describe('sessions started on intent', () => {
  it('two of one app, for different visitors, do not wait on each other: the later one replaces the earlier', async () => {
    stubTokenEndpoint({ token: tokenFor('alice'), user: { id: 'alice' } }, { token: tokenFor('carol'), user: { id: 'carol' } });
    const identity = (path: string) => ({ apiKey: API_KEY, baseUrl: backend.server.url, tokenEndpoint: path, userName: null });
    const first = sessionFor(identity('/token/first'));
    const second = sessionFor(identity('/token/second'));
    first.prepare();
    second.prepare();
    await waitFor(() => expect([first, second].map((session) => session.state.getLatestValue().status)).toEqual(['idle', 'connected']));
    await Promise.all([first.signOut(), second.signOut()]);
  });
});

describe('the channel query', () => {
  it('is sent as soon as the socket has its connection id, before connect() resolves', async () => {
    stubTokenEndpoint({ token: tokenFor('alice'), user: { id: 'alice' } });
    const session = sessionFor({ apiKey: API_KEY, baseUrl: backend.server.url, tokenEndpoint: '/token/early', userName: null });
    const release = session.retain();
    const queries: Array<{ watch: unknown; connectionId: string | undefined }> = [];
    const post = session.client.post.bind(session.client);
    vi.spyOn(session.client, 'post').mockImplementation((url: string, data?: unknown) => {
      if (url.endsWith('/query')) queries.push({ watch: (data as { watch?: unknown }).watch, connectionId: session.client._getConnectionID() });
      return post(url, data as never);
    });
    session.watchEarly({ type: 'messaging', id: 'general' });
    await session.connect();
    const handle = session.channel({ type: 'messaging', id: 'general' });
    // Already asked for when the connection resolves (the panel would only now render and ask).
    expect(handle.state.getLatestValue().status).not.toBe('idle');
    await handle.load();
    expect(handle.state.getLatestValue().status).toBe('ready');
    expect(queries).toHaveLength(1);
    expect(queries[0]?.watch).toBe(true);
    expect(queries[0]?.connectionId).toBeTruthy();
    release();
    await session.signOut();
  });
});
