// An API usable at once: what a page does before the script has defined <chat-widget> is kept,
// and the attributes for sites that bring their own button (launcher, position).
import { waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { ChatWidgetElement } from '../../src/entries/chat-widget';
import { mount, part, record, shadow } from './helpers';

const OFFLINE_BASE_URL = 'http://127.0.0.1:9';

// `chat-widget` is defined once per file, when the element module loads; each test upgrades
// elements of a fresh tag instead, defined after the page has made and set them up (a late
// script). happy-dom upgrades connected elements only, as a browser does at define time.
let defined = 0;
function lateTag() {
  const tag = `late-widget-${++defined}`;
  return { tag, define: () => customElements.define(tag, class extends ChatWidgetElement {}) };
}

const widgetData = (el: Element) => (el.shadowRoot?.querySelector('.widget') as HTMLElement).dataset;

describe('before the script upgrades the element', () => {
  it('applies every property the page set, and the open state', async () => {
    const { tag, define } = lateTag();
    const el = document.createElement(tag);
    const early = {
      apiKey: 'early-key',
      tokenEndpoint: `${OFFLINE_BASE_URL}/token`,
      channel: 'messaging:support',
      baseUrl: OFFLINE_BASE_URL,
      mode: 'bubble',
      theme: 'dark',
      userName: 'Ann',
      drafts: true,
      launcher: 'none',
      position: 'left',
      open: true,
    };
    Object.assign(el, early);
    document.body.append(el);
    const errors = record(document, 'chat-widget-error');
    define();

    const widget = el as ChatWidgetElement;
    // The properties are the class's again: the values went through its setters to the attributes.
    for (const prop of Object.keys(early)) expect(Object.hasOwn(widget, prop)).toBe(false);
    expect(typeof widget.open).toBe('function');
    expect(Object.fromEntries([...widget.attributes].map((a) => [a.name, a.value]))).toEqual({
      'api-key': 'early-key',
      'token-endpoint': `${OFFLINE_BASE_URL}/token`,
      channel: 'messaging:support',
      'base-url': OFFLINE_BASE_URL,
      mode: 'bubble',
      theme: 'dark',
      'user-name': 'Ann',
      drafts: 'true',
      launcher: 'none',
      position: 'left',
      open: '',
    });
    expect((widget as unknown as { apiKey: string }).apiKey).toBe('early-key');
    expect(widget.isOpen).toBe(true);
    await waitFor(() => expect(part(widget, 'panel')).not.toBeNull());
    expect(part(widget, 'launcher')).toBeNull();
    expect(widgetData(widget)).toMatchObject({ theme: 'dark', position: 'left', mode: 'bubble' });
    expect(errors.map((e) => e.reason)).not.toContain('missing-api-key');

    widget.close();
    await waitFor(() => expect(part(widget, 'panel')).toBeNull());
  });

  it('a property set early wins over the attribute the page wrote', async () => {
    const { tag, define } = lateTag();
    document.body.innerHTML = `<${tag} api-key="from-html" mode="bubble" open></${tag}>`;
    const el = document.body.firstElementChild as HTMLElement & { mode?: string; isOpen?: boolean };
    el.mode = 'inline';
    el.isOpen = false; // the panel's state by its other name: closed, and the getter is the class's again
    define();

    const widget = el as unknown as ChatWidgetElement;
    expect(widget.getAttribute('mode')).toBe('inline');
    expect(widget.isOpen).toBe(false);
    expect(Object.hasOwn(widget, 'isOpen')).toBe(false);
    await waitFor(() => expect(part(widget, 'panel')).not.toBeNull());
    expect(widgetData(widget).mode).toBe('inline');
  });

  it('the open attribute in the page opens it on upgrade, and whenDefined makes methods safe to call', async () => {
    const { tag, define } = lateTag();
    document.body.innerHTML = `<${tag} api-key="key" channel="general" base-url="${OFFLINE_BASE_URL}" open></${tag}>`;
    const el = document.body.firstElementChild as ChatWidgetElement;
    const closed = customElements.whenDefined(tag).then(() => el.close());
    define();
    await waitFor(() => expect(part(el, 'panel')).not.toBeNull());
    await closed;
    await waitFor(() => expect(part(el, 'panel')).toBeNull());
  });
});

describe('launcher="none"', () => {
  it('renders no bubble; open() and close() still drive the panel', async () => {
    const el = mount({ 'api-key': 'key', channel: 'general', launcher: 'none' });
    const opened = record(el, 'chat-widget-open');
    expect(part(el, 'launcher')).toBeNull();
    el.open();
    await waitFor(() => expect(part(el, 'panel')).not.toBeNull());
    await waitFor(() => expect(opened).toHaveLength(1));
    expect(part(el, 'launcher')).toBeNull();
    el.close();
    await waitFor(() => expect(part(el, 'panel')).toBeNull());
    expect((el as unknown as { launcher: string }).launcher).toBe('none');
  });

  it("gives the focus back to the site's own button when the panel's close button closes it", async () => {
    const el = mount({ 'api-key': 'key', channel: 'general', launcher: 'none' });
    const button = document.createElement('button');
    button.textContent = 'Chat with us';
    button.addEventListener('click', () => el.toggle());
    document.body.prepend(button);

    button.focus();
    button.click();
    const close = (await waitFor(() => part(el, 'close-button') ?? Promise.reject(new Error('no close button')))) as HTMLButtonElement;
    close.focus();
    expect(document.activeElement).toBe(el);
    close.click();
    await waitFor(() => expect(el.isOpen).toBe(false));
    expect(document.activeElement).toBe(button);
  });

  it('removing it brings the bubble back', async () => {
    const el = mount({ 'api-key': 'key', launcher: 'none' });
    el.removeAttribute('launcher');
    await waitFor(() => expect(part(el, 'launcher')).not.toBeNull());
  });
});

describe('position="left"', () => {
  it('puts the bubble and the floating panel in the bottom-left corner; removing it restores the right', async () => {
    const el = mount({ 'api-key': 'key', position: 'left' });
    expect(widgetData(el).position).toBe('left');
    expect((el as unknown as { position: string }).position).toBe('left');
    const launcher = part(el, 'launcher') as HTMLElement;
    const css = getComputedStyle(launcher);
    expect([css.left, css.right]).toEqual(['20px', 'auto']);

    el.removeAttribute('position');
    await waitFor(() => expect(widgetData(el).position).toBe('right'));
    expect(getComputedStyle(launcher).right).toBe('20px');
  });
});

describe('bad launcher and position values', () => {
  it.each([
    ['launcher', 'floating', 'invalid-launcher', /"bubble" or "none"/],
    ['position', 'top', 'invalid-position', /"right" or "left"/],
  ])('%s="%s" shows the error in the panel and emits chat-widget-error', async (name, value, reason, text) => {
    const errors = record(document, 'chat-widget-error');
    const el = mount({ 'api-key': 'key', [name]: value, open: true });
    await waitFor(() => expect(errors.map((e) => e.reason)).toContain(reason));
    const alert = await shadow(el).findByRole('alert');
    expect(alert.textContent).toMatch(text);
    // The defaults stand in: the bubble shows, in the right-hand corner.
    expect(part(el, 'launcher')).not.toBeNull();
    expect(widgetData(el).position).toBe('right');
  });
});
