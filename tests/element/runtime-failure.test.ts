// If the chat's runtime cannot start (say, a script error in it), the panel says so and the page
// hears a chat-widget-error, instead of "Connecting…" forever.
import { waitFor } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { mount, part, waitForEvent } from './helpers';

vi.mock('../../src/entries/runtime-loader', () => ({
  loadRuntime: () => Promise.reject(new Error('runtime exploded')),
}));

describe('a runtime that fails to start', () => {
  it('shows an error in the panel and emits chat-widget-error', async () => {
    const el = mount({ 'api-key': 'runtime-failure-key', channel: 'general' });
    const failure = waitForEvent(el, 'chat-widget-error');
    el.open();
    expect(await failure).toEqual({ reason: 'connection-failed', message: 'The chat could not start: runtime exploded' });
    await waitFor(() => expect(part(el, 'status-error')?.textContent).toContain('Chat is unavailable right now.'));
    expect(part(el, 'launcher')).not.toBeNull();
  });
});
