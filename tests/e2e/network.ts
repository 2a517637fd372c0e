import type { Browser, BrowserContext, Page, WebSocketRoute } from 'playwright-core';

/**
 * The visitor's network under the test's control. Chromium's offline mode does not always cut a
 * socket opened before it, so every socket to the chat goes through the test: `cut()` turns the
 * browser offline and closes them, and refuses new ones until `restore()`.
 */
export interface Network {
  cut(): Promise<void>;
  restore(): Promise<void>;
  /** Sockets let through, and attempts refused while the network was down. */
  readonly opened: number;
  readonly refused: number;
}

export async function controlNetwork(context: BrowserContext): Promise<Network> {
  let down = false;
  let opened = 0;
  let refused = 0;
  const open = new Set<{ page: WebSocketRoute; close(): Promise<void> }>();
  await context.routeWebSocket(/\/connect\?/, (ws) => {
    if (down) {
      refused += 1;
      void ws.close({ code: 1011, reason: 'network down' });
      return;
    }
    opened += 1;
    const server = ws.connectToServer();
    const pair = {
      page: ws,
      async close() {
        open.delete(pair);
        await Promise.allSettled([ws.close({ code: 1011, reason: 'network down' }), server.close()]);
      },
    };
    open.add(pair);
    ws.onClose(() => void pair.close());
    server.onClose(() => void pair.close());
  });
  return {
    async cut() {
      down = true;
      await context.setOffline(true);
      await Promise.all([...open].map((pair) => pair.close()));
    },
    async restore() {
      down = false;
      await context.setOffline(false);
    },
    get opened() {
      return opened;
    },
    get refused() {
      return refused;
    },
  };
}

/**
 * The message texts the list holds from the newest back to the first containing `from`, oldest
 * first, read by scrolling up from the bottom (the list is windowed: only what is near the view
 * is in the DOM). Each entry is one row, so a text listed twice is a duplicate row.
 */
export function listedTexts(page: Page, from: string): Promise<string[]> {
  return page.evaluate(async (from) => {
    const root = document.querySelector('chat-widget')?.shadowRoot;
    const scroller = root?.querySelector<HTMLElement>('.message-scroller');
    if (!root || !scroller) return [];
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const rows: Array<{ key: string; text: string }> = [];
    scroller.scrollTop = scroller.scrollHeight;
    await frame();
    const settled = async () => {
      // An older page on its way lands above and the list keeps the reader's place: wait for it.
      const waitUntil = Date.now() + 5000;
      do await frame();
      while (root.querySelector('.loading-more') && Date.now() < waitUntil);
    };
    for (let step = 0; step < 600; step += 1) {
      const shown = [...root.querySelectorAll<HTMLElement>('[data-row-key]')]
        .map((row) => ({ key: row.dataset.rowKey ?? '', text: row.querySelector('.message-text')?.textContent?.trim() ?? '' }))
        .filter((row) => row.text);
      // What is shown must join what was read: a page landing above while scrolling can move
      // the view past rows not read yet, so step back down until it does. A gap in the list
      // itself still shows, as two rows that are neighbours here and not in the conversation.
      if (rows.length && shown.length && !shown.some((row) => rows.some((seen) => seen.key === row.key))) {
        scroller.scrollTop += scroller.clientHeight / 4;
        await settled();
        continue;
      }
      // Scrolling up: the rows not seen yet are the older ones, above those already read.
      rows.unshift(...shown.filter((row) => !rows.some((seen) => seen.key === row.key)));
      if (rows.some((row) => row.text.includes(from))) break;
      if (scroller.scrollTop === 0) {
        // The top of what is loaded, or of the conversation: an older page moves the view down.
        const waitUntil = Date.now() + 3000;
        while (scroller.scrollTop === 0 && Date.now() < waitUntil) await settled();
        if (scroller.scrollTop === 0) break;
        continue;
      }
      scroller.scrollTop -= scroller.clientHeight / 2;
      await settled();
    }
    const first = rows.findIndex((row) => row.text.includes(from));
    return rows.slice(Math.max(0, first)).map((row) => row.text);
  }, from);
}

/** A fresh visitor (its own context and storage) whose every socket goes through the test. */
export async function cutOffVisitor(browser: Browser): Promise<{ context: BrowserContext; page: Page; network: Network }> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 860 } });
  const network = await controlNetwork(context);
  return { context, page: await context.newPage(), network };
}
