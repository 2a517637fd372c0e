// `/giphy` through the real SDK against a Giphy-compatible search API, a small HTTP server on
// localhost that counts its requests and answers a different GIF for each offset. `/giphy cats`
// answers the sender alone with the provider's ephemeral preview (a `giphy` attachment with Send,
// Shuffle and Cancel); channel.sendAction shuffles it (message.updated to the author only), sends
// it (a regular message everyone gets as message.new) or cancels it. Only its author may act on
// it; a bad action, an unknown message, a failing or stalled service are clear errors. Without a
// configured API, /giphy keeps answering that GIPHY is not available.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Event, MessageResponse } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../src/server/config';
import { collectEvents, createUsers, nextEvent, startHarness, type Harness, failure } from '../../helpers';
import { sleep, watchingPair } from '../../scenes';

type Mode = 'ok' | 'fail' | 'slow';
/** Results per search: offsets 0..2 answer a GIF, 3 and on an empty list. */
const RESULTS = 3;

/** Giphy's search API: GET /v1/gifs/search?api_key&q&limit&offset&rating. */
async function fakeGiphy() {
  const asked: URLSearchParams[] = [];
  const state = { mode: 'ok' as Mode };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (url.pathname !== '/v1/gifs/search') return json(404, { message: 'Not Found' });
    asked.push(url.searchParams);
    if (url.searchParams.get('api_key') !== 'test-giphy-key') return json(401, { message: 'No API key found in request' });
    if (state.mode === 'fail') return json(500, { message: 'giphy is having a bad day' });
    if (state.mode === 'slow') return void setTimeout(() => json(200, { data: [] }), 3000);
    const q = url.searchParams.get('q') ?? '';
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const words = q.replace(/\s+/g, '-');
    const image = (name: string, width: number, height: number) => ({ url: `https://media.giphy.test/${words}-${offset}/${name}.gif`, width: String(width), height: String(height), size: '1000' });
    const data =
      q === 'nothing at all' || offset >= RESULTS
        ? []
        : [{
            type: 'gif',
            id: `${words}-${offset}`,
            title: `${q} GIF number ${offset}`,
            url: `https://giphy.test/gifs/${words}-${offset}`,
            images: { fixed_height: image('200', 267, 200), original: image('giphy', 480, 360), fixed_width: image('200w', 200, 150) },
          }];
    return json(200, { data, pagination: { total_count: RESULTS, count: data.length, offset } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, asked, state, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let giphy: Awaited<ReturnType<typeof fakeGiphy>>;
let harness: Harness;
let offline: Harness;

beforeAll(async () => {
  giphy = await fakeGiphy();
  [harness, offline] = await Promise.all([
    startHarness({ giphy: { url: giphy.url, apiKey: 'test-giphy-key', timeoutMs: 500 } }),
    startHarness(),
  ]);
  await Promise.all([createUsers(harness, 'alice', 'bob'), createUsers(offline, 'alice', 'bob')]);
});

afterAll(async () => {
  await harness?.close();
  await offline?.close();
  giphy?.server.close();
});

const attachmentOf = (message: MessageResponse | undefined) => message?.attachments?.[0];

describe('/giphy without a Giphy API', () => {
  it('keeps answering the sender that GIPHY is not available, and asks no service', async () => {
    const before = giphy.asked.length;
    const { ac } = await watchingPair(offline, 'giphy-offline');
    const { message } = await ac.sendMessage({ text: '/giphy cats' });
    expect(message).toMatchObject({ type: 'error', command: 'giphy', text: expect.stringMatching(/GIPHY is not available/) });
    expect(giphy.asked.length).toBe(before);
    expect(await failure(ac.sendAction(message.id, { image_action: 'send' }))).toMatchObject({ status: 404, code: 16 });
  });
});

describe('/giphy with a Giphy API', () => {
  it('answers the sender alone with an ephemeral preview carrying Send, Shuffle and Cancel', async () => {
    const { ac, bc } = await watchingPair(harness, 'giphy-preview');
    const seenByBob = collectEvents(bc, 'message.new');
    const before = giphy.asked.length;
    const { message } = await ac.sendMessage({ text: '/giphy cats' });
    expect(giphy.asked.length).toBe(before + 1);
    expect(Object.fromEntries(giphy.asked.at(-1)!)).toMatchObject({ api_key: 'test-giphy-key', q: 'cats', offset: '0', limit: '1' });
    expect(message).toMatchObject({ type: 'ephemeral', command: 'giphy', text: '/giphy cats', user: { id: 'alice' } });
    expect(attachmentOf(message)).toMatchObject({
      type: 'giphy',
      title: 'cats',
      title_link: 'https://giphy.test/gifs/cats-0',
      thumb_url: 'https://media.giphy.test/cats-0/200.gif',
      giphy: { fixed_height: { url: 'https://media.giphy.test/cats-0/200.gif', width: '267', height: '200' }, original: { width: '480' } },
    });
    expect(attachmentOf(message)?.actions).toEqual([
      { name: 'image_action', text: 'Send', style: 'primary', type: 'button', value: 'send' },
      { name: 'image_action', text: 'Shuffle', style: 'default', type: 'button', value: 'shuffle' },
      { name: 'image_action', text: 'Cancel', style: 'default', type: 'button', value: 'cancel' },
    ]);
    // Nobody else hears of it, and it is no stored message.
    await sleep(200);
    expect(seenByBob.events).toEqual([]);
    expect((await bc.query({ messages: { limit: 10 } })).messages.map((m) => m.id)).not.toContain(message.id);
    expect((await ac.query({ messages: { limit: 10 } })).messages.map((m) => m.id)).not.toContain(message.id);
    // The words after /giphy are the search; the composer's command field works the same.
    await ac.sendMessage({ text: 'dancing dogs', command: 'giphy' } as never);
    expect(giphy.asked.at(-1)?.get('q')).toBe('dancing dogs');
  });

  it('renders a preview waiting to be sent in check_push, as the message it would become', async () => {
    const { ac } = await watchingPair(harness, 'giphy-check-push');
    const { message } = await ac.sendMessage({ text: '/giphy owls' });
    const answer = await harness.admin.testPushSettings('bob', { messageID: message.id, skipDevices: true });
    expect(answer.rendered_message).toMatchObject({ id: message.id, type: 'ephemeral', command: 'giphy', text: '/giphy owls', user: { id: 'alice' } });
    expect(attachmentOf(answer.rendered_message as never)).toMatchObject({ type: 'giphy', title: 'owls' });
    // Sent, it is a stored message; cancelled, it is gone.
    await ac.sendAction(message.id, { image_action: 'cancel' });
    await expect(harness.admin.testPushSettings('bob', { messageID: message.id, skipDevices: true })).rejects.toMatchObject({ code: 4 });
  });

  it('asks no service for a sender who may not send now: a frozen channel, slow mode', async () => {
    const { ac } = await watchingPair(harness, 'giphy-frozen');
    const before = giphy.asked.length;
    await harness.admin.channel('messaging', 'giphy-frozen').update({ frozen: true } as never);
    expect(await failure(ac.sendMessage({ text: '/giphy cats' }))).toMatchObject({ status: 403, code: 17 });
    await harness.admin.channel('messaging', 'giphy-frozen').update({ frozen: false, cooldown: 60 } as never);
    await ac.sendMessage({ text: 'first' });
    expect(await failure(ac.sendMessage({ text: '/giphy cats' }))).toMatchObject({ status: 403, code: 60 });
    expect(giphy.asked.length).toBe(before);
  });

  it('shuffles no more once the sender is banned from the channel', async () => {
    const { ac } = await watchingPair(harness, 'giphy-banned');
    const { message } = await ac.sendMessage({ text: '/giphy cats' });
    await harness.admin.banUser('alice', { banned_by_id: 'bob', id: 'giphy-banned', type: 'messaging' } as never);
    const before = giphy.asked.length;
    expect(await failure(ac.sendAction(message.id, { image_action: 'shuffle' }))).toMatchObject({ status: 403, code: 17 });
    expect(giphy.asked.length).toBe(before);
  });

  it('shuffles to the next GIF (the first again after the last), told to the author alone', async () => {
    const { a, ac, bc } = await watchingPair(harness, 'giphy-shuffle');
    const { message } = await ac.sendMessage({ text: '/giphy owls' });
    const seenByBob = collectEvents(bc, 'message.updated');
    const updated = nextEvent(a, 'message.updated', (event: Event) => event.message?.id === message.id);
    const shuffled = await ac.sendAction(message.id, { image_action: 'shuffle' });
    expect(shuffled.message).toMatchObject({ id: message.id, type: 'ephemeral', command: 'giphy', text: '/giphy owls' });
    expect(attachmentOf(shuffled.message)).toMatchObject({ thumb_url: 'https://media.giphy.test/owls-1/200.gif', title: 'owls' });
    expect(attachmentOf(shuffled.message)?.actions).toHaveLength(3);
    expect(giphy.asked.at(-1)?.get('offset')).toBe('1');
    expect(attachmentOf((await updated).message)?.thumb_url).toBe('https://media.giphy.test/owls-1/200.gif');
    expect((await ac.sendAction(message.id, { image_action: 'shuffle' })).message.attachments?.[0]?.thumb_url).toContain('owls-2');
    // Offset 3 finds nothing: back to the first.
    expect((await ac.sendAction(message.id, { image_action: 'shuffle' })).message.attachments?.[0]?.thumb_url).toContain('owls-0');
    await sleep(200);
    expect(seenByBob.events).toEqual([]);
  });

  it('sends the GIF shown as a regular message that everyone gets, with no actions left', async () => {
    const { ac, bc } = await watchingPair(harness, 'giphy-send');
    const { message } = await ac.sendMessage({ text: '/giphy parrots' });
    await ac.sendAction(message.id, { image_action: 'shuffle' });
    const received = nextEvent(bc, 'message.new', (event: Event) => event.message?.id === message.id);
    const sent = await ac.sendAction(message.id, { image_action: 'send' });
    expect(sent.message).toMatchObject({ id: message.id, type: 'regular', user: { id: 'alice' } });
    const got = (await received).message;
    expect(got).toMatchObject({ id: message.id, type: 'regular' });
    for (const attachment of [attachmentOf(sent.message), attachmentOf(got)]) {
      expect(attachment).toMatchObject({ type: 'giphy', title: 'parrots', thumb_url: 'https://media.giphy.test/parrots-1/200.gif' });
      expect(attachment?.actions).toBeUndefined();
    }
    // Stored like any message: it is in the channel, for those who load it later too.
    expect((await bc.query({ messages: { limit: 10 } })).messages.find((m) => m.id === message.id)?.attachments?.[0]?.type).toBe('giphy');
    // The preview is used up: no second Send.
    expect(await failure(ac.sendAction(message.id, { image_action: 'send' }))).toMatchObject({ status: 400, code: 4, message: expect.stringContaining('has no actions') });
  });

  it('cancels: the answer carries no message and the preview is gone', async () => {
    const { ac, bc } = await watchingPair(harness, 'giphy-cancel');
    const seenByBob = collectEvents(bc, 'message.new');
    const { message } = await ac.sendMessage({ text: '/giphy cats' });
    const cancelled = await ac.sendAction(message.id, { image_action: 'cancel' });
    expect(cancelled.message).toBeUndefined();
    expect(await failure(ac.sendAction(message.id, { image_action: 'send' }))).toMatchObject({ status: 404, code: 16, message: expect.stringContaining('does not exist') });
    await sleep(200);
    expect(seenByBob.events).toEqual([]);
  });

  it('refuses a bad action, someone else’s preview and an unknown message', async () => {
    const { ac, bc } = await watchingPair(harness, 'giphy-refusals');
    const { message } = await ac.sendMessage({ text: '/giphy cats' });
    expect(await failure(ac.sendAction(message.id, { image_action: 'explode' }))).toMatchObject({ status: 400, code: 4, message: expect.stringContaining('send, shuffle or cancel') });
    expect(await failure(ac.sendAction(message.id, { other: 'send' }))).toMatchObject({ code: 4 });
    expect(await failure(bc.sendAction(message.id, { image_action: 'send' }))).toMatchObject({ status: 403, code: 17, message: expect.stringContaining('only its author') });
    expect(await failure(ac.sendAction('no-such-message', { image_action: 'shuffle' }))).toMatchObject({ status: 404, code: 16 });
    // A message from elsewhere, or a search that finds nothing.
    const raw = await harness.request(`/messages/${message.id}/action`, { token: harness.token('alice'), body: { form_data: { image_action: 'send' }, type: 'messaging', id: 'elsewhere' } });
    expect(raw).toMatchObject({ status: 400, body: { code: 4, message: expect.stringContaining('not in channel messaging:elsewhere') } });
    expect((await ac.sendMessage({ text: '/giphy nothing at all' })).message).toMatchObject({ type: 'error', text: 'No GIFs found for "nothing at all".' });
    expect((await ac.sendMessage({ text: '/giphy' })).message).toMatchObject({ type: 'error', text: expect.stringContaining('needs words') });
    // Still there after all that, and still alice's to send.
    expect((await ac.sendAction(message.id, { image_action: 'send' })).message.type).toBe('regular');
  });

  it('answers 502 when the service fails and 504 when it stalls, in bounded time', async () => {
    const { ac } = await watchingPair(harness, 'giphy-failing');
    const { message } = await ac.sendMessage({ text: '/giphy cats' });
    giphy.state.mode = 'fail';
    try {
      expect(await failure(ac.sendMessage({ text: '/giphy cats' }))).toMatchObject({ status: 502, code: -1, message: expect.stringContaining('HTTP 500: giphy is having a bad day') });
      expect(await failure(ac.sendAction(message.id, { image_action: 'shuffle' }))).toMatchObject({ status: 502 });
      giphy.state.mode = 'slow';
      const started = Date.now();
      expect(await failure(ac.sendMessage({ text: '/giphy cats' }))).toMatchObject({ status: 504, message: expect.stringContaining('within 500 ms') });
      expect(await failure(ac.sendAction(message.id, { image_action: 'shuffle' }))).toMatchObject({ status: 504 });
      expect(Date.now() - started).toBeLessThan(2500);
    } finally {
      giphy.state.mode = 'ok';
    }
    // The preview outlived the failures, unchanged.
    expect(attachmentOf((await ac.sendAction(message.id, { image_action: 'send' })).message)?.thumb_url).toContain('cats-0');
  });

  it('reads GIPHY_API_KEY and GIPHY_URL (Giphy itself by default)', () => {
    expect(loadConfig([], { GIPHY_API_KEY: 'k' }).giphy).toEqual({ url: 'https://api.giphy.com', apiKey: 'k' });
    expect(loadConfig(['--giphy-api-key', 'k2', '--giphy-url', 'http://127.0.0.1:9000/'], {}).giphy).toEqual({ url: 'http://127.0.0.1:9000', apiKey: 'k2' });
    expect(loadConfig([], {}).giphy).toBeUndefined();
    expect(() => loadConfig([], { GIPHY_URL: 'http://127.0.0.1:9000' })).toThrow(/giphy-api-key/);
    expect(() => loadConfig(['--giphy-api-key', 'k', '--giphy-url', 'ftp://x'], {})).toThrow(/giphy-url/);
  });
});
