import { fireEvent, waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { part, record } from '../../element/helpers';
import { useBackend } from '../backend';
import { openWidget, type } from './composer-helpers';

const backend = useBackend();


describe('composer text', () => {
  it('suggests people after @, chooses with the keyboard, and sends a highlighted mention', async () => {
    const { el, textarea } = await openWidget(backend.server.url);
    type(textarea, 'Hello @bo');
    const options = await waitFor(() => {
      const found = [...(el.shadowRoot?.querySelectorAll('[role="option"]') ?? [])];
      if (!found.length) throw new Error('no suggestions yet');
      return found;
    }, { timeout: 5000 });
    expect(options.map((o) => o.textContent)).toEqual(expect.arrayContaining([expect.stringContaining('Bob Smith')]));
    expect(options.some((o) => o.textContent?.includes('Alice'))).toBe(false); // never oneself
    expect(textarea.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(textarea, { key: 'Enter' });
    await waitFor(() => expect(textarea.value).toBe('Hello @Bob Smith '));
    expect(el.shadowRoot?.querySelector('[role="listbox"]')).toBeNull();

    const sent = record(el, 'chat-widget-message-sent');
    type(textarea, 'Hello @Bob Smith how are you?');
    fireEvent.keyDown(textarea, { key: 'Enter' });
    await waitFor(() => expect(sent).toHaveLength(1));
    await waitFor(() => {
      const mention = [...(el.shadowRoot?.querySelectorAll('.mention') ?? [])].at(-1);
      expect(mention?.textContent).toBe('@Bob Smith');
      expect(mention?.getAttribute('data-user-id')).toBe('bob');
    });
  });

  it('closes the suggestions with Escape without clearing the text', async () => {
    const { el, textarea } = await openWidget(backend.server.url);
    type(textarea, '@ca');
    await waitFor(() => expect(el.shadowRoot?.querySelector('[part~="suggestions"]')).not.toBeNull(), { timeout: 5000 });
    fireEvent.keyDown(textarea, { key: 'Escape' });
    await waitFor(() => expect(el.shadowRoot?.querySelector('[part~="suggestions"]')).toBeNull());
    expect(textarea.value).toBe('@ca');
  });

  it('counts down near the channel limit and refuses to send over it', async () => {
    const { el, textarea } = await openWidget(backend.server.url);
    type(textarea, 'x'.repeat(4900));
    await waitFor(() => expect(part(el, 'char-counter')?.textContent).toBe('100 characters left'));
    type(textarea, 'x'.repeat(5003));
    await waitFor(() => expect(part(el, 'char-counter')?.textContent).toBe('3 characters over the limit of 5,000'));
    expect((part(el, 'send-button') as HTMLButtonElement).disabled).toBe(true);
    const sent = record(el, 'chat-widget-message-sent');
    fireEvent.keyDown(textarea, { key: 'Enter' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sent).toEqual([]);
    expect(textarea.value).toHaveLength(5003);
  });
});
