// axe-core over every view of the panel, in light and dark: no violation of serious or critical
// impact. Each view's findings (of any impact) are printed, so a regression shows where it is.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index';
import { audit, eventually, launchChromium, openChat, startDemoServer, visit, type Finding } from './browser';

let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startDemoServer('a11y-key', 'a11y-secret-long-enough-for-hs256')]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const part = (page: Page, name: string) => page.locator(`chat-widget [part~="${name}"]`);

/** Each view, reached the way a visitor reaches it, from the open channel. */
const VIEWS: Array<[string, (page: Page) => Promise<unknown>]> = [
  ['composer menu', (page) => part(page, 'composer-menu-button').click()],
  ['poll form', async (page) => {
    await part(page, 'composer-menu-button').click();
    await page.locator('chat-widget .composer-menu-list button', { hasText: 'Poll' }).click();
    await part(page, 'poll-form').waitFor();
  }],
  ['message actions', async (page) => {
    await part(page, 'message-actions-button').last().click();
    await part(page, 'message-actions').waitFor();
  }],
  ['thread', async (page) => {
    await part(page, 'message-actions-button').last().click();
    await page.locator('chat-widget [role="menuitem"]', { hasText: 'Reply in thread' }).click();
    await part(page, 'thread').waitFor();
  }],
  ['threads', (page) => part(page, 'threads-button').click()],
  ['members', async (page) => {
    await part(page, 'members-button').click();
    await part(page, 'member').first().waitFor();
  }],
  ['reminders', (page) => part(page, 'reminders-button').click()],
  ['search', async (page) => {
    await part(page, 'search-button').click();
    await part(page, 'search-input').fill('hello');
    await part(page, 'search-result').first().waitFor();
  }],
  ['channel list', async (page) => {
    await page.evaluate(() => document.querySelector('chat-widget')!.removeAttribute('channel'));
    await part(page, 'channel-item').first().waitFor();
  }],
];

describe('axe-core over the widget', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`finds nothing serious in any view (${scheme})`, async () => {
      const report: Record<string, Finding[]> = {};
      const closed = await visit(browser, `${server.url}/?user=alice`, { viewport: { width: 1200, height: 860 }, colorScheme: scheme });
      report['closed bubble'] = await audit(closed.page);
      await closed.context.close();
      for (const [view, reach] of [['open panel', async () => undefined] as const, ...VIEWS]) {
        const visitor = await openChat(browser, server.url, 'alice');
        try {
          await visitor.page.emulateMedia({ colorScheme: scheme });
          await reach(visitor.page);
          await visitor.page.waitForTimeout(200);
          report[view] = await audit(visitor.page);
        } finally {
          await visitor.context.close();
        }
      }
      console.log(`axe (${scheme}):\n${Object.entries(report).map(([view, found]) => `  ${view}: ${found.map((f) => `${f.id} (${f.impact}, ${f.nodes})`).join(', ') || 'none'}`).join('\n')}`);
      const serious = Object.entries(report).flatMap(([view, found]) => found.filter((f) => f.impact === 'serious' || f.impact === 'critical').map((f) => `${view}: ${f.id}: ${f.where}`));
      expect(serious).toEqual([]);
    }, 120_000);
  }
});

describe('announcements', () => {
  it('says each new message from someone else once, with its author, and never the visitor’s own', async () => {
    const alice = await openChat(browser, server.url, 'alice');
    const bob = await openChat(browser, server.url, 'bob');
    try {
      const said = () => alice.page.locator('chat-widget [part~="announcer"]').textContent();
      const mine = `From Alice ${Date.now()}`;
      await part(alice.page, 'composer-input').fill(mine);
      await part(alice.page, 'composer-input').press('Enter');
      await part(alice.page, 'message').filter({ hasText: mine }).waitFor();
      expect(await said()).toBe('');
      const theirs = `From Bob ${Date.now()}`;
      await part(bob.page, 'composer-input').fill(theirs);
      await part(bob.page, 'composer-input').press('Enter');
      await eventually(said).toBe(`Bob Smith: ${theirs}`);
      // The list itself is no live region: scrolling rows back in says nothing again.
      expect(await part(alice.page, 'message-list').getAttribute('aria-live')).toBeNull();
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  });
});

/** The element that has the focus, looking into shadow roots: its part, or its tag. */
const focused = (page: Page) =>
  page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active?.getAttribute('part') ?? active?.tagName.toLowerCase() ?? null;
  });

async function tabTo(page: Page, target: string, limit = 40) {
  for (let i = 0; i < limit; i++) {
    if ((await focused(page))?.split(' ').includes(target)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target} (last: ${await focused(page)})`);
}

describe('the keyboard alone', () => {
  it('opens the chat, sends, opens a thread, closes the menu then the panel, and lands on the launcher', async () => {
    const alice = await visit(browser, `${server.url}/?user=alice`, { viewport: { width: 1200, height: 860 } });
    const { page } = alice;
    try {
      await tabTo(page, 'launcher');
      await page.keyboard.press('Enter');
      await part(page, 'message-list').waitFor();
      expect(await focused(page)).toBe('panel'); // the next Tab is inside the panel
      await tabTo(page, 'composer-input');
      const text = `Typed without a mouse ${Date.now()}`;
      await page.keyboard.type(text);
      await page.keyboard.press('Enter');
      const mine = part(page, 'message').filter({ hasText: text });
      await mine.waitFor();
      // Back to the sent message's actions, then "Reply in thread" from its menu.
      await mine.locator('[part~="message-actions-button"]').focus();
      await page.keyboard.press('Enter');
      await part(page, 'message-actions').waitFor();
      await page.keyboard.press('Escape'); // the innermost first: the menu closes, the panel stays
      expect(await part(page, 'message-actions').count()).toBe(0);
      expect(await focused(page)).toBe('message-actions-button');
      await page.keyboard.press('Enter');
      for (let i = 0; i < 12 && !((await page.evaluate(() => {
        let active = document.activeElement;
        while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
        return active?.textContent;
      })) ?? '').includes('Reply in thread'); i++) {
        await page.keyboard.press('ArrowDown');
      }
      await page.keyboard.press('Enter');
      await part(page, 'thread').waitFor();
      await eventually(() => focused(page)).toBe('composer-input'); // the thread's reply box took the focus
      await page.keyboard.press('Escape');
      await eventually(() => part(page, 'panel').count()).toBe(0);
      expect(await focused(page)).toBe('launcher');
    } finally {
      await alice.context.close();
    }
  });
});
