// The host pages the browser benchmarks load: one plain content page (inline styles, so the
// document is its only request), the same page with our widget, and the same page with the
// stream-chat-react peer. Only the chat tags differ between the three. `prepareSite` writes
// them, our bundle and the peer build into a temporary folder that the local backend serves
// (its `staticRoot` option serves `demo/` at `/`), so the pages, the token endpoint and the
// API share one real origin, as on a site that proxies the chat API or uses our backend.
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildPeer, type PeerBuild } from './peer/build';

export type ChatSetup = {
  apiKey: string;
  /** The API base as the page names it ('/' for the page's own origin). */
  baseUrl: string;
  tokenEndpoint: string;
  channel: string;
};

/** Where our widget and the peer are served from on the benchmark origins. */
export const WIDGET_SCRIPT = '/chat-widget.js';
/** The loader, beside the full file it fetches. */
export const LOADER_SCRIPT = '/chat-widget.loader.js';
export const PEER_SCRIPT = '/peer/peer.js';
export const PEER_CSS = '/peer/peer.css';

/** Element paths for `__bench.mark` (one selector per shadow root). */
export const LAUNCHER = { ours: ['chat-widget', '[part~="launcher"]'], loader: ['chat-widget', '[part~="launcher"]'], peer: ['.peer-launcher'] };
/** On the plain page, the same mark on its last element, so the harness does the same work there. */
export const PLAIN_MARK = ['footer'];
export const FIRST_MESSAGE = { ours: ['chat-widget', '[part~="message"]'], peer: ['.str-chat__message'] };
export const MESSAGE_SCROLLER = { ours: ['chat-widget', '.message-scroller'], peer: ['.str-chat__message-list'] };

const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function page(title: string, head: string, tail: string): string {
  const cards = Array.from(
    { length: 12 },
    (_, i) => `<article class="card"><h3>Item ${i + 1}</h3><p>Seam-taped, tested on wet coasts and high passes, light enough for long days.</p><span class="price">$${89 + i * 20}</span></article>`,
  ).join('\n      ');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="icon" href="data:,">
  <title>${title}</title>
  <style>
    body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #1f2933; background: #fafaf7; }
    .topbar { display: flex; justify-content: space-between; padding: 16px 32px; background: #1f3a2e; color: #fff; }
    .hero { padding: 64px 32px; background: linear-gradient(135deg, #2f5d4a, #a3c4a8); color: #fff; }
    .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(240px, 1fr)); gap: 24px; padding: 32px; }
    .card { background: #fff; border-radius: 12px; padding: 20px; box-shadow: 0 1px 3px rgba(0,0,0,.1); }
    .price { font-weight: 700; }
    footer { padding: 32px; color: #52606d; }
  </style>
${head}
</head>
<body>
  <header class="topbar"><span class="brand">Harbor &amp; Pine</span><nav>Shop · Support · About</nav></header>
  <section class="hero">
    <h1>Gear for the long way round.</h1>
    <p>Packs, shelters and layers tested on wet coasts and high passes. Questions about sizing or an order? Ask us.</p>
  </section>
  <main>
    <div class="grid">
      ${cards}
    </div>
  </main>
  <footer>A benchmark page for chat-widget.</footer>
${tail}
</body>
</html>
`;
}

export function plainPage(): string {
  return page('Plain page', '', '');
}

/** Our widget as the README tells site owners to add it: one deferred script, one element. */
export function widgetPage(setup: ChatSetup, script = WIDGET_SCRIPT): string {
  const element = `  <chat-widget api-key="${escape(setup.apiKey)}" base-url="${escape(setup.baseUrl)}" token-endpoint="${escape(setup.tokenEndpoint)}" channel="${escape(setup.channel)}"></chat-widget>
  <script src="${script}" defer></script>`;
  return page('Widget page', '', element);
}

/**
 * The peer as GetStream tells pages to add it: the stylesheet in the head, the app as a module.
 * With `connectAtLoad` it connects at load for its launcher's unread count (peer-app.tsx), as a
 * site following GetStream's quick start does; without, its config is the same as ever.
 */
export function peerPage(setup: ChatSetup, { connectAtLoad = false }: { connectAtLoad?: boolean } = {}): string {
  const baseURL = setup.baseUrl === '/' ? '' : setup.baseUrl;
  const config = JSON.stringify({ apiKey: setup.apiKey, baseURL, tokenEndpoint: setup.tokenEndpoint, channel: setup.channel, ...(connectAtLoad ? { connectAtLoad } : {}) });
  return page(
    'Peer page',
    `  <link rel="stylesheet" href="${PEER_CSS}">`,
    `  <script>window.PEER_CONFIG = ${config.replace(/</g, '\\u003c')};</script>
  <script type="module" src="${PEER_SCRIPT}"></script>`,
  );
}

/** The backend replaces this in served HTML with its API key. */
export const API_KEY_PLACEHOLDER = '__CHAT_WIDGET_API_KEY__';

export type Site = {
  /** Pass as `staticRoot` to startServer. */
  root: string;
  peer: PeerBuild;
  /** Page paths, each for one chat channel: plain, and widget/peer for every channel given. */
  pages: {
    plain: string;
    widget(channel: string): string;
    loader(channel: string): string;
    peer(channel: string): string;
    /** The peer connecting at load for its unread count. */
    peerAtLoad(channel: string): string;
  };
};

/**
 * Writes the benchmark site: `/plain.html`, and `/widget-<id>.html` and `/peer-<id>.html` for
 * each channel id (type messaging), signed in as `user` through the backend's demo token
 * endpoint, `/loader-<id>.html`, the same with the loader, and `/peer-at-load-<id>.html`,
 * the peer connecting at load; `/chat-widget.js` and
 * `/chat-widget.loader.js` (the built dist files) and `/peer/` (the peer build).
 */
export async function prepareSite(channelIds: string[], user = 'alice'): Promise<Site> {
  const peer = await buildPeer();
  const root = mkdtempSync(join(tmpdir(), 'chat-widget-bench-site-'));
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  const demo = join(root, 'demo');
  mkdirSync(join(demo, 'peer'), { recursive: true });
  copyFileSync(resolve('dist/chat-widget.js'), join(demo, 'chat-widget.js'));
  copyFileSync(resolve('dist/chat-widget.loader.js'), join(demo, 'chat-widget.loader.js'));
  copyFileSync(resolve('dist/chat-widget.badge.js'), join(demo, 'chat-widget.badge.js'));
  cpSync(peer.dir, join(demo, 'peer'), { recursive: true });
  writeFileSync(join(demo, 'plain.html'), plainPage());
  for (const id of channelIds) {
    const setup: ChatSetup = {
      apiKey: API_KEY_PLACEHOLDER,
      baseUrl: '/',
      tokenEndpoint: `/demo/token?user=${encodeURIComponent(user)}`,
      channel: `messaging:${id}`,
    };
    writeFileSync(join(demo, `widget-${id}.html`), widgetPage(setup));
    writeFileSync(join(demo, `loader-${id}.html`), widgetPage(setup, LOADER_SCRIPT));
    writeFileSync(join(demo, `peer-${id}.html`), peerPage(setup));
    writeFileSync(join(demo, `peer-at-load-${id}.html`), peerPage(setup, { connectAtLoad: true }));
  }
  return {
    root,
    peer,
    pages: {
      plain: '/plain.html',
      widget: (id) => `/widget-${id}.html`,
      loader: (id) => `/loader-${id}.html`,
      peer: (id) => `/peer-${id}.html`,
      peerAtLoad: (id) => `/peer-at-load-${id}.html`,
    },
  };
}
