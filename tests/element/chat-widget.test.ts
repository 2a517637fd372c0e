import { waitFor } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import * as sessions from '../../src/session/sessions';
import { ChatWidgetElement, defineChatWidget } from '../../src/entries/chat-widget';
import { mount, part, record, shadow } from './helpers';

describe('<chat-widget> registration', () => {
  it('is defined once, and defining it again is harmless', () => {
    expect(customElements.get('chat-widget')).toBe(ChatWidgetElement);
    expect(() => defineChatWidget()).not.toThrow();
    class Other extends HTMLElement {}
    expect(() => defineChatWidget()).not.toThrow();
    expect(customElements.get('chat-widget')).not.toBe(Other);
  });

  it('renders into an open shadow root with the shared stylesheet', () => {
    const el = mount({ 'api-key': 'key', channel: 'messaging:general' });
    expect(el.shadowRoot).not.toBeNull();
    expect(el.shadowRoot?.mode).toBe('open');
    const other = mount({ 'api-key': 'key' });
    const sheets = el.shadowRoot?.adoptedStyleSheets ?? [];
    expect(sheets.length).toBe(1);
    expect(other.shadowRoot?.adoptedStyleSheets[0]).toBe(sheets[0]);
    expect(part(el, 'launcher')).not.toBeNull();
  });
});

describe('attributes', () => {
  it('opens with a bare boolean open attribute', async () => {
    const el = mount({ 'api-key': 'key', channel: 'support', open: true });
    await waitFor(() => expect(part(el, 'panel')).not.toBeNull());
    expect(el.isOpen).toBe(true);
  });

  it('treats open="false" as closed', () => {
    const el = mount({ 'api-key': 'key', open: 'false' });
    expect(part(el, 'panel')).toBeNull();
    expect(el.isOpen).toBe(false);
  });

  it('restores the default when an attribute is removed', async () => {
    const el = mount({ 'api-key': 'key', mode: 'inline' });
    await waitFor(() => expect(part(el, 'panel')).not.toBeNull());
    expect(part(el, 'launcher')).toBeNull();
    el.removeAttribute('mode');
    await waitFor(() => expect(part(el, 'launcher')).not.toBeNull());
    expect(part(el, 'panel')).toBeNull();
  });

  it('follows attribute changes after connection', async () => {
    const el = mount({ 'api-key': 'key' });
    el.setAttribute('theme', 'dark');
    await waitFor(() => expect(el.shadowRoot?.querySelector('.widget')?.getAttribute('data-theme')).toBe('dark'));
    el.removeAttribute('theme');
    await waitFor(() => expect(el.shadowRoot?.querySelector('.widget')?.getAttribute('data-theme')).toBe('auto'));
  });

  it('maps kebab-case attributes to camelCase properties', () => {
    const el = mount({ 'api-key': 'key', 'token-endpoint': '/token', 'user-name': 'Ann', 'base-url': 'http://127.0.0.1:9' });
    const props = el as unknown as Record<string, unknown>;
    expect(props.apiKey).toBe('key');
    expect(props.tokenEndpoint).toBe('/token');
    expect(props.userName).toBe('Ann');
    expect(props.baseUrl).toBe('http://127.0.0.1:9');
  });
});

describe('methods and events', () => {
  it('open(), close() and toggle() drive the panel and emit open/close events', async () => {
    const el = mount({ 'api-key': 'key', channel: 'general' });
    const opened = record(el, 'chat-widget-open');
    const closed = record(el, 'chat-widget-close');
    el.open();
    await waitFor(() => expect(part(el, 'panel')).not.toBeNull());
    expect(el.hasAttribute('open')).toBe(true);
    await waitFor(() => expect(opened).toHaveLength(1));
    el.close();
    await waitFor(() => expect(part(el, 'panel')).toBeNull());
    await waitFor(() => expect(closed).toHaveLength(1));
    el.toggle();
    await waitFor(() => expect(el.isOpen).toBe(true));
    el.toggle();
    await waitFor(() => expect(el.isOpen).toBe(false));
  });

  it('the launcher button and the close button open and close the panel', async () => {
    const el = mount({ 'api-key': 'key', channel: 'general' });
    (part(el, 'launcher') as HTMLButtonElement).click();
    await waitFor(() => expect(el.isOpen).toBe(true));
    await waitFor(() => expect(part(el, 'close-button')).not.toBeNull());
    (part(el, 'close-button') as HTMLButtonElement).click();
    await waitFor(() => expect(el.isOpen).toBe(false));
  });

  it('events bubble out of the shadow root to the page', async () => {
    const seen: string[] = [];
    document.addEventListener('chat-widget-error', (event) => seen.push(event.type));
    mount({ channel: 'general' });
    await waitFor(() => expect(seen).toContain('chat-widget-error'));
  });
});

describe('bad attributes', () => {
  const cases: Array<[string, Record<string, string | true>, string, RegExp]> = [
    ['a missing api-key', { channel: 'general', open: true }, 'missing-api-key', /api-key attribute is missing/],
    ['a channel type with a colon', { 'api-key': 'k', channel: 'a:b:c', open: true }, 'invalid-channel', /cannot contain a colon/],
    ['a channel id with a colon', { 'api-key': 'k', channel: 'messaging:x:y', open: true }, 'invalid-channel', /cannot contain a colon/],
    ['an empty channel id', { 'api-key': 'k', channel: 'messaging:', open: true }, 'invalid-channel', /type:id/],
    ['an unknown mode', { 'api-key': 'k', mode: 'sidebar', open: true }, 'invalid-mode', /"bubble" or "inline"/],
    ['an unknown theme', { 'api-key': 'k', theme: 'pink', open: true }, 'invalid-theme', /"auto", "light" or "dark"/],
    ['a base-url that is not http', { 'api-key': 'k', 'base-url': 'ftp://x', open: true }, 'invalid-base-url', /not an http/],
  ];

  it.each(cases)('%s shows a readable error in the panel and emits chat-widget-error', async (_, attributes, reason, text) => {
    const errors = record(document, 'chat-widget-error' as const);
    const el = mount(attributes);
    await waitFor(() => expect(errors.map((e) => e.reason)).toContain(reason));
    const alert = await shadow(el).findByRole('alert');
    expect(alert.textContent).toMatch(text);
    expect(alert.textContent).toMatch(/not set up correctly/);
  });

  it('recovers when the bad attribute is fixed', async () => {
    const el = mount({ 'api-key': 'k', channel: 'a:b:c', open: true, 'token-endpoint': '/never' });
    await shadow(el).findByRole('alert');
    el.setAttribute('channel', 'messaging:general');
    await waitFor(() => expect(shadow(el).queryByText(/not set up correctly/)).toBeNull());
  });
});

describe('a closed bubble', () => {
  it('is only its launcher until opened: no client and no panel styles are made, and opening keeps the same button', async () => {
    const made = vi.spyOn(sessions, 'sessionFor');
    const el = mount({ 'api-key': 'closed-bubble-key', channel: 'general' });
    const launcher = part(el, 'launcher') as HTMLButtonElement;
    expect(launcher).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(made).not.toHaveBeenCalled();
    // Only the launcher's stylesheet so far; the panel's comes with the first panel.
    expect(el.shadowRoot?.adoptedStyleSheets).toHaveLength(1);

    launcher.focus();
    launcher.click();
    await waitFor(() => expect(part(el, 'panel')).not.toBeNull());
    await waitFor(() => expect(made).toHaveBeenCalled());
    expect(el.shadowRoot?.adoptedStyleSheets).toHaveLength(2);
    // The same button closes it; a keyboard user who opened it is taken into the panel, so Tab goes on there.
    expect(part(el, 'launcher')).toBe(launcher);
    expect(el.shadowRoot?.activeElement).toBe(part(el, 'panel'));
    made.mockRestore();
  });
});
