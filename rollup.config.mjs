import alias from '@rollup/plugin-alias';
import { dts } from 'rollup-plugin-dts';
import { preactAliases } from './build/aliases.mjs';
import { browserPlugins } from './build/browser-plugins.mjs';
import { deferRuntime } from './build/defer-runtime.mjs';
import { minifyCss } from './build/minify-css.mjs';
import { moduleReport } from './build/module-report.mjs';

const input = 'src/element/index.ts';

// One self-contained file that needs no Node globals at run time: React resolves to
// Preact, and every package (stream-chat, axios, …) to its browser build.
const compile = () => [alias({ entries: preactAliases }), ...browserPlugins({ jsxImportSource: 'preact', before: [minifyCss()] })];
// The chat's runtime stays in the file but is evaluated on first use (build/defer-runtime.mjs).
const deferred = deferRuntime({ input, plugins: () => compile().filter((plugin) => plugin.name !== 'terser') });
const plugins = [deferred, ...compile()];

export default [
  {
    input,
    plugins,
    output: [
      { file: 'dist/chat-widget.js', format: 'iife', name: 'ChatWidget', plugins: [moduleReport(deferred.report)] },
      { file: 'dist/chat-widget.mjs', format: 'es' },
    ],
  },
  {
    input,
    plugins: [dts({ tsconfig: 'tsconfig.json' })],
    external: [/node_modules/, /^stream-chat/, /^react/, /^preact/, /^@r2wc/],
    output: { file: 'dist/chat-widget.d.ts', format: 'es' },
  },
];
