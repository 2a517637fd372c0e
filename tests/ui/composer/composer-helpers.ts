import { fireEvent, waitFor } from '@testing-library/preact';
import { StreamChat } from 'stream-chat';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { parseAttributes } from '../../../src/contract/attributes';
import type { ChatWidgetElement } from '../../../src/entries/chat-widget';
import { sessionFor } from '../../../src/session/sessions';
import { mount, part, waitForEvent } from '../../element/helpers';
import { API_KEY, stubTokenEndpoint, tokenFor } from '../backend';

const NAMES: Record<string, string> = { alice: 'Alice Johnson', bob: 'Bob Smith' };
let opened = 0;

/**
 * Opens `<chat-widget>` on messaging:general as `user` and waits for its composer. Each call
 * names its own token endpoint, so it gets a session (and composer) of its own.
 */
export async function openWidget(url: string, user = 'alice', attributes: Record<string, string | true> = {}) {
  stubTokenEndpoint({ token: tokenFor(user), user: { id: user, name: NAMES[user] ?? user } });
  const el = mount({ 'api-key': API_KEY, 'base-url': url, channel: 'messaging:general', 'token-endpoint': `/token/${user}-${(opened += 1)}`, open: true, ...attributes });
  await waitForEvent(el, 'chat-widget-ready');
  await waitFor(() => expect(part(el, 'composer-input')).not.toBeNull());
  return { el, textarea: part(el, 'composer-input') as HTMLTextAreaElement };
}

export function type(textarea: HTMLTextAreaElement, text: string) {
  textarea.value = text;
  textarea.setSelectionRange(text.length, text.length);
  fireEvent.input(textarea);
}

export const all = (el: ChatWidgetElement, selector: string) => Array.from(el.shadowRoot?.querySelectorAll<HTMLElement>(selector) ?? []);
export const one = (el: ChatWidgetElement, selector: string) => el.shadowRoot?.querySelector<HTMLElement>(selector) ?? null;

/** Waits until `selector` matches inside the widget, and returns the first match. */
export const find = (el: ChatWidgetElement, selector: string, timeout = 5000) =>
  waitFor(
    () => {
      const found = one(el, selector);
      if (!found) throw new Error(`nothing matches ${selector}`);
      return found;
    },
    { timeout },
  );

/** What the file picker hands the page when the visitor chooses `files`. */
export function pickFiles(el: ChatWidgetElement, files: File[]) {
  const input = part(el, 'file-input') as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  // A real change event: @testing-library/preact turns fireEvent.change into an input event,
  // which file inputs do not send.
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

/**
 * A drag, drop or paste event carrying files. Built by hand: happy-dom's DataTransfer cannot be
 * filled, and fireEvent's versions of these events do not reach the listeners.
 */
export function transferEvent(target: EventTarget, type: string, files: File[]) {
  const event = new Event(type, { bubbles: true, cancelable: true, composed: true });
  const transfer = { types: ['Files'], files, dropEffect: 'none' };
  Object.defineProperty(event, type === 'paste' ? 'clipboardData' : 'dataTransfer', { value: transfer });
  target.dispatchEvent(event);
  return event;
}

export function textFile(name: string, size: number, type = 'text/plain') {
  return new File([new Uint8Array(size).fill(97)], name, { type });
}

/** Chooses an entry of the composer's + menu. */
export async function chooseTool(el: ChatWidgetElement, label: string) {
  fireEvent.click(part(el, 'composer-menu-button') as HTMLElement);
  const item = await waitFor(() => {
    const found = all(el, '[part~="composer-menu"] button').find((candidate) => candidate.textContent === label);
    if (!found) throw new Error(`no ${label} in the menu`);
    return found;
  });
  fireEvent.click(item);
  // A poll's or a location's sheet is fetched the first time (sheets-loader.ts): wait for it.
  const sheet = { Poll: 'poll-form', Location: 'location-form' }[label];
  if (sheet) await find(el, `[part~="${sheet}"]`);
}

export const notificationTexts = (el: ChatWidgetElement) => all(el, '[part~="notification"]').map((n) => n.textContent ?? '');

/**
 * Under vitest the SDK's multipart encoder is the Node `form-data` package (the browser bundle
 * uses the page's FormData), which cannot read a happy-dom `File`. Send the upload the way the
 * browser build does: the page's FormData, through the SDK's own request path, to the channel's
 * file or image endpoint.
 */
export function useBrowserUploads() {
  beforeAll(() => {
    vi.spyOn(StreamChat.prototype, 'sendFile').mockImplementation(function (this: StreamChat, url, uri, name, _type, user, config) {
      const data = new FormData();
      data.append('file', uri as File, name ?? (uri as File).name);
      if (user) data.append('user', JSON.stringify(user));
      return this.doAxiosRequest('postForm', url, data, { config: { timeout: 0, ...config } });
    });
  });
  afterAll(() => vi.mocked(StreamChat.prototype.sendFile).mockRestore());
}

/** The SDK client of a mounted widget's session, for what a test must reach behind the panel. */
export function clientOf(el: ChatWidgetElement) {
  const attribute = (name: string) => el.getAttribute(name) ?? undefined;
  const parsed = parseAttributes({ apiKey: attribute('api-key'), baseUrl: attribute('base-url'), tokenEndpoint: attribute('token-endpoint') });
  if (!parsed.ok) throw new Error(parsed.error.message);
  return sessionFor(parsed.config).client;
}
