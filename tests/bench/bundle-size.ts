// Bytes a visitor downloads: dist/chat-widget.js minified, gzip and brotli, split by what
// went in (stream-chat and its dependencies, Preact, our UI, our CSS). The split comes
// from the build's module report: each group's share of the rendered code, applied to the
// compressed totals.
//
// The peer, built in the same run with the same rollup plugins (peer/build.ts): a minimal
// page with GetStream's stream-chat-react and React, plus stream-chat-react's stylesheet,
// which ships as a separate file (ours is inside the script). Its bytes are both files, each
// compressed on its own as a server sends them; the chunk stream-chat-react loads only for
// video attachments is left out. The split uses the same groups: modules that are in our
// "stream-chat and its dependencies" group count there for the peer too.
import { readdirSync, readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { buildPeer } from './peer/build';
import type { BenchRow } from './types';

/** 140 KiB for the chat, and 6 KiB for the visitor's network (the outbox, the cache, one connection per browser). */
const BUDGET_GZIP_KB = 146;
/** The loader (dist/chat-widget.loader.js): the element, its launcher and the start of the returning visitor's badge alone. */
const BUDGET_LOADER_GZIP_KB = 10;

type Group = 'stream-chat and its dependencies' | 'UI framework' | 'UI components' | 'CSS';

function ourGroup(id: string): Group {
  if (id.includes('src/styles/')) return 'CSS';
  if (id.startsWith('src/')) return 'UI components';
  if (/node_modules\/(preact|@r2wc)\//.test(id)) return 'UI framework';
  return 'stream-chat and its dependencies';
}

function peerGroup(streamChatModules: Set<string>) {
  return (id: string): Group => {
    if (streamChatModules.has(id) || id.includes('node_modules/stream-chat/')) return 'stream-chat and its dependencies';
    if (/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'UI framework';
    return 'UI components';
  };
}

/** Bytes under (or over) a budget in KB of 1,024 bytes. */
const margin = (bytes: number, budgetKb: number) => {
  const left = budgetKb * 1024 - bytes;
  return left >= 0 ? `${left.toLocaleString('en')} under the budget` : `${(-left).toLocaleString('en')} OVER the budget`;
};

const gzip = (code: Buffer) => gzipSync(code, { level: 9 }).length;
const brotli = (code: Buffer) => brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

function shares(modules: Record<string, number>, group: (id: string) => Group): Map<Group, number> {
  const rendered = Object.values(modules).reduce((sum, n) => sum + n, 0);
  const result = new Map<Group, number>();
  for (const [id, length] of Object.entries(modules)) result.set(group(id), (result.get(group(id)) ?? 0) + length / rendered);
  return result;
}

export function measureBundle(file = 'dist/chat-widget.js') {
  const code = readFileSync(file);
  const modules = JSON.parse(readFileSync(`${file}.modules.json`, 'utf8')) as Record<string, number>;
  return { minified: code.length, gzip: gzip(code), brotli: brotli(code), modules, shares: shares(modules, ourGroup) };
}

export default async function bundleSize(): Promise<BenchRow[]> {
  const ours = measureBundle();
  const peer = await buildPeer();
  const js = readFileSync(peer.js);
  const css = readFileSync(peer.css);
  const peerJsGzip = gzip(js);
  const peerShares = shares(peer.modules, peerGroup(new Set(Object.keys(ours.modules).filter((id) => ourGroup(id) === 'stream-chat and its dependencies'))));

  const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;
  const files = (size: (b: Buffer) => number) => `peer: JS ${kb(size(js))} KB + CSS ${kb(size(css))} KB`;
  const rows: BenchRow[] = [
    { name: 'bundle minified', unit: 'KB', measured: kb(ours.minified), peer: kb(js.length + css.length), note: `${files((b) => b.length)}; its lazy video chunk (${kb(peer.lazyBytes)} KB) not counted` },
    { name: 'bundle gzip', unit: 'KB', measured: kb(ours.gzip), budget: BUDGET_GZIP_KB, peer: kb(peerJsGzip + gzip(css)), note: `${files(gzip)}; peer built in the same run in ${Math.round(peer.buildMs / 100) / 10} s` },
    { name: 'bundle brotli', unit: 'KB', measured: kb(ours.brotli), peer: kb(brotli(js) + brotli(css)), note: files(brotli) },
  ];
  rows[1]!.note = `${ours.gzip.toLocaleString('en')} bytes (node zlib level 9), ${margin(ours.gzip, BUDGET_GZIP_KB)}; ${rows[1]!.note}`;
  const loader = readFileSync('dist/chat-widget.loader.js');
  rows.push({
    name: 'loader gzip (dist/chat-widget.loader.js)',
    unit: 'KB',
    measured: kb(gzip(loader)),
    budget: BUDGET_LOADER_GZIP_KB,
    note: `${gzip(loader).toLocaleString('en')} bytes, ${margin(gzip(loader), BUDGET_LOADER_GZIP_KB)}; ${loader.length.toLocaleString('en')} minified; fetches chat-widget.js when the chat is about to be wanted`,
  });
  // What few visitors use travels beside the script, fetched on first use (build/fetch-on-first-use.mjs).
  const parts = ['recorder', 'sheets', 'views', 'search'].map((name) => [name, gzip(readFileSync(`dist/chat-widget.${name}.js`))] as const);
  rows.push({
    name: 'parts fetched on first use, gzip',
    unit: 'KB',
    measured: kb(parts.reduce((sum, [, bytes]) => sum + bytes, 0)),
    note: `${parts.map(([name, bytes]) => `chat-widget.${name}.js ${bytes.toLocaleString('en')} bytes`).join(', ')}: the voice recorder; the poll and location forms; the views beside the conversation; search`,
  });
  // A returning visitor's badge client, run in a worker beside the page (element/badge-host.ts).
  const badge = gzip(readFileSync('dist/chat-widget.badge.js'));
  rows.push({
    name: "returning visitor's badge worker (dist/chat-widget.badge.js), gzip",
    unit: 'KB',
    measured: kb(badge),
    note: `${badge.toLocaleString('en')} bytes; fetched by the worker of a returning visitor's page, in both the loader and the single file`,
  });
  // The visitor's language: English inside the script, every other one a file beside it.
  const english = Object.entries(ours.modules).filter(([id]) => id.includes('src/i18n/')).reduce((sum, [, n]) => sum + n, 0);
  const rendered = Object.values(ours.modules).reduce((sum, n) => sum + n, 0);
  const catalogues = readdirSync('dist/locales').map((name) => gzip(readFileSync(`dist/locales/${name}`)));
  rows.push({
    name: '  gzip share: languages (English and the catalogue code, inside)',
    unit: 'KB',
    measured: kb((ours.gzip * english) / rendered),
    note: `src/i18n in the script; ${catalogues.length} other languages in dist/locales/, ${kb(Math.min(...catalogues))} to ${kb(Math.max(...catalogues))} KB gzip each (${kb(catalogues.reduce((a, b) => a + b, 0))} KB together), one fetched by a visitor who needs it`,
  });
  const label: Record<Group, string> = {
    'stream-chat and its dependencies': 'stream-chat and its dependencies',
    'UI framework': 'UI framework (ours Preact and r2wc, peer React and ReactDOM)',
    'UI components': 'UI (ours: UI, session, element; peer: stream-chat-react and its other deps)',
    CSS: 'CSS (ours inside the script, peer its stylesheet)',
  };
  const order: Group[] = ['stream-chat and its dependencies', 'UI framework', 'UI components', 'CSS'];
  for (const group of order) {
    const share = ours.shares.get(group) ?? 0;
    const peerBytes = group === 'CSS' ? gzip(css) : peerJsGzip * (peerShares.get(group) ?? 0);
    rows.push({
      name: `  gzip share: ${label[group]}`,
      unit: 'KB',
      measured: kb(ours.gzip * share),
      peer: kb(peerBytes),
      note: `${Math.round(share * 100)}% of our code${group === 'CSS' ? '' : `, ${Math.round((peerShares.get(group) ?? 0) * 100)}% of the peer's script`}`,
    });
  }
  return rows;
}
