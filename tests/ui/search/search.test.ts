// The search view in happy-dom against the real backend: opening it (header button, Ctrl+K /
// Cmd+K), results grouped by source with a filter, paging, acting on each kind of result, and
// bad input that never breaks the view.
import { fireEvent, waitFor, within } from '@testing-library/preact';
import { StreamChat, type ChannelData } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatWidgetElement } from '../../../src/entries/chat-widget';
import { mount, part, record, shadow, waitForEvent } from '../../element/helpers';
import { API_KEY, otherUser, stubTokenEndpoint, tokenFor, useBackend } from '../backend';

const backend = useBackend();
const clients: StreamChat[] = [];

beforeAll(async () => {
  // Hana exists (connecting stores her name); Bob has a named channel with Alice and talks in
  // general, where the harbour message then sinks below a page of later chat.
  const hana = new StreamChat(API_KEY, { baseURL: backend.server.url });
  await hana.connectUser({ id: 'hana', name: 'Hana Harbour' }, tokenFor('hana'));
  const bob = await otherUser(backend.server.url, 'bob');
  clients.push(hana, bob);
  const crew = bob.channel('messaging', 'harbour-crew', { name: 'Harbour crew', members: ['bob', 'alice'] } as ChannelData);
  await crew.watch();
  await crew.sendMessage({ text: 'Harbour crew meets on Friday' });
  for (let i = 1; i <= 25; i++) await crew.sendMessage({ text: `Tideline report ${i}` });
  await crew.sendMessage({ text: 'Careful: <img src=x onerror="alert(1)"> is just text' });
  const general = bob.channel('messaging', 'general');
  await general.watch();
  await general.sendMessage({ text: 'The harbour lights go on at dusk' });
  for (let i = 1; i <= 30; i++) await general.sendMessage({ text: `Later chatter ${i}` });
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.disconnectUser()));
});

async function openAsAlice(tokenPath: string) {
  stubTokenEndpoint({ token: tokenFor('alice'), user: { id: 'alice', name: 'Alice Johnson' } });
  const el = mount({ 'api-key': API_KEY, 'base-url': backend.server.url, channel: 'messaging:general', 'token-endpoint': tokenPath, open: true });
  await waitForEvent(el, 'chat-widget-ready');
  await waitFor(() => expect(part(el, 'message-list')).not.toBeNull());
  return el;
}

const searchInput = (el: ChatWidgetElement) => part(el, 'search-input') as HTMLInputElement;
const group = (el: ChatWidgetElement, name: string) => el.shadowRoot?.querySelector<HTMLElement>(`section[aria-label="${name}"]`) ?? null;
const hits = (el: ChatWidgetElement, name: string) => [...(group(el, name)?.querySelectorAll<HTMLElement>('[part~="search-result"]') ?? [])];

async function openSearch(el: ChatWidgetElement) {
  (part(el, 'search-button') as HTMLButtonElement).click();
  await waitFor(() => expect(searchInput(el)).not.toBeNull());
}

function typeQuery(el: ChatWidgetElement, text: string) {
  const input = searchInput(el);
  input.value = text;
  fireEvent.input(input);
}

describe('the search view', () => {
  it('finds people, channels and messages and opens a message highlighted in its channel', async () => {
    const el = await openAsAlice('/token/search-alice-1');
    await openSearch(el);
    await waitFor(() => expect(el.shadowRoot?.activeElement).toBe(searchInput(el)));
    expect(shadow(el).getByRole('heading', { name: 'Search' })).toBeTruthy();
    typeQuery(el, 'HARBO');

    await waitFor(() => expect(hits(el, 'People').map((hit) => hit.textContent)).toEqual([expect.stringContaining('Hana Harbour')]));
    await waitFor(() => expect(hits(el, 'Channels').map((hit) => hit.textContent)).toEqual([expect.stringContaining('Harbour crew')]));
    await waitFor(() => expect(hits(el, 'Messages')).toHaveLength(2));
    const [newest, older] = hits(el, 'Messages');
    expect(newest?.textContent).toContain('The harbour lights go on at dusk');
    expect(newest?.textContent).toContain('Bob Smith');
    expect(newest?.textContent).toContain('in General');
    expect(older?.textContent).toContain('in Harbour crew');
    // The matched beginning of the word, in the text's own case, is marked.
    expect([...(newest?.querySelectorAll('mark') ?? [])].map((mark) => mark.textContent)).toEqual(['harbo']);

    newest?.click();
    await waitFor(() => expect(el.shadowRoot?.querySelector('.message.highlighted')?.textContent).toContain('The harbour lights go on at dusk'));
    expect(part(el, 'search')).toBeNull();
    expect(shadow(el).getByRole('heading', { name: 'General' })).toBeTruthy();
  });

  it('opens another channel from a message hit, and goes back to the configured one', async () => {
    const el = await openAsAlice('/token/search-alice-2');
    await openSearch(el);
    typeQuery(el, 'friday');
    await waitFor(() => expect(hits(el, 'Messages')).toHaveLength(1));
    hits(el, 'Messages')[0]?.click();
    await waitFor(() => expect(el.shadowRoot?.querySelector('.message.highlighted')?.textContent).toContain('Harbour crew meets on Friday'));
    expect(shadow(el).getByRole('heading', { name: 'Harbour crew' })).toBeTruthy();
    (part(el, 'back-button') as HTMLButtonElement).click();
    await waitFor(() => expect(shadow(el).getByRole('heading', { name: 'General' })).toBeTruthy());
  });

  it('opens with Ctrl+K or Cmd+K while the panel has focus; Escape clears, then leaves search', async () => {
    const el = await openAsAlice('/token/search-alice-3');
    const closed = record(el, 'chat-widget-close');
    const composer = part(el, 'composer-input') as HTMLTextAreaElement;
    fireEvent.keyDown(composer, { key: 'k', ctrlKey: true });
    await waitFor(() => expect(searchInput(el)).not.toBeNull());
    await waitFor(() => expect(el.shadowRoot?.activeElement).toBe(searchInput(el)));

    typeQuery(el, 'harbour');
    await waitFor(() => expect(hits(el, 'Messages')).toHaveLength(2));
    fireEvent.keyDown(searchInput(el), { key: 'Escape' });
    await waitFor(() => expect(searchInput(el).value).toBe(''));
    expect(shadow(el).getByText('Find people to talk to, your channels, and messages in them.')).toBeTruthy();
    fireEvent.keyDown(searchInput(el), { key: 'Escape' });
    await waitFor(() => expect(part(el, 'message-list')).not.toBeNull());
    expect(closed).toEqual([]);

    fireEvent.keyDown(part(el, 'composer-input') as HTMLElement, { key: 'K', metaKey: true });
    await waitFor(() => expect(searchInput(el)).not.toBeNull());
  });

  it('filters to one source and pages messages with next as the reader scrolls', async () => {
    const el = await openAsAlice('/token/search-alice-4');
    await openSearch(el);
    typeQuery(el, 'tideline');
    await waitFor(() => expect(hits(el, 'Messages')).toHaveLength(10));
    const filters = within(el.shadowRoot?.querySelector('[role="group"]') as HTMLElement);
    filters.getByRole('button', { name: 'Messages' }).click();
    await waitFor(() => expect(filters.getByRole('button', { name: 'Messages' }).getAttribute('aria-pressed')).toBe('true'));
    expect(group(el, 'People')).toBeNull();
    expect(group(el, 'Channels')).toBeNull();

    fireEvent.scroll(part(el, 'search-results') as HTMLElement);
    await waitFor(() => expect(hits(el, 'Messages')).toHaveLength(20));
    shadow(el).getByRole('button', { name: 'Load more messages' }).click();
    await waitFor(() => expect(hits(el, 'Messages')).toHaveLength(25));
    expect(hits(el, 'Messages').map((hit) => hit.textContent?.match(/Tideline report \d+/)?.[0])).toEqual(
      Array.from({ length: 25 }, (_, i) => `Tideline report ${25 - i}`),
    );
    expect(shadow(el).queryByRole('button', { name: 'Load more messages' })).toBeNull();

    // People only: a new query runs for that source alone, and All brings the others back.
    filters.getByRole('button', { name: 'People' }).click();
    await waitFor(() => expect(shadow(el).getByText('No people match “tideline”.')).toBeTruthy());
    filters.getByRole('button', { name: 'All' }).click();
    typeQuery(el, 'hana');
    await waitFor(() => expect(hits(el, 'People')).toHaveLength(1));
    // The messages search may still be running ("Searching messages…"); with nothing found, its group goes.
    await waitFor(() => expect(group(el, 'Messages')).toBeNull());
  });

  it('opens the direct conversation with a person found', async () => {
    const el = await openAsAlice('/token/search-alice-5');
    await openSearch(el);
    typeQuery(el, 'hana');
    await waitFor(() => expect(hits(el, 'People')).toHaveLength(1));
    hits(el, 'People')[0]?.click();
    await waitFor(() => expect(part(el, 'composer-input')).not.toBeNull());
    const [direct] = await clients[0]!.queryChannels({ members: { $eq: ['alice', 'hana'] } });
    expect(direct?.id).toMatch(/^!members-/);
    expect(part(el, 'back-button')).not.toBeNull();
  });
});

describe('bad input in the search view', () => {
  it('shows nothing found for special characters, and text with markup as text', async () => {
    const el = await openAsAlice('/token/search-alice-6');
    await openSearch(el);
    typeQuery(el, `"*'--`);
    await waitFor(() => expect(shadow(el).getByText(`Nothing matches “"*'--”.`)).toBeTruthy());
    typeQuery(el, 'NEAR OR');
    await waitFor(() => expect(shadow(el).getByText('Nothing matches “NEAR OR”.')).toBeTruthy());

    typeQuery(el, 'onerror');
    await waitFor(() => expect(hits(el, 'Messages')).toHaveLength(1));
    expect(hits(el, 'Messages')[0]?.textContent).toContain('<img src=x onerror="alert(1)"> is just text');
    expect(el.shadowRoot?.querySelector('img')).toBeNull();
  });

  it('never shows a blank list: while a longer query waits for its search after an empty answer, it says it is searching', async () => {
    const el = await openAsAlice('/token/search-alice-8');
    await openSearch(el);
    typeQuery(el, 'zqx');
    await waitFor(() => expect(shadow(el).getByText('Nothing matches “zqx”.')).toBeTruthy());
    // The next letter's search is debounced: until it runs, every source still holds the empty
    // answer for "zqx", which once made the results a blank list with no text.
    typeQuery(el, 'zqxw');
    const results = part(el, 'search-results') as HTMLElement;
    expect(results.textContent?.trim()).not.toBe('');
    expect(results.textContent).toContain('Searching');
    await waitFor(() => expect(shadow(el).getByText('Nothing matches “zqxw”.')).toBeTruthy());
  });

  it('says why a 10,000-character query failed, and searches again after', async () => {
    const el = await openAsAlice('/token/search-alice-7');
    await openSearch(el);
    // Typing or pasting stops at the backend's limit; a script can still set more.
    expect(searchInput(el).maxLength).toBe(1000);
    typeQuery(el, 'x'.repeat(10_000));
    await waitFor(() =>
      expect(within(group(el, 'Messages') as HTMLElement).getByRole('alert').textContent).toContain(
        'Messages could not be searched: message_filter_conditions.text is longer than 1000 characters.',
      ),
    );
    // People and channels simply match nobody.
    expect(el.shadowRoot?.querySelectorAll('[role="alert"]')).toHaveLength(1);
    typeQuery(el, 'harbour');
    await waitFor(() => expect(hits(el, 'Messages')).toHaveLength(2));
    expect(el.shadowRoot?.querySelector('[role="alert"]')).toBeNull();
  });
});
