import { fireEvent, waitFor } from '@testing-library/preact';
import type { LookupAddress } from 'node:dns';
import type { MessageResponse } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server/index';
import { part } from '../../element/helpers';
import { startFixture, type Fixture } from '../../server/og-fixture';
import { API_KEY, API_SECRET, otherUser, useBackend } from '../backend';
import { all, find, one, openWidget, type } from './composer-helpers';

// Links need a host of the form name.tld (the spec's rule), and the fixture site runs on
// 127.0.0.1: *.localhost names resolve there for the backend, which runs in this process.
vi.mock('node:dns', async (importOriginal) => {
  const dns = await importOriginal<typeof import('node:dns')>();
  const lookup = (host: string, options: object, callback: (error: Error | null, addresses: LookupAddress[]) => void) =>
    host.endsWith('.localhost') ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : dns.lookup(host, options, callback as never);
  return { ...dns, lookup, default: { ...dns, lookup } };
});

const strict = useBackend();
let open: RunningServer;
let site: Fixture;
let base: string;

beforeAll(async () => {
  site = await startFixture();
  base = site.url.replace('127.0.0.1', 'fixture.localhost');
  // Allows the fixture's private address; gives up on a page after 500 ms.
  open = await startServer({ port: 0, apiKey: API_KEY, apiSecret: API_SECRET, seed: true, quiet: true, allowPrivateOg: true, ogTimeoutMs: 500 });
});
afterAll(async () => {
  await open?.close();
  await site?.close();
});

const previews = (el: Element) =>
  Array.from(el.shadowRoot?.querySelectorAll('[part~="link-preview"]') ?? []).map((p) => `${p.getAttribute('data-status')}: ${p.querySelector('.link-preview-title')?.textContent}`);

describe('link previews', () => {
  it('previews a link after the debounce and sends it as a card', async () => {
    const { el, textarea } = await openWidget(open.url, 'alice');
    const bob = await otherUser(open.url, 'bob');
    const arrived = new Promise<MessageResponse>((resolve) =>
      bob.on('message.new', (event) => event.message && resolve(event.message)),
    );
    await bob.channel('messaging', 'general').watch();

    type(textarea, `Worth a read: ${base}/article`);
    // Nothing is fetched while the writer may still be typing (1500 ms).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(previews(el)).toEqual([]);
    await waitFor(() => expect(previews(el)).toEqual(['loaded: Lighthouse & Keepers']), { timeout: 4000 });

    fireEvent.keyDown(textarea, { key: 'Enter' });
    const card = (await find(el, '[part~="own-message"] [part~="link-card"]')) as HTMLAnchorElement;
    expect(card.getAttribute('href')).toBe('https://example.com/lighthouses');
    expect(card.querySelector('.link-card-title')?.textContent).toBe('Lighthouse & Keepers');
    expect(card.querySelector('.link-card-text')?.textContent).toBe('A short history of lighthouses.');
    expect(card.querySelector('.link-card-site')?.textContent).toBe('Coast Weekly');
    expect(card.querySelector('img')?.getAttribute('src')).toBe(`${base}/images/lighthouse.jpg`);
    expect(previews(el)).toEqual([]);
    expect((await arrived).attachments?.[0]).toMatchObject({ og_scrape_url: `${base}/article`, title: 'Lighthouse & Keepers' });
    await bob.disconnectUser();
  });

  it('shows failed previews (no answer, not HTML, too large), lets them be dismissed, and drops them with the link', async () => {
    const { el, textarea } = await openWidget(open.url, 'alice');
    type(textarea, `${base}/hang and ${base}/report.pdf and ${base}/huge`);
    // The page that never answers keeps its preview loading until the backend gives up.
    await waitFor(() => expect(previews(el)).toContain('loading: Loading link preview…'), { timeout: 4000 });
    await waitFor(() => expect(previews(el)).toEqual(Array(3).fill('failed: No preview for this link')), { timeout: 6000 });
    expect(all(el, '[part~="link-preview"] .link-preview-detail').map((d) => d.textContent)).toEqual([
      `${base}/hang`,
      `${base}/report.pdf`,
      `${base}/huge`,
    ]);

    fireEvent.click(one(el, '[aria-label="Remove the preview of fixture.localhost:' + new URL(base).port + '"]') as HTMLElement);
    await waitFor(() => expect(previews(el)).toHaveLength(2));
    type(textarea, 'No links any more');
    await waitFor(() => expect(previews(el)).toEqual([]), { timeout: 4000 });
    expect((part(el, 'send-button') as HTMLButtonElement).disabled).toBe(false);
  });

  it('fails the preview of a private address when the backend does not allow them', async () => {
    const { el, textarea } = await openWidget(strict.server.url, 'alice');
    type(textarea, `Internal: ${base}/article`);
    await waitFor(() => expect(previews(el)).toEqual(['failed: No preview for this link']), { timeout: 4000 });
  });
});
