import { resolve } from 'node:path';
import alias from '@rollup/plugin-alias';
import { dts } from 'rollup-plugin-dts';
import esbuild from 'rollup-plugin-esbuild';
import { preactAliases } from './build/aliases.mjs';
import { browserPlugins } from './build/browser-plugins.mjs';
import { deferRuntime } from './build/defer-runtime.mjs';
import { fetchOnFirstUse } from './build/fetch-on-first-use.mjs';
import { localeCatalogues } from './build/locale-catalogues.mjs';
import { minifyCss } from './build/minify-css.mjs';
import { moduleReport } from './build/module-report.mjs';

const input = 'src/entries/chat-widget.ts';
const reactInput = 'src/entries/react.tsx';
// The element's types, which the React and Vue typings take from dist/chat-widget.d.ts.
const elementTypes = resolve(input);

// One self-contained file that needs no Node globals at run time: React resolves to
// Preact, axios to the part of it stream-chat uses, every other package to its browser build.
// The exceptions are parts few visitors use (the voice recorder, the poll and location forms,
// the views beside the conversation, search):
// scripts beside it, fetched on first use (as the catalogues are), which take Preact and the
// panel's helpers from the page.
const compile = () => [parts.plugin, alias({ entries: preactAliases }), ...browserPlugins({ jsxImportSource: 'preact', before: [minifyCss()], lite: true })];
const withoutTerser = () => compile().filter((plugin) => plugin.name !== 'terser');
const parts = fetchOnFirstUse({
  input,
  parts: [
    { loader: 'src/ui/composer/recorder-loader.ts', entry: 'src/ui/composer/recorder/voice-recorder.tsx', fileName: 'chat-widget.recorder.js' },
    { loader: 'src/ui/composer/sheets-loader.ts', entry: 'src/ui/composer/sheets.ts', fileName: 'chat-widget.sheets.js' },
    { loader: 'src/ui/views/side-views-loader.ts', entry: 'src/ui/views/side-views.ts', fileName: 'chat-widget.views.js' },
    { loader: 'src/ui/search/search-loader.ts', entry: 'src/ui/search/search-view.tsx', fileName: 'chat-widget.search.js' },
  ],
  plugins: withoutTerser,
});
// The chat's runtime stays in the file but is evaluated on first use (build/defer-runtime.mjs).
const deferred = deferRuntime({ input, plugins: withoutTerser });
const plugins = [deferred, ...compile()];

// V8's explicit compile hint (Chromium 136+; to other engines a comment): V8 compiles every
// function with the script, on its streaming thread, instead of one by one on the page's main
// thread when first called. Most of the loader's functions run as it loads (about 10 ms of
// main-thread time at 4x CPU). In the full file, the runtime's functions all run on the first
// click, where compiling them one by one was about a third of click → first message (p90 162
// → 116 ms in the same conditions); the closed bubble's thread time did not
// grow. Added after terser, which would drop the comment.
const compileHint = {
  name: 'compile-hint',
  renderChunk: (code) => ({ code: `//# allFunctionsCalledOnLoad\n${code}`, map: null }),
};

export default [
  {
    input,
    plugins,
    output: [
      { file: 'dist/chat-widget.js', format: 'iife', name: 'ChatWidget', plugins: [moduleReport(deferred.report), localeCatalogues(), parts.emit, compileHint] },
      { file: 'dist/chat-widget.mjs', format: 'es' },
    ],
  },
  // The opt-in loader: the element and its launcher alone; it fetches chat-widget.js beside it.
  {
    input: 'src/entries/loader.ts',
    plugins: [...compile(), compileHint],
    output: { file: 'dist/chat-widget.loader.js', format: 'iife' },
  },
  // The returning visitor's badge client, run in a worker beside the page (element/badge-host.ts).
  {
    input: 'src/entries/badge-worker.ts',
    plugins: compile(),
    output: { file: 'dist/chat-widget.badge.js', format: 'iife' },
  },
  {
    input,
    plugins: [dts({ tsconfig: 'tsconfig.json' })],
    external: [/node_modules/, /^stream-chat/, /^react/, /^preact/, /^@r2wc/],
    output: { file: 'dist/chat-widget.d.ts', format: 'es' },
  },
  // chat-widget/react: the <ChatWidget> component alone, unminified for the site's own bundler,
  // with the site's React; the element itself comes from dist/chat-widget.js.
  {
    input: reactInput,
    plugins: [esbuild({ target: 'es2020', jsx: 'automatic' })],
    external: [/^react($|\/)/],
    output: { file: 'dist/react.mjs', format: 'es' },
  },
  // Its types, and chat-widget/preact and chat-widget/vue: types only (Preact's JSX, Vue's
  // GlobalComponents), kept apart as they need preact or vue.
  {
    input: { react: reactInput, preact: 'src/entries/preact.d.ts', vue: 'src/entries/vue.d.ts' },
    plugins: [dts({ tsconfig: 'tsconfig.json' })],
    external: [/^react($|\/)/, 'preact', 'vue', elementTypes],
    output: { dir: 'dist', format: 'es', paths: { [elementTypes]: './chat-widget.js' } },
  },
];
