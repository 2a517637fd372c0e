// What a closed bubble leaves until the page has loaded: the first read of localStorage, which
// waits on the browser process, comes once the load event has passed and the page is idle.
// (A file of its own: whether storage may be read yet is decided once per page.)
import { waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setRuntimeSource } from '../../src/element/chat-widget';
import type { ChatRuntime } from '../../src/contract/runtime';
import { loadRuntime } from '../../src/entries/runtime-loader';
import { mount, part } from './helpers';

afterEach(() => {
  setRuntimeSource(loadRuntime);
  vi.restoreAllMocks();
});

describe('while the page loads', () => {
  it('reads no storage; once it has loaded, a returning browser counts its unread messages without the chat', async () => {
    localStorage.setItem('chat-widget:returning-key:session', '1');
    const source = vi.fn(() => new Promise<ChatRuntime>(() => undefined));
    setRuntimeSource(source);
    const read = vi.spyOn(Storage.prototype, 'getItem');
    Object.defineProperty(document, 'readyState', { configurable: true, get: () => 'loading' });

    // A backend that does not answer: the badge client keeps trying, and the chat is not started for it.
    const returning = mount({ 'api-key': 'returning-key', channel: 'general', 'base-url': 'http://127.0.0.1:9' });
    const firstTime = mount({ 'api-key': 'first-time-key', channel: 'general' });
    expect(part(returning, 'launcher')).not.toBeNull();
    expect(part(firstTime, 'launcher')).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(read).not.toHaveBeenCalled();
    expect(source).not.toHaveBeenCalled();

    delete (document as { readyState?: unknown }).readyState; // the prototype's getter again
    window.dispatchEvent(new Event('load'));
    await waitFor(() => expect(read).toHaveBeenCalledWith('chat-widget:returning-key:guest-id'));
    expect(new Set(read.mock.calls.map(([key]) => key))).toEqual(
      new Set(['chat-widget:first-time-key:session', 'chat-widget:returning-key:session', 'chat-widget:returning-key:unread', 'chat-widget:returning-key:guest-id']),
    );
    // This browser keeps no guest: the badge client cannot count, so the chat is started for the count.
    await waitFor(() => expect(source).toHaveBeenCalledTimes(1));
    expect(part(returning, 'panel')).toBeNull();
    returning.remove();
    firstTime.remove();
    localStorage.removeItem('chat-widget:returning-key:session');
  });
});
