import { fireEvent, waitFor } from '@testing-library/preact';
import type { Channel, StreamChat } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatWidgetElement } from '../../../src/entries/chat-widget';
import { mount, part, shadow, waitForEvent } from '../../element/helpers';
import { API_KEY, otherUser, stubTokenEndpoint, tokenFor, useBackend } from '../backend';

const backend = useBackend();
const CHANNEL_ID = `actions-${Date.now()}`;
let bob: StreamChat;
let bobChannel: Channel;

beforeAll(async () => {
  bob = await otherUser(backend.server.url, 'bob');
  bobChannel = bob.channel('messaging', CHANNEL_ID, { members: ['bob', 'alice'] });
  await bobChannel.watch();
  await bobChannel.sendMessage({ text: 'Bob opens the conversation' });
});

afterAll(async () => {
  await bob?.disconnectUser();
});

async function openAsAlice(tokenPath: string) {
  stubTokenEndpoint({ token: tokenFor('alice'), user: { id: 'alice', name: 'Alice Johnson' } });
  const el = mount({ 'api-key': API_KEY, 'base-url': backend.server.url, channel: `messaging:${CHANNEL_ID}`, 'token-endpoint': tokenPath, open: true });
  await waitForEvent(el, 'chat-widget-ready');
  await waitFor(() => expect(part(el, 'message-list')).not.toBeNull());
  return el;
}

const messageWith = (el: ChatWidgetElement, text: string) =>
  waitFor(
    () => {
      const found = [...(el.shadowRoot?.querySelectorAll<HTMLElement>('[data-message-id]') ?? [])].reverse().find((m) => m.textContent?.includes(text));
      if (!found) throw new Error(`no message with "${text}"`);
      return found;
    },
    { timeout: 5000 },
  );

async function choose(el: ChatWidgetElement, message: HTMLElement, label: string | RegExp) {
  (message.querySelector('[part~="message-actions-button"]') as HTMLButtonElement).click();
  const item = await shadow(el).findByRole('menuitem', { name: label });
  item.click();
}

async function send(el: ChatWidgetElement, text: string) {
  const textarea = part(el, 'composer-input') as HTMLTextAreaElement;
  textarea.value = text;
  fireEvent.input(textarea);
  await waitFor(() => expect((part(el, 'send-button') as HTMLButtonElement).disabled).toBe(false));
  fireEvent.keyDown(textarea, { key: 'Enter' });
  return messageWith(el, text);
}

describe('message actions', () => {
  it('reacts from the menu, shows the count pressed, tells the other user, and removes it again', async () => {
    const el = await openAsAlice('/token/alice-react');
    const message = await messageWith(el, 'Bob opens the conversation');
    await choose(el, message, 'React with love');
    const chip = await waitFor(() => {
      const found = message.ownerDocument && el.shadowRoot?.querySelector<HTMLButtonElement>('[part~="reaction"]');
      if (!found) throw new Error('no reaction yet');
      return found;
    }, { timeout: 5000 });
    expect(chip.textContent).toMatch(/❤️\s*1/);
    expect(chip.getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(bobChannel.state.messages[0]?.reaction_groups?.love?.count).toBe(1), { timeout: 5000 });
    chip.click();
    await waitFor(() => expect(el.shadowRoot?.querySelector('[part~="reaction"]')).toBeNull(), { timeout: 5000 });
  });

  it('edits an own message: the composer fills, Enter saves, the message says edited', async () => {
    const el = await openAsAlice('/token/alice-edit');
    const mine = await send(el, 'A typo in thsi one');
    await choose(el, mine, 'Edit');
    const textarea = part(el, 'composer-input') as HTMLTextAreaElement;
    await waitFor(() => expect(textarea.value).toBe('A typo in thsi one'));
    expect(part(el, 'composer-context')?.textContent).toMatch(/Editing your message/);
    textarea.value = 'A typo in this one';
    fireEvent.input(textarea);
    await waitFor(() => expect((part(el, 'send-button') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.keyDown(textarea, { key: 'Enter' });
    const edited = await messageWith(el, 'A typo in this one');
    await waitFor(() => expect(edited.textContent).toContain('(edited)'));
  });

  it('Esc cancels an edit and leaves the message as it was', async () => {
    const el = await openAsAlice('/token/alice-cancel');
    const mine = await send(el, 'Keep me as I am');
    await choose(el, mine, 'Edit');
    const textarea = part(el, 'composer-input') as HTMLTextAreaElement;
    await waitFor(() => expect(textarea.value).toBe('Keep me as I am'));
    fireEvent.keyDown(textarea, { key: 'Escape' });
    await waitFor(() => expect(textarea.value).toBe(''));
    expect(part(el, 'composer-context')).toBeNull();
  });

  it('deletes an own message after a confirmation', async () => {
    const el = await openAsAlice('/token/alice-delete');
    const mine = await send(el, 'Delete me please');
    const id = mine.dataset.messageId as string;
    (mine.querySelector('[part~="message-actions-button"]') as HTMLButtonElement).click();
    (await shadow(el).findByRole('menuitem', { name: 'Delete' })).click();
    (await shadow(el).findByRole('menuitem', { name: 'Delete: are you sure?' })).click();
    await waitFor(() => expect(el.shadowRoot?.querySelector(`[data-message-id="${id}"]`)?.textContent).toContain('This message was deleted'), { timeout: 5000 });
  });

  it('pins a message into the pinned bar, jumps to it from there, and unpins it', async () => {
    const el = await openAsAlice('/token/alice-pin');
    const message = await messageWith(el, 'Bob opens the conversation');
    await choose(el, message, 'Pin');
    await waitFor(() => expect(part(el, 'pinned-bar')?.textContent).toContain('Bob opens the conversation'), { timeout: 5000 });
    (part(el, 'pinned-bar') as HTMLButtonElement).click();
    await waitFor(() => expect(el.shadowRoot?.querySelector('.message.highlighted')?.textContent).toContain('Bob opens'));
    await choose(el, await messageWith(el, 'Bob opens the conversation'), 'Unpin');
    await waitFor(() => expect(part(el, 'pinned-bar')).toBeNull(), { timeout: 5000 });
  });

  it('marks a message unread without marking it read again at once', async () => {
    const el = await openAsAlice('/token/alice-unread');
    const message = await messageWith(el, 'Bob opens the conversation');
    await choose(el, message, 'Mark unread');
    await waitFor(() => expect(part(el, 'notice')?.textContent).toContain('Marked unread.'), { timeout: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const read = await bob.channel('messaging', CHANNEL_ID).query({ state: true });
    expect(read.read?.find((r) => r.user.id === 'alice')?.unread_messages).toBeGreaterThan(0);
  });

  it('sets a reminder and lists it in the reminders panel, where it can be removed', async () => {
    const el = await openAsAlice('/token/alice-remind');
    const message = await messageWith(el, 'Bob opens the conversation');
    await choose(el, message, 'Remind me in an hour');
    await waitFor(() => expect(part(el, 'notice')?.textContent).toContain('You will be reminded in an hour.'), { timeout: 5000 });
    (part(el, 'reminders-button') as HTMLButtonElement).click();
    const row = await waitFor(() => {
      const found = part(el, 'reminder');
      if (!found) throw new Error('no reminder row');
      return found;
    }, { timeout: 5000 });
    expect(row.textContent).toContain('Bob opens the conversation');
    (await shadow(el).findByRole('button', { name: 'Remove reminder' })).click();
    await waitFor(() => expect(part(el, 'reminder')).toBeNull(), { timeout: 5000 });
  });
});

describe('threads', () => {
  it('replies in a thread, also to the channel, and the parent shows the reply count', async () => {
    const el = await openAsAlice('/token/alice-thread');
    const parent = await messageWith(el, 'Bob opens the conversation');
    await choose(el, parent, 'Reply in thread');
    await waitFor(() => expect(part(el, 'thread')).not.toBeNull(), { timeout: 5000 });
    const textarea = part(el, 'composer-input') as HTMLTextAreaElement;
    expect(textarea.getAttribute('aria-label')).toBe('Reply');
    (await shadow(el).findByRole('checkbox', { name: 'Also send to channel' })).click();
    textarea.value = 'A reply in the thread';
    fireEvent.input(textarea);
    await waitFor(() => expect((part(el, 'send-button') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.keyDown(textarea, { key: 'Enter' });
    await waitFor(() => expect(part(el, 'thread')?.textContent).toContain('A reply in the thread'), { timeout: 5000 });
    (await shadow(el).findByRole('button', { name: /^Back to / })).click();
    await waitFor(() => expect(part(el, 'thread-link')?.textContent).toMatch(/1 reply/), { timeout: 5000 });
    await messageWith(el, 'A reply in the thread'); // also sent to the channel
    (part(el, 'threads-button') as HTMLButtonElement).click();
    await waitFor(() => expect(part(el, 'thread-item')?.textContent).toContain('Bob opens the conversation'), { timeout: 5000 });
  });
});

describe('members', () => {
  it('lists members with presence', async () => {
    const el = await openAsAlice('/token/alice-members');
    (part(el, 'members-button') as HTMLButtonElement).click();
    await waitFor(() => expect(el.shadowRoot?.querySelectorAll('[part~="member"]').length).toBe(2), { timeout: 5000 });
    const bobRow = [...(el.shadowRoot?.querySelectorAll('[part~="member"]') ?? [])].find((m) => m.textContent?.includes('Bob'));
    expect(bobRow?.textContent).toContain('Online');
  });
});
