// A temporary site for the browser benchmarks that seed their own data: the built widget and
// one page per channel, served by the backend itself (`staticRoot`), since Chromium refuses a
// page's WebSocket to loopback when the page came from request interception. Every page is
// signed in as alice through the development token endpoint.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';

export interface WidgetPage {
  /** Served as `/<name>.html`. */
  name: string;
  channel: string;
  /** Start with the panel open. */
  open?: boolean;
}

export function writeWidgetSite(root: string, pages: WidgetPage[]) {
  const demo = join(root, 'demo');
  mkdirSync(demo, { recursive: true });
  copyFileSync(resolve('dist/chat-widget.js'), join(demo, 'chat-widget.js'));
  for (const { name, channel, open } of pages) {
    writeFileSync(
      join(demo, `${name}.html`),
      `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${name}</title></head>
<body><h1>${name}</h1>
<chat-widget api-key="__CHAT_WIDGET_API_KEY__" base-url="/" channel="${channel}" token-endpoint="/demo/token?user=alice"${open ? ' open' : ''}></chat-widget>
<script src="/chat-widget.js"></script></body></html>`,
    );
  }
}

/** A fresh context whose pages can run callbacks compiled by tsx (it adds a `__name` helper). */
export async function benchContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  await context.addInitScript({ content: 'window.__name = (f) => f;' });
  return context;
}
