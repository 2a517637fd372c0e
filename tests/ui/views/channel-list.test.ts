import { fireEvent, waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { ChatWidgetElement } from '../../../src/entries/chat-widget';
import { mount, part, shadow, waitForEvent } from '../../element/helpers';
import { API_KEY, otherUser, stubTokenEndpoint, tokenFor, useBackend } from '../backend';

const backend = useBackend();

async function openList(user: string, tokenPath: string) {
  stubTokenEndpoint({ token: tokenFor(user), user: { id: user } });
  const el = mount({ 'api-key': API_KEY, 'base-url': backend.server.url, 'token-endpoint': tokenPath, open: true });
  await waitForEvent(el, 'chat-widget-ready');
  await waitFor(() => expect(part(el, 'channel-list')).not.toBeNull(), { timeout: 5000 });
  return el;
}

const names = (el: ChatWidgetElement) =>
  [...(el.shadowRoot?.querySelectorAll('[part~="channel-item"] .channel-name') ?? [])].map((n) => n.textContent?.trim());

describe('the channel list (no channel attribute)', () => {
  it('lists the user\'s channels, newest activity first, and opens one', async () => {
    const carol = await otherUser(backend.server.url, 'carol');
    const quiet = carol.channel('messaging', 'quiet-room', { members: ['carol', 'dave'], name: 'Quiet room' } as never);
    await quiet.create();
    const busy = carol.channel('messaging', 'busy-room', { members: ['carol', 'dave'], name: 'Busy room' } as never);
    await busy.watch();
    await busy.sendMessage({ text: 'Something new' });
    await carol.disconnectUser();

    const el = await openList('dave', '/token/dave-list');
    expect(names(el).slice(0, 2)).toEqual(['Busy room', 'General']);
    expect(names(el)).toContain('Quiet room');
    expect(el.shadowRoot?.querySelector('[part~="channel-item"] .channel-preview')?.textContent).toContain('Something new');
    (el.shadowRoot?.querySelector('[part~="channel-item"]') as HTMLButtonElement).click();
    await waitFor(() => expect(shadow(el).getByRole('heading', { name: 'Busy room' })).toBeTruthy(), { timeout: 5000 });
    (await shadow(el).findByRole('button', { name: 'Back to conversations' })).click();
    await waitFor(() => expect(part(el, 'channel-list')).not.toBeNull());
  });

  it('pins a channel to the top and archives one out of the list', async () => {
    const el = await openList('dave', '/token/dave-pin');
    const row = (name: string) => [...(el.shadowRoot?.querySelectorAll('.channel-row') ?? [])].find((r) => r.textContent?.includes(name)) as HTMLElement;
    (row('Quiet room').querySelector('[aria-haspopup="menu"]') as HTMLButtonElement).click();
    (await shadow(el).findByRole('menuitem', { name: 'Pin to top' })).click();
    await waitFor(() => expect(names(el)[0]).toBe('Quiet room'), { timeout: 5000 });
    (row('Busy room').querySelector('[aria-haspopup="menu"]') as HTMLButtonElement).click();
    (await shadow(el).findByRole('menuitem', { name: 'Archive' })).click();
    await waitFor(() => expect(names(el)).not.toContain('Busy room'), { timeout: 5000 });
  });

  it('lists archived conversations behind "Archived (N)" at the end, and unarchives one back into the list', async () => {
    const carol = await otherUser(backend.server.url, 'carol');
    const room = carol.channel('messaging', 'archive-room', { members: ['carol', 'bob'], name: 'Archive room' } as never);
    await room.create();
    await carol.disconnectUser();
    const el = await openList('bob', '/token/bob-archive');
    const row = (name: string) => [...(el.shadowRoot?.querySelectorAll('.channel-row') ?? [])].find((r) => r.textContent?.includes(name)) as HTMLElement | undefined;
    await waitFor(() => expect(row('Archive room')).toBeDefined(), { timeout: 5000 });
    expect(part(el, 'archived-entry')).toBeNull();
    (row('Archive room')!.querySelector('[aria-haspopup="menu"]') as HTMLButtonElement).click();
    (await shadow(el).findByRole('menuitem', { name: 'Archive' })).click();
    await waitFor(() => expect(part(el, 'archived-entry')?.textContent).toBe('Archived (1)'), { timeout: 5000 });
    expect(names(el)).not.toContain('Archive room');

    (part(el, 'archived-entry') as HTMLButtonElement).click();
    await waitFor(() => expect(names(el)).toEqual(['Archive room']), { timeout: 5000 });
    (row('Archive room')!.querySelector('[aria-haspopup="menu"]') as HTMLButtonElement).click();
    (await shadow(el).findByRole('menuitem', { name: 'Unarchive' })).click();
    await waitFor(() => expect(names(el)).toEqual([]), { timeout: 5000 });
    (part(el, 'archived-back') as HTMLButtonElement).click();
    await waitFor(() => expect(names(el)).toContain('Archive room'), { timeout: 5000 });
    await waitFor(() => expect(part(el, 'archived-entry')).toBeNull(), { timeout: 5000 });
  });

  it('shows a muted conversation\'s unread count in a neutral badge, not the alert colour', async () => {
    const carol = await otherUser(backend.server.url, 'carol');
    const room = carol.channel('messaging', 'mute-room', { members: ['carol', 'dave'], name: 'Mute room' } as never);
    await room.watch();
    await room.sendMessage({ text: 'Unread before the mute' });
    await carol.disconnectUser();

    const el = await openList('dave', '/token/dave-mute');
    const badge = () => [...(el.shadowRoot?.querySelectorAll('.channel-row') ?? [])].find((r) => r.textContent?.includes('Mute room'))?.querySelector('.badge');
    await waitFor(() => expect(badge()?.textContent).toBe('1'), { timeout: 5000 });
    expect(badge()?.classList.contains('muted-badge')).toBe(false);
    const row = [...(el.shadowRoot?.querySelectorAll('.channel-row') ?? [])].find((r) => r.textContent?.includes('Mute room')) as HTMLElement;
    (row.querySelector('[aria-haspopup="menu"]') as HTMLButtonElement).click();
    (await shadow(el).findByRole('menuitem', { name: 'Mute for an hour' })).click();
    await waitFor(() => expect(badge()?.classList.contains('muted-badge')).toBe(true), { timeout: 5000 });
    expect(badge()?.textContent).toBe('1');
  });

  it('starts a new conversation with a person found by name', async () => {
    const el = await openList('alice', '/token/alice-new');
    (part(el, 'new-conversation') as HTMLButtonElement).click();
    const search = await shadow(el).findByRole('searchbox', { name: 'Find a person' });
    fireEvent.input(search, { target: { value: 'Dave' } });
    const person = await shadow(el).findByRole('button', { name: /Dave Okafor/ }, { timeout: 5000 });
    person.click();
    await waitFor(() => expect(part(el, 'message-list') ?? shadow(el).queryByText('No messages yet. Say hello!')).not.toBeNull(), { timeout: 5000 });
    await waitFor(() => expect(shadow(el).getByRole('heading').textContent).toBe('Dave Okafor'));
  });
});
