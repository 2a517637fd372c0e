import { fireEvent, waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { part } from '../../element/helpers';
import { useBackend } from '../backend';
import { openWidget, type } from './composer-helpers';

const backend = useBackend();


const options = (el: Element & { shadowRoot: ShadowRoot | null }) =>
  [...(el.shadowRoot?.querySelectorAll('[role="option"]') ?? [])].map((o) => o.textContent ?? '');

/** The reply a command gives its sender alone ("Only visible to you"), once it is shown. */
const senderOnlyReply = (el: Element & { shadowRoot: ShadowRoot | null }) =>
  waitFor(() => {
    const found = [...(el.shadowRoot?.querySelectorAll('[data-message-id]') ?? [])].find((m) => /Only visible to you/.test(m.textContent ?? ''));
    if (!found) throw new Error('no reply for the sender yet');
    return found;
  }, { timeout: 5000 });

describe('slash commands', () => {
  it('lists the channel type\'s commands after /, narrows them as you type, and inserts the chosen one', async () => {
    const { el, textarea } = await openWidget(backend.server.url);
    type(textarea, '/');
    await waitFor(() => expect(options(el).length).toBeGreaterThanOrEqual(5), { timeout: 5000 });
    expect(options(el).join(' ')).toMatch(/\/giphy.*\/mute|\/mute.*\/giphy/s);
    type(textarea, '/mu');
    await waitFor(() => expect(options(el).map((o) => o.split('[')[0])).toEqual(['/mute', '/unmute']));
    fireEvent.keyDown(textarea, { key: 'Tab' });
    // The chosen command becomes a chip; the box keeps only its arguments.
    await waitFor(() => expect(part(el, 'command-chip')?.textContent).toContain('/mute'));
    expect(textarea.value).toBe('');
    expect(textarea.placeholder).toBe('[@username]');
    expect(el.shadowRoot?.querySelector('[role="listbox"]')).toBeNull();
    fireEvent.keyDown(textarea, { key: 'Backspace' });
    await waitFor(() => expect(part(el, 'command-chip')).toBeNull());
  });

  it('takes a command typed out in full as the chosen one, so it is sent once', async () => {
    const { el, textarea } = await openWidget(backend.server.url);
    type(textarea, '/giphy cats');
    // The chip holds the command and the box its argument, as when it is picked from the list.
    await waitFor(() => expect(part(el, 'command-chip')?.textContent).toContain('/giphy'), { timeout: 5000 });
    await waitFor(() => expect(textarea.value).toBe('cats'));
    fireEvent.keyDown(textarea, { key: 'Enter' });
    const reply = await senderOnlyReply(el);
    expect(reply.textContent).toMatch(/GIPHY is not available/);
    expect(reply.textContent).not.toMatch(/\/giphy \/giphy/);
  });

  it('/giphy cannot reach its service offline and answers with a message only the sender sees', async () => {
    const { el, textarea } = await openWidget(backend.server.url);
    type(textarea, '/gi');
    await waitFor(() => expect(options(el)[0]).toMatch(/^\/giphy/), { timeout: 5000 });
    fireEvent.keyDown(textarea, { key: 'Enter' }); // chooses the command
    await waitFor(() => expect(part(el, 'command-chip')?.textContent).toContain('/giphy'));
    type(textarea, 'cats');
    await waitFor(() => expect((part(el, 'send-button') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.keyDown(textarea, { key: 'Enter' });
    const reply = await senderOnlyReply(el);
    expect(reply.textContent).toMatch(/GIPHY is not available/);
    expect(reply.querySelector('.bubble-error')).not.toBeNull();
  });
});
