// Builds the peer page (peer-app.tsx: stream-chat-react with React) into a temporary folder,
// once per run, with the plugins rollup.config.mjs uses for our bundle: node-resolve for the
// browser, commonjs, NODE_ENV=production, esbuild, terser with the same options. The only
// differences are the ones the peer ships with: React itself instead of the Preact aliases,
// and stream-chat-react's stylesheet as a separate file (minified with esbuild), which is how
// GetStream tells pages to load it. The folder is removed when the process exits.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transform } from 'esbuild';
import { rollup, type Plugin } from 'rollup';

export type PeerBuild = {
  dir: string;
  /** Absolute paths of the two files a page loads. */
  js: string;
  css: string;
  /** Module id (relative to the project) → rendered bytes, as build/module-report.mjs writes it. */
  modules: Record<string, number>;
  /** Minified bytes of the chunks loaded only on demand (not counted as the page's download). */
  lazyBytes: number;
  buildMs: number;
};

const ROOT = process.cwd();
const CSS_SOURCE = resolve(ROOT, 'node_modules/stream-chat-react/dist/css/index.css');

let building: Promise<PeerBuild> | undefined;

/** The peer build of this run; the first caller builds it, later callers share it. */
export function buildPeer(): Promise<PeerBuild> {
  building ??= build();
  return building;
}

async function build(): Promise<PeerBuild> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'chat-widget-bench-peer-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));

  // The build helpers are plain .mjs without type declarations: load them as modules.
  const { browserPlugins } = (await import(pathToFileURL(resolve(ROOT, 'build/browser-plugins.mjs')).href)) as {
    browserPlugins: (options: { jsxImportSource: string }) => Plugin[];
  };
  const { moduleReport } = (await import(pathToFileURL(resolve(ROOT, 'build/module-report.mjs')).href)) as {
    moduleReport: () => Plugin;
  };

  // Our build's plugins, with React's JSX runtime instead of Preact's.
  const plugins = browserPlugins({ jsxImportSource: 'react' });
  const warnings: string[] = [];
  const bundle = await rollup({
    input: resolve(ROOT, 'tests/bench/peer/peer-app.tsx'),
    plugins,
    onwarn: (warning) => void warnings.push(warning.message),
  });
  // stream-chat-react loads react-player lazily (React.lazy for video attachments), so the
  // peer is an ES module with that one chunk split off; a page loads only peer.js up front.
  const js = join(dir, 'peer.js');
  let lazyBytes = 0;
  try {
    const { output } = await bundle.write({
      dir,
      format: 'es',
      entryFileNames: 'peer.js',
      chunkFileNames: 'lazy-[name]-[hash].js',
      plugins: [moduleReport()],
    });
    for (const chunk of output) if (chunk.type === 'chunk' && !chunk.isEntry) lazyBytes += chunk.code.length;
  } finally {
    await bundle.close();
  }

  const css = join(dir, 'peer.css');
  const minified = await transform(readFileSync(CSS_SOURCE, 'utf8'), { loader: 'css', minify: true });
  writeFileSync(css, minified.code);
  // Fonts the stylesheet names (emoji fallbacks), fetched only when a glyph needs them.
  cpSync(resolve(ROOT, 'node_modules/stream-chat-react/dist/css/assets'), join(dir, 'assets'), { recursive: true });

  const modules = JSON.parse(readFileSync(`${js}.modules.json`, 'utf8')) as Record<string, number>;
  return { dir, js, css, modules, lazyBytes, buildMs: performance.now() - started };
}
