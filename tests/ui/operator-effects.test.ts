// What the site owner's server does reaches the visitor's open panel live: a rename, a
// truncation, a deletion, a ban (with its end), a deactivated account; and a channel moderator
// is offered the actions their role allows.
import { waitFor } from '@testing-library/preact';
import { StreamChat, type Channel } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatWidgetElement } from '../../src/entries/chat-widget';
import { mount, part, shadow, waitForEvent } from '../element/helpers';
import { API_KEY, API_SECRET, otherUser, stubTokenEndpoint, tokenFor, useBackend } from './backend';

const backend = useBackend();
let server: StreamChat;
let bob: StreamChat;

beforeAll(async () => {
  server = new StreamChat(API_KEY, API_SECRET, { baseURL: backend.server.url });
  await server.upsertUsers([{ id: 'ann', name: 'Ann' }, { id: 'bob', name: 'Bob' }, { id: 'cleo', name: 'Cleo' }, { id: 'dina', name: 'Dina' }]);
  bob = await otherUser(backend.server.url, 'bob');
});

afterAll(async () => {
  await bob?.disconnectUser();
});

/** A channel of `visitor` and Bob, with one message from Bob in it. */
async function channelWithBob(id: string, visitor: string): Promise<Channel> {
  const channel = bob.channel('messaging', id, { members: ['bob', visitor] });
  await channel.watch();
  await channel.sendMessage({ text: `Bob says hello in ${id}` });
  return channel;
}

async function openAs(visitor: string, id: string): Promise<ChatWidgetElement> {
  stubTokenEndpoint({ token: tokenFor(visitor), user: { id: visitor } });
  const el = mount({ 'api-key': API_KEY, 'base-url': backend.server.url, channel: `messaging:${id}`, 'token-endpoint': `/token/${visitor}-${id}`, open: true });
  await waitForEvent(el, 'chat-widget-ready');
  await waitFor(() => expect(part(el, 'message-list')?.textContent).toContain(`Bob says hello in ${id}`));
  return el;
}

const composerDisabled = (el: ChatWidgetElement) => (part(el, 'composer-input') as HTMLTextAreaElement | null)?.disabled;

describe('the server\'s changes, live in the panel', () => {
  it('renames the header when the channel is renamed', async () => {
    await channelWithBob('op-rename', 'ann');
    const el = await openAs('ann', 'op-rename');
    await server.channel('messaging', 'op-rename').update({ name: 'Order #1042' } as never);
    await waitFor(() => expect(part(el, 'header')?.textContent).toContain('Order #1042'));
    el.remove();
  });

  it('empties the list when the channel is truncated, keeping the message sent with it', async () => {
    await channelWithBob('op-truncate', 'ann');
    const el = await openAs('ann', 'op-truncate');
    await server.channel('messaging', 'op-truncate').truncate({ message: { text: 'The history was cleared', user_id: 'bob' } });
    await waitFor(() => {
      const list = part(el, 'message-list')?.textContent ?? '';
      expect(list).not.toContain('Bob says hello');
      expect(list).toContain('The history was cleared');
    });
    el.remove();
  });

  it('says so when the channel is deleted', async () => {
    await channelWithBob('op-delete', 'ann');
    const el = await openAs('ann', 'op-delete');
    await server.channel('messaging', 'op-delete').delete();
    await shadow(el).findByText('This conversation was deleted.');
    expect(part(el, 'composer-input')).toBeNull();
    el.remove();
  });

  it('shows a ban from the channel with its end and disables the composer, until the ban is lifted', async () => {
    await channelWithBob('op-ban', 'ann');
    const el = await openAs('ann', 'op-ban');
    expect(composerDisabled(el)).toBe(false);
    await server.channel('messaging', 'op-ban').banUser('ann', { timeout: 90, banned_by_id: 'bob' });
    // The end's time, with its date when that is another day (90 minutes on, late in the evening).
    await waitFor(() => expect(part(el, 'banned-notice')?.textContent).toMatch(/You are banned from this conversation until (\w{3} \d{1,2}, )?\d{1,2}:\d{2}/));
    expect(composerDisabled(el)).toBe(true);
    await server.channel('messaging', 'op-ban').unbanUser('ann');
    await waitFor(() => expect(part(el, 'banned-notice')).toBeNull());
    expect(composerDisabled(el)).toBe(false);
    el.remove();
  });

  it('shows a ban already in force when the panel opens', async () => {
    await channelWithBob('op-banned-before', 'ann');
    await server.channel('messaging', 'op-banned-before').banUser('ann', { banned_by_id: 'bob' });
    const el = await openAs('ann', 'op-banned-before');
    await waitFor(() => expect(part(el, 'banned-notice')?.textContent).toBe('You are banned from this conversation.'));
    expect(composerDisabled(el)).toBe(true);
    el.remove();
  });

  it('shows an app-wide ban already in force, with its end, when the panel opens', async () => {
    await channelWithBob('op-app-ban', 'dina');
    await server.banUser('dina', { timeout: 120, banned_by_id: 'bob' });
    const el = await openAs('dina', 'op-app-ban');
    await waitFor(() => expect(part(el, 'banned-notice')?.textContent).toMatch(/^You are banned from the chat until .+\.$/));
    expect(composerDisabled(el)).toBe(true);
    el.remove();
    await server.unbanUser('dina');
  });

  it('tells a deactivated visitor their account is closed, with no "try again", and the error event', async () => {
    await channelWithBob('op-deactivate', 'cleo');
    const el = await openAs('cleo', 'op-deactivate');
    const failed = waitForEvent(el, 'chat-widget-error');
    await server.deactivateUser('cleo');
    await shadow(el).findByText('Your chat account has been deactivated.');
    expect((await failed).reason).toBe('account-deactivated');
    expect(shadow(el).queryByRole('button', { name: 'Try again' })).toBeNull();
    el.remove();
    await server.reactivateUser('cleo');
  });
});

describe('moderators', () => {
  it('offers a channel moderator the ban and permanent delete on others\' messages, and a member neither', async () => {
    await channelWithBob('op-moderate', 'ann');
    const member = await openAs('ann', 'op-moderate');
    const actionLabels = async (el: ChatWidgetElement) => {
      const message = [...(el.shadowRoot?.querySelectorAll<HTMLElement>('[data-message-id]') ?? [])].find((m) => m.textContent?.includes('Bob says hello'));
      (message?.querySelector('[part~="message-actions-button"]') as HTMLButtonElement).click();
      const items = await shadow(el).findAllByRole('menuitem');
      const labels = items.map((item) => item.textContent ?? '');
      (message?.querySelector('[part~="message-actions-button"]') as HTMLButtonElement).click();
      return labels;
    };
    expect(await actionLabels(member)).not.toContain('Ban from this conversation');
    member.remove();

    await server.channel('messaging', 'op-moderate').addModerators(['ann']);
    const moderator = await openAs('ann', 'op-moderate');
    const labels = await actionLabels(moderator);
    expect(labels).toEqual(expect.arrayContaining(['Ban from this conversation', 'Delete permanently']));
    moderator.remove();
  });
});

describe('a closed account, on opening', () => {
  it('says so when a deactivated visitor opens the chat again, with the error event', async () => {
    await server.upsertUsers([{ id: 'eve', name: 'Eve' }]);
    await server.deactivateUser('eve');
    stubTokenEndpoint({ token: tokenFor('eve'), user: { id: 'eve' } });
    const el = mount({ 'api-key': API_KEY, 'base-url': backend.server.url, channel: 'messaging:general', 'token-endpoint': '/token/eve', open: true });
    const failed = await waitForEvent(el, 'chat-widget-error');
    expect(failed.reason).toBe('account-deactivated');
    await shadow(el).findByText('Your chat account has been deactivated.');
    el.remove();
  });
});
