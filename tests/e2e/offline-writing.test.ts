// Writing while the network is away: the composer stays usable, what is sent shows as sending and
// waits in the browser, and goes out in order, exactly once, when the network is back (also from
// a tab opened later, and when an answer was lost on the way back). And a returning visitor whose
// chat cannot be reached sees the conversation this browser kept.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { collectErrors, eventually, ownedDemo, screenshot } from './browser';
import { cutOffVisitor } from './network';
import { pngBytes } from '../ui/png';

const API_KEY = 'e2e-offline-writing';
const API_SECRET = 'e2e-offline-writing-secret-long-enough-for-hs256';

const demo = ownedDemo(API_KEY, API_SECRET);

const widget = (page: Page, part: string) => page.locator(`chat-widget [part~="${part}"]`);
const own = (page: Page, text: string) => widget(page, 'own-message').filter({ hasText: text });

async function openChat(page: Page) {
  await page.goto(`${demo.server.url}/?user=alice`);
  await widget(page, 'launcher').click();
  await widget(page, 'message-list').waitFor();
}

async function write(page: Page, text: string) {
  const input = widget(page, 'composer-input');
  await input.fill(text);
  await input.press('Enter');
  await eventually(() => own(page, text).count()).toBe(1);
}

/** How many times each text is stored in messaging:general, in the order stored. */
async function stored(texts: string[]): Promise<string[]> {
  const { messages } = await demo.owner.channel('messaging', 'general').query({ messages: { limit: 100 } });
  return messages.map((m) => m.text ?? '').filter((text) => texts.includes(text));
}

describe('writing while offline', () => {
  it('keeps what was sent and reacted offline, also after the tab is closed, and sends it in order once the network is back', async () => {
    const { context, page, network } = await cutOffVisitor(demo.browser);
    try {
      const reactTo = `Anyone for the coast path? ${Date.now()}`;
      const { message: bobs } = await demo.owner.channel('messaging', 'general').sendMessage({ text: reactTo, user_id: 'bob' });
      await openChat(page);
      const theirs = widget(page, 'message').filter({ hasText: reactTo });
      await eventually(() => theirs.count()).toBe(1);
      await network.cut();
      await eventually(() => widget(page, 'offline-banner').count()).toBe(1);
      const texts = [1, 2, 3].map((n) => `Written in the tunnel, ${n} of 3, ${Date.now()}`);
      for (const text of texts) await write(page, text);
      for (const text of texts) expect(await own(page, text).textContent()).toContain('Sending');
      // A reaction made offline shows at once.
      await theirs.hover();
      await theirs.locator('[part~="message-actions-button"]').click();
      await page.getByRole('menuitem', { name: 'React with like' }).click();
      await eventually(() => theirs.locator('[part~="reaction"]').textContent()).toMatch(/👍\s*1/);
      await screenshot(page, 'offline-sending');
      // The tab is closed before the network is back: nothing was stored, nothing is lost.
      await page.close();
      expect(await stored(texts)).toEqual([]);

      await network.restore();
      const later = await context.newPage();
      const errors = collectErrors(later);
      await openChat(later);
      await eventually(() => stored(texts)).toEqual(texts);
      for (const text of texts) await eventually(() => own(later, text).textContent()).not.toContain('Sending');
      for (const text of texts) expect(await own(later, text).count()).toBe(1);
      await eventually(async () => (await demo.owner.getMessage(bobs.id)).message.reaction_groups?.like?.count).toBe(1);
      await eventually(() => widget(later, 'message').filter({ hasText: reactTo }).locator('[part~="reaction"]').textContent()).toMatch(/👍\s*1/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('an edit and a delete made offline show at once and reach the backend once the network is back', async () => {
    const { context, page, network } = await cutOffVisitor(demo.browser);
    try {
      await openChat(page);
      const stamp = Date.now();
      const [toEdit, toDelete] = [`Meet at the pier ${stamp}`, `Bring the blue kite ${stamp}`];
      await write(page, toEdit);
      await write(page, toDelete);
      await eventually(() => stored([toEdit, toDelete])).toEqual([toEdit, toDelete]);
      await network.cut();
      await eventually(() => widget(page, 'offline-banner').count()).toBe(1);

      const menu = async (text: string, action: RegExp) => {
        const message = own(page, text);
        await message.hover();
        await message.locator('[part~="message-actions-button"]').click();
        await page.getByRole('menuitem', { name: action }).click();
      };
      const edited = `Meet at the lighthouse ${stamp}`;
      await menu(toEdit, /^Edit$/);
      const input = widget(page, 'composer-input');
      await input.fill(edited);
      await input.press('Enter');
      await eventually(() => own(page, edited).count()).toBe(1);
      expect(await own(page, edited).textContent()).toContain('Sending');
      await menu(toDelete, /^Delete$/);
      await page.getByRole('menuitem', { name: /Delete: are you sure/ }).click();
      await eventually(() => own(page, toDelete).count()).toBe(0);
      await screenshot(page, 'offline-edit-delete');
      expect(await stored([edited, toDelete])).toEqual([toDelete]);

      await network.restore();
      const channel = demo.owner.channel('messaging', 'general');
      await eventually(async () => {
        const { messages } = await channel.query({ messages: { limit: 100 } });
        const mine = messages.filter((m) => m.text?.includes(String(stamp)));
        return mine.map((m) => `${m.type}:${m.text}`);
      }).toEqual([`regular:${edited}`, `deleted:${toDelete}`]);
      expect(await own(page, edited).textContent()).not.toContain('Sending');
    } finally {
      await context.close();
    }
  });

  it('a file attached offline waits in the composer, uploads once the network is back, and goes with the message', async () => {
    const { context, page, network } = await cutOffVisitor(demo.browser);
    try {
      await openChat(page);
      await network.cut();
      await eventually(() => widget(page, 'offline-banner').count()).toBe(1);
      await widget(page, 'file-input').setInputFiles({ name: 'tide-table.png', mimeType: 'image/png', buffer: Buffer.from(pngBytes(64, 48)) });
      const preview = widget(page, 'attachment-preview');
      await eventually(() => preview.textContent()).toContain('Uploads when you are back online');
      expect(await preview.textContent()).toContain('tide-table.png');
      expect(await widget(page, 'notification').count()).toBe(0);
      await screenshot(page, 'offline-attachment-waiting');

      await network.restore();
      await eventually(() => preview.getAttribute('data-state')).toBe('finished');
      const text = `The tide table for Sunday ${Date.now()}`;
      await widget(page, 'composer-input').fill(text);
      await widget(page, 'send-button').click();
      await eventually(async () => {
        const { messages } = await demo.owner.channel('messaging', 'general').query({ messages: { limit: 20 } });
        return messages.find((m) => m.text === text)?.attachments?.map((a) => a.type);
      }).toEqual(['image']);
    } finally {
      await context.close();
    }
  });

  it('a send whose answer is lost after the backend stored it ends as that one stored message', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1200, height: 860 } });
    const page = await context.newPage();
    try {
      await openChat(page);
      let dropped = 0;
      await page.route(/\/channels\/messaging\/general\/message\?/, async (route) => {
        if (dropped++ > 0) return route.continue();
        await route.fetch(); // the backend stores it; its answer never reaches the page
        await route.abort('connectionreset');
      });
      const text = `The answer to this one is lost ${Date.now()}`;
      await write(page, text);
      // The message arrives by the socket meanwhile; the send is tried again all the same.
      await eventually(async () => dropped).toBe(2);
      await eventually(() => own(page, text).textContent()).not.toContain('Sending');
      expect(await own(page, text).textContent()).not.toMatch(/not sent/i);
      expect(await stored([text])).toEqual([text]);
      expect(await own(page, text).count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('a queued send the backend refuses says why, and the ones after it still go out', async () => {
    const { context, page, network } = await cutOffVisitor(demo.browser);
    try {
      await openChat(page);
      await network.cut();
      // Meanwhile the site lowers the limit: the panel does not know yet.
      await demo.owner.updateChannelType('messaging', { max_message_length: 60 });
      const long = `This one grew longer than the site now allows, by a good margin ${Date.now()}`;
      const after = [`Short one ${Date.now()}`, `Another short ${Date.now()}`];
      for (const text of [long, ...after]) await write(page, text);
      await network.restore();
      await eventually(() => stored(after)).toEqual(after);
      await eventually(() => own(page, long).textContent()).toMatch(/not sent/i);
      expect(await own(page, long).getByRole('button', { name: /retry/i }).count()).toBe(1);
      expect(await stored([long])).toEqual([]);
      await screenshot(page, 'offline-refused');
      // The visitor drops it: gone from the list, never tried again.
      await own(page, long).getByRole('button', { name: 'Delete' }).click();
      await eventually(() => own(page, long).count()).toBe(0);
      expect(await stored([long])).toEqual([]);
    } finally {
      await demo.owner.updateChannelType('messaging', { max_message_length: 5000 });
      await context.close();
    }
  });
});

/** Everything the widget keeps in this browser's IndexedDB, as text. */
const keptInBrowser = (page: Page): Promise<string> =>
  page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const request = indexedDB.open('chat-widget');
        // Looking must not create the database before the widget does (it would lack its store).
        request.onupgradeneeded = () => request.transaction?.abort();
        request.onsuccess = () => {
          const db = request.result;
          if (!db.objectStoreNames.contains('kept')) return resolve('');
          const all = db.transaction('kept').objectStore('kept').getAll();
          all.onsuccess = () => resolve(JSON.stringify(all.result));
        };
        request.onerror = () => resolve('');
      }),
  );

describe('a returning visitor whose chat cannot be reached', () => {
  it("opens the conversation list this browser kept (an agent's inbox), under the offline banner", async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1200, height: 860 } });
    const page = await context.newPage();
    const names = (on: Page) => on.locator('chat-widget .channel-name').allTextContents();
    try {
      // Two conversations in the agent's inbox, the newer on top.
      await demo.owner.upsertUser({ id: 'sam', name: 'Sam' });
      for (const topic of ['returns', 'sizing']) {
        const channel = demo.owner.channel('messaging', `kept-${topic}-${Date.now()}`, { members: ['sam', 'bob'], created_by_id: 'bob' });
        await channel.create();
        await channel.sendMessage({ text: `A question about ${topic}`, user_id: 'bob' });
      }
      await page.goto(`${demo.server.url}/agent.html`);
      await widget(page, 'channel-item').first().waitFor();
      const listed = await names(page);
      expect(listed.length).toBeGreaterThan(1);
      await eventually(async () => (await keptInBrowser(page)).split('"cid"').length - 1).toBeGreaterThanOrEqual(listed.length);
      await page.close();

      const again = await context.newPage();
      const errors = collectErrors(again);
      await again.route(/\/(channels|demo\/token|guest|app|users|connect|longpoll)/, (route) => route.abort('internetdisconnected'));
      await again.goto(`${demo.server.url}/agent.html`);
      await eventually(() => names(again)).toEqual(listed);
      await eventually(() => widget(again, 'offline-banner').count()).toBe(1);
      expect(await again.getByText('unavailable').count()).toBe(0);
      await screenshot(again, 'cached-list-offline');
      expect(errors.filter((error) => !/ERR_INTERNET_DISCONNECTED|Failed to load resource/.test(error))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("checks a file against the app's upload settings this browser kept", async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1200, height: 860 } });
    try {
      await demo.owner.updateAppSettings({ file_upload_config: { blocked_file_extensions: ['.exe'] } });
      const page = await context.newPage();
      await openChat(page);
      await eventually(() => keptInBrowser(page)).toContain('blocked_file_extensions');
      await page.close();

      const again = await context.newPage();
      await again.route(/\/(channels|demo\/token|guest|app|users|connect|longpoll|uploads)/, (route) => route.abort('internetdisconnected'));
      await again.goto(`${demo.server.url}/?user=alice`);
      await widget(again, 'launcher').click();
      await eventually(() => widget(again, 'offline-banner').count()).toBe(1);
      await widget(again, 'file-input').setInputFiles({ name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
      await eventually(() => widget(again, 'attachment-preview').getAttribute('data-state')).toBe('blocked');
    } finally {
      await demo.owner.updateAppSettings({ file_upload_config: {} });
      await context.close();
    }
  });

  it('opens the conversation this browser kept, under the offline banner; signing out leaves nothing of it', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1200, height: 860 } });
    const page = await context.newPage();
    try {
      const kept = `Kept for the way home ${Date.now()}`;
      await openChat(page);
      await demo.owner.channel('messaging', 'general').sendMessage({ text: kept, user_id: 'bob' });
      await eventually(() => widget(page, 'message').filter({ hasText: kept }).count()).toBe(1);
      await eventually(() => keptInBrowser(page)).toContain(kept);
      await page.close();

      // Every call to the chat and its token endpoint fails; the page and the script still load.
      const again = await context.newPage();
      const errors = collectErrors(again);
      await again.route(/\/(channels|demo\/token|guest|app|users|connect|longpoll)/, (route) => route.abort('internetdisconnected'));
      await again.goto(`${demo.server.url}/?user=alice`);
      await widget(again, 'launcher').click();
      await eventually(() => widget(again, 'message').filter({ hasText: kept }).count()).toBe(1);
      await eventually(() => widget(again, 'offline-banner').count()).toBe(1);
      expect(await again.getByText('could not be opened').count()).toBe(0);
      expect(await again.getByText('unavailable').count()).toBe(0);
      await screenshot(again, 'cached-open-offline');

      // The site signs Alice out: what the browser kept of her goes.
      await again.locator('chat-widget').evaluate((el) => el.removeAttribute('token-endpoint'));
      await eventually(async () => (await keptInBrowser(again)).includes(kept)).toBe(false);
      expect(await keptInBrowser(again)).not.toContain('alice');
      expect(errors.filter((error) => !/ERR_INTERNET_DISCONNECTED|Failed to load resource/.test(error))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
