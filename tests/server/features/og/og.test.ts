// Link previews (`GET /og`, the SDK's client.enrichURL) against a local fixture site: Open Graph,
// Twitter card and <title> tags, redirects, compression, image links, and every refusal (not
// HTML, too large, too slow, too many redirects, private addresses) as a readable code 4.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isPublicAddress, guardedLookup } from '../../../../src/server/features/og/address-guard';
import { createUsers, nextEvent, startHarness, type Harness } from '../../helpers';
import { startFixture, type Fixture } from '../../og-fixture';
import { watchingPair } from '../../scenes';

let open: Harness;
let strict: Harness;
let site: Fixture;

beforeAll(async () => {
  site = await startFixture();
  // Tests reach the fixture on 127.0.0.1, so this backend allows private addresses; `strict`
  // keeps the default and must refuse them.
  open = await startHarness({ allowPrivateOg: true, ogTimeoutMs: 400 });
  strict = await startHarness();
  await createUsers(open, 'alice', 'bob');
  await createUsers(strict, 'alice');
});

afterAll(async () => {
  await open?.close();
  await strict?.close();
  await site?.close();
});

describe('link previews', () => {
  it('reads Open Graph tags: title, description, absolute image, canonical link and site name', async () => {
    const alice = await open.connect('alice');
    const preview = await alice.enrichURL(`${site.url}/article`);
    expect(preview).toMatchObject({
      og_scrape_url: `${site.url}/article`,
      title: 'Lighthouse & Keepers',
      text: 'A short history of lighthouses.',
      image_url: `${site.url}/images/lighthouse.jpg`,
      thumb_url: `${site.url}/images/lighthouse.jpg`,
      title_link: 'https://example.com/lighthouses',
      site_name: 'Coast Weekly',
      author_name: 'Coast Weekly',
      type: 'article',
    });
  });

  it('falls back to Twitter card tags, then to <title> and the description meta tag', async () => {
    const alice = await open.connect('alice');
    expect(await alice.enrichURL(`${site.url}/twitter`)).toMatchObject({
      title: 'Card title',
      text: 'Card text',
      image_url: 'https://cdn.example.com/card.png',
      title_link: `${site.url}/twitter`,
    });
    expect(await alice.enrichURL(`${site.url}/title`)).toMatchObject({ title: 'Just a title', text: 'Plain description' });
  });

  it('follows a redirect and reads a gzip-compressed page', async () => {
    const alice = await open.connect('alice');
    expect(await alice.enrichURL(`${site.url}/redirect`)).toMatchObject({ og_scrape_url: `${site.url}/redirect`, title: 'Lighthouse & Keepers' });
    expect((await alice.enrichURL(`${site.url}/gzip`)).title).toBe('Lighthouse & Keepers');
  });

  it('previews a link to an image as the image', async () => {
    const alice = await open.connect('alice');
    expect(await alice.enrichURL(`${site.url}/photo.jpg`)).toMatchObject({
      type: 'image',
      image_url: `${site.url}/photo.jpg`,
      thumb_url: `${site.url}/photo.jpg`,
    });
  });

  it('drives the composer: a URL in the text becomes a loaded preview after the debounce and is sent as an attachment', async () => {
    const { ac, bc } = await watchingPair(open, 'og-composer');
    const composer = ac.messageComposer;
    // The SDK's own URL finder wants name.tld hosts; the fixture is 127.0.0.1.
    composer.updateConfig({ linkPreviews: { enabled: true, findURLFn: (text: string) => text.match(/https?:\/\/\S+/g) ?? [] } });
    const unsubscribe = composer.registerSubscriptions();
    try {
      const url = `${site.url}/article`;
      composer.textComposer.setText(`read ${url}`);
      await vi.waitFor(() => expect(composer.linkPreviewsManager.previews.get(url)?.status).toBe('loaded'), { timeout: 4000 });
      const composition = await composer.compose();
      expect(composition?.sendOptions.skip_enrich_url).toBe(true);
      const received = nextEvent(bc, 'message.new');
      await ac.sendMessage(composition!.message, composition!.sendOptions);
      expect((await received).message?.attachments?.[0]).toMatchObject({ og_scrape_url: url, title: 'Lighthouse & Keepers' });
    } finally {
      unsubscribe();
    }
  });
});

describe('link previews refused', () => {
  it('refuses a page that is not HTML', async () => {
    const alice = await open.connect('alice');
    await expect(alice.enrichURL(`${site.url}/report.pdf`)).rejects.toThrow(/code 4: .*is not an HTML page \(content-type application\/pdf\)/);
  });

  it('refuses a 50 MB page after reading no more than the cap, with or without a declared length', async () => {
    const alice = await open.connect('alice');
    await expect(alice.enrichURL(`${site.url}/huge-declared`)).rejects.toThrow(/code 4: .*larger than the 1048576 bytes/);
    await expect(alice.enrichURL(`${site.url}/huge`)).rejects.toThrow(/code 4: .*larger than the 1048576 bytes/);
    // The fixture writes only what is read (plus what socket buffers hold): far from 50 MB.
    expect(site.bytesSentByHuge()).toBeLessThan(8 * 1024 * 1024);
  });

  it('gives up on a page that never answers within the configured timeout', async () => {
    const alice = await open.connect('alice');
    const started = Date.now();
    await expect(alice.enrichURL(`${site.url}/hang`)).rejects.toThrow(/code 4: .*did not answer within 400 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses redirect loops, empty pages, 404s and links that are not http(s)', async () => {
    const alice = await open.connect('alice');
    await expect(alice.enrichURL(`${site.url}/loop`)).rejects.toThrow(/redirects more than 5 times/);
    await expect(alice.enrichURL(`${site.url}/empty`)).rejects.toThrow(/no title, description or image/);
    await expect(alice.enrichURL(`${site.url}/missing`)).rejects.toThrow(/answered HTTP 404/);
    await expect(alice.enrichURL('file:///etc/passwd')).rejects.toThrow(/only http and https/);
    await expect(alice.enrichURL('http://user:secret@example.com/')).rejects.toThrow(/user name or password/);
  });

  it('refuses loopback, private, link-local and unspecified addresses unless allowPrivateOg is set', async () => {
    const alice = await strict.connect('alice');
    const refused = /code 4: link previews of private, loopback or link-local addresses are not allowed/;
    await expect(alice.enrichURL(`${site.url}/article`)).rejects.toThrow(refused);
    const port = new URL(site.url).port;
    // By name: localhost resolves to a loopback address.
    await expect(alice.enrichURL(`http://localhost:${port}/article`)).rejects.toThrow(/localhost resolves to/);
    for (const host of ['[::1]', '10.1.2.3', '192.168.0.10', '169.254.169.254', '0.0.0.0', '[::ffff:127.0.0.1]']) {
      await expect(alice.enrichURL(`http://${host}/`)).rejects.toThrow(refused);
    }
  });

  it('classifies addresses: public ones pass, private ranges and IPv4 hidden in IPv6 do not', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111']) expect(isPublicAddress(address)).toBe(true);
    for (const address of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '100.64.0.1', '169.254.169.254', '0.0.0.0', '224.0.0.1', '::', '::1', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1', '::ffff:7f00:1', '64:ff9b::a00:1', 'not-an-ip']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('checks names at lookup time, so every redirect hop is checked too', async () => {
    const lookup = guardedLookup(false);
    const error = await new Promise<Error | null>((resolve) => lookup('localhost', {}, (err) => resolve(err)));
    expect(error?.message).toMatch(/localhost resolves to/);
    const allowed = await new Promise<string>((resolve) => guardedLookup(true)('localhost', {}, (_err, address) => resolve(String(address))));
    expect(['127.0.0.1', '::1']).toContain(allowed);
  });
});
