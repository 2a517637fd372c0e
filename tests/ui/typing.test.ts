import { waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { mount, part, waitForEvent } from '../element/helpers';
import { API_KEY, otherUser, stubTokenEndpoint, tokenFor, useBackend } from './backend';

const backend = useBackend();

describe('typing', () => {
  it('shows "Bob Smith is typing…" while Bob types, and clears it when he stops', async () => {
    stubTokenEndpoint({ token: tokenFor('alice'), user: { id: 'alice' } });
    const el = mount({ 'api-key': API_KEY, 'base-url': backend.server.url, channel: 'messaging:general', 'token-endpoint': '/token/alice-typing', open: true });
    await waitForEvent(el, 'chat-widget-ready');
    const bob = await otherUser(backend.server.url, 'bob');
    try {
      const channel = bob.channel('messaging', 'general');
      await channel.watch();
      await channel.keystroke();
      await waitFor(() => expect(part(el, 'typing-indicator')?.textContent).toBe('Bob Smith is typing…'), { timeout: 5000 });
      await channel.stopTyping();
      await waitFor(() => expect(part(el, 'typing-indicator')?.textContent).toBe(''), { timeout: 5000 });
    } finally {
      await bob.disconnectUser();
    }
  });
});
