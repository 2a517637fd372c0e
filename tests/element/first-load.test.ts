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
  it('reads no storage; once it has loaded, a returning browser gets the chat for its unread count', async () => {
    localStorage.setItem('chat-widget:returning-key:session', '1');
    const source = vi.fn(() => new Promise<ChatRuntime>(() => undefined));
    setRuntimeSource(source);
    const read = vi.spyOn(Storage.prototype, 'getItem');
    Object.defineProperty(document, 'readyState', { configurable: true, get: () => 'loading' });

    const returning = mount({ 'api-key': 'returning-key', channel: 'general' });
    const firstTime = mount({ 'api-key': 'first-time-key', channel: 'general' });
    expect(part(returning, 'launcher')).not.toBeNull();
    expect(part(firstTime, 'launcher')).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(read).not.toHaveBeenCalled();
    expect(source).not.toHaveBeenCalled();

    delete (document as { readyState?: unknown }).readyState; // the prototype's getter again
    window.dispatchEvent(new Event('load'));
    await waitFor(() => expect(source).toHaveBeenCalledTimes(1));
    expect(new Set(read.mock.calls.map(([key]) => key))).toEqual(new Set(['chat-widget:first-time-key:session', 'chat-widget:returning-key:session']));
    // Still a closed bubble: the runtime is wanted for the badge, not to open the panel.
    expect(part(returning, 'panel')).toBeNull();
    returning.remove();
    firstTime.remove();
    localStorage.removeItem('chat-widget:returning-key:session');
  });
});
