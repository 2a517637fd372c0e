// The element while the chat's runtime loads (the loader's network fetch, or the single file's
// deferred function): what the visitor does meanwhile decides what is made when it arrives.
import { waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setRuntimeSource } from '../../src/element/chat-widget';
import type { ChatRuntime } from '../../src/contract/runtime';
import * as sessions from '../../src/session/sessions';
import { loadRuntime } from '../../src/entries/runtime-loader';
import { mount, part, record } from './helpers';

/** A runtime source the test releases by hand; `fail` rejects the next load instead. */
function heldRuntime() {
  let release: () => void = () => undefined;
  let failNext = false;
  const source = vi.fn(() => {
    if (failNext) {
      failNext = false;
      return Promise.reject(new Error('the network went away'));
    }
    return new Promise<ChatRuntime>((resolve) => {
      release = () => void loadRuntime().then(resolve);
    });
  });
  setRuntimeSource(source);
  return { source, release: () => release(), fail: () => (failNext = true) };
}

const panelElement = (el: Element) => el.shadowRoot?.querySelector('chat-widget-panel') ?? null;
const tick = () => new Promise((resolve) => setTimeout(resolve, 50));

afterEach(() => {
  setRuntimeSource(loadRuntime);
  vi.restoreAllMocks();
});

describe('while the runtime loads', () => {
  it('says "Connecting…", and closing before it arrives makes no panel and no session', async () => {
    const made = vi.spyOn(sessions, 'sessionFor');
    const runtime = heldRuntime();
    const el = mount({ 'api-key': 'timing-key', channel: 'general', open: true });
    expect(part(el, 'panel')?.textContent).toBe('Connecting…');
    el.close();
    expect(part(el, 'panel')).toBeNull();
    runtime.release();
    await tick();
    expect(panelElement(el)).toBeNull();
    expect(made).not.toHaveBeenCalled();

    el.open(); // the runtime is there now: the panel comes at once
    await waitFor(() => expect(panelElement(el)).not.toBeNull());
    expect(runtime.source).toHaveBeenCalledTimes(1);
    el.remove();
  });

  it('shows a bad attribute without loading the chat at all', async () => {
    const runtime = heldRuntime();
    const errors = record(document, 'chat-widget-error');
    const el = mount({ 'api-key': 'timing-key', channel: 'a:b:c', open: true });
    expect(part(el, 'status-error')?.textContent).toContain('This chat is not set up correctly.');
    await waitFor(() => expect(errors.map((e) => e.reason)).toEqual(['invalid-channel']));
    expect(runtime.source).not.toHaveBeenCalled();
    el.remove();
  });
});

describe('when the runtime cannot start', () => {
  it('retries when the panel is opened again, by the attribute as well as by open()', async () => {
    const runtime = heldRuntime();
    runtime.fail();
    const el = mount({ 'api-key': 'timing-key', channel: 'general' });
    el.setAttribute('open', '');
    await waitFor(() => expect(part(el, 'status-error')?.textContent).toContain('the network went away'));
    el.removeAttribute('open');
    el.setAttribute('open', '');
    expect(part(el, 'panel')?.textContent).toBe('Connecting…');
    runtime.release();
    await waitFor(() => expect(panelElement(el)).not.toBeNull());
    el.remove();
  });

  it('offers "Try again", which works inline too', async () => {
    const runtime = heldRuntime();
    runtime.fail();
    const el = mount({ 'api-key': 'timing-key', channel: 'general', mode: 'inline' });
    const again = await waitFor(() => {
      const button = [...(el.shadowRoot?.querySelectorAll('button') ?? [])].find((b) => b.textContent === 'Try again');
      if (!button) throw new Error('no Try again yet');
      return button;
    });
    again.click();
    runtime.release();
    await waitFor(() => expect(panelElement(el)).not.toBeNull());
    el.remove();
  });
});

describe('the launcher badge', () => {
  it('forgets the previous user\'s unread count when they sign out', async () => {
    const el = mount({ 'api-key': 'timing-key', channel: 'general', guests: 'none', 'token-endpoint': 'http://127.0.0.1:9/token/ann', open: true });
    await waitFor(() => expect(panelElement(el)).not.toBeNull());
    el.close();
    panelElement(el)!.dispatchEvent(new CustomEvent('chat-widget-unread', { detail: { count: 3 }, bubbles: true, composed: true }));
    // In the panel's words once it has given them ("3 unread messages"), English until then.
    expect(part(el, 'badge')?.textContent).toBe('3');
    expect(part(el, 'launcher')?.getAttribute('aria-label')).toMatch(/^Open chat, 3 unread/);
    el.removeAttribute('token-endpoint');
    expect(part(el, 'launcher')).toBeNull();
    el.setAttribute('token-endpoint', 'http://127.0.0.1:9/token/ben');
    expect(part(el, 'launcher')?.getAttribute('aria-label')).toBe('Open chat');
    el.remove();
  });
});
