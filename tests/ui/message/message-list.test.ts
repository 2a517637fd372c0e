import { fireEvent, waitFor } from '@testing-library/preact';
import type { StreamChat } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mount, part, shadow, waitForEvent } from '../../element/helpers';
import { API_KEY, otherUser, stubTokenEndpoint, tokenFor, useBackend } from '../backend';

const backend = useBackend();
const CHANNEL_ID = `long-${Date.now()}`;
let bob: StreamChat;
const ids: string[] = [];

beforeAll(async () => {
  bob = await otherUser(backend.server.url, 'bob');
  const channel = bob.channel('messaging', CHANNEL_ID, { members: ['bob', 'alice'] });
  await channel.watch();
  for (let i = 1; i <= 60; i++) {
    const { message } = await channel.sendMessage({ text: `Message number ${i}` });
    ids.push(message.id);
  }
  await channel.sendMessage({ text: 'Look: <img src=x onerror="alert(1)"><script>alert(2)</script> and **bold** `code`' });
});

afterAll(async () => {
  await bob?.disconnectUser();
});

async function openAsAlice(tokenPath: string) {
  stubTokenEndpoint({ token: tokenFor('alice'), user: { id: 'alice', name: 'Alice' } });
  const el = mount({ 'api-key': API_KEY, 'base-url': backend.server.url, channel: `messaging:${CHANNEL_ID}`, 'token-endpoint': tokenPath, open: true });
  await waitForEvent(el, 'chat-widget-ready');
  await waitFor(() => expect(part(el, 'message-list')).not.toBeNull());
  return el;
}

const rendered = (el: Element & { shadowRoot: ShadowRoot | null }) =>
  [...(el.shadowRoot?.querySelectorAll<HTMLElement>('[data-message-id]') ?? [])].map((m) => m.textContent ?? '');

describe('the message list', () => {
  it('opens with the newest page of 25 and loads older pages when scrolled to the top, keeping the DOM windowed', async () => {
    const el = await openAsAlice('/token/alice-pages');
    expect(rendered(el)).toHaveLength(25);
    expect(rendered(el).at(-1)).toMatch(/Look:/);
    const scroller = el.shadowRoot?.querySelector('.message-scroller') as HTMLElement;
    scroller.scrollTop = 0;
    fireEvent.scroll(scroller);
    await waitFor(() => expect(shadow(el).queryByText('Loading older messages…')).toBeNull());
    await waitFor(() => expect(el.shadowRoot?.querySelectorAll('[data-row-key]').length).toBeGreaterThan(25));
    // 50 messages are loaded now, but without layout the window shows only the newest 40 rows.
    expect(el.shadowRoot?.querySelectorAll('[data-row-key]').length).toBeLessThanOrEqual(40);
  });

  it('jumps to a message from a #message-<id> link, highlights it, and jumps back to the latest', async () => {
    const el = await openAsAlice('/token/alice-jump');
    location.hash = `#message-${ids[4]}`; // the page fires hashchange itself
    await waitFor(() => expect(el.shadowRoot?.querySelector('.message.highlighted')?.textContent).toMatch(/Message number 5\b/));
    const jump = await shadow(el).findByRole('button', { name: '↓ Jump to latest' });
    jump.click();
    await waitFor(() => expect(rendered(el).at(-1)).toMatch(/Look:/));
    location.hash = '';
  });

  it('says so when a jumped-to message does not exist, and leaves the list as it was', async () => {
    const el = await openAsAlice('/token/alice-missing');
    const before = rendered(el);
    location.hash = '#message-does-not-exist';
    const notice = await waitFor(() => {
      const text = part(el, 'notice')?.textContent;
      if (!text) throw new Error('no notice yet');
      return text;
    });
    expect(notice).toMatch(/could not be (shown|found)/);
    expect(rendered(el)).toEqual(before);
    location.hash = '';
  });

  it('renders message text as text: HTML stays inert, markdown becomes elements', async () => {
    const el = await openAsAlice('/token/alice-html');
    const last = [...(el.shadowRoot?.querySelectorAll('[data-message-id]') ?? [])].at(-1) as HTMLElement;
    expect(last.querySelector('img, script')).toBeNull();
    expect(last.textContent).toContain('<img src=x onerror="alert(1)"><script>alert(2)</script>');
    expect(last.querySelector('strong')?.textContent).toBe('bold');
    expect(last.querySelector('code')?.textContent).toBe('code');
  });

  it('has a message menu that works from the keyboard', async () => {
    const el = await openAsAlice('/token/alice-menu');
    const last = [...(el.shadowRoot?.querySelectorAll('[data-message-id]') ?? [])].at(-1) as HTMLElement;
    const trigger = last.querySelector('[part~="message-actions-button"]') as HTMLButtonElement;
    trigger.click();
    const menu = await waitFor(() => {
      const found = last.querySelector('[role="menu"]');
      if (!found) throw new Error('menu not open');
      return found as HTMLElement;
    });
    const items = [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')];
    expect(items.map((item) => item.textContent)).toEqual(expect.arrayContaining(['Reply in thread', 'Quote', 'Copy text', 'Mark unread']));
    expect(items.map((item) => item.textContent)).not.toContain('Edit'); // someone else's message
    await waitFor(() => expect(el.shadowRoot?.activeElement).toBe(items[0]));
    fireEvent.keyDown(items[0] as HTMLElement, { key: 'ArrowDown' });
    expect(el.shadowRoot?.activeElement).toBe(items[1]);
    fireEvent.keyDown(items[1] as HTMLElement, { key: 'End' });
    expect(el.shadowRoot?.activeElement).toBe(items.at(-1));
    fireEvent.keyDown(items.at(-1) as HTMLElement, { key: 'Escape' });
    await waitFor(() => expect(last.querySelector('[role="menu"]')).toBeNull());
    expect(el.shadowRoot?.activeElement).toBe(trigger);
  });

  it('quotes a message into the composer from the menu', async () => {
    const el = await openAsAlice('/token/alice-quote');
    const last = [...(el.shadowRoot?.querySelectorAll('[data-message-id]') ?? [])].at(-1) as HTMLElement;
    (last.querySelector('[part~="message-actions-button"]') as HTMLButtonElement).click();
    (await shadow(el).findByRole('menuitem', { name: 'Quote' })).click();
    await waitFor(() => expect(part(el, 'composer-context')?.textContent).toMatch(/Quoting.*Bob/));
    (await shadow(el).findByRole('button', { name: 'Remove quote' })).click();
    await waitFor(() => expect(part(el, 'composer-context')).toBeNull());
  });
});
