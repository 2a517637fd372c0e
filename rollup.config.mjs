import alias from '@rollup/plugin-alias';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import { dts } from 'rollup-plugin-dts';
import esbuild from 'rollup-plugin-esbuild';
import { preactAliases } from './build/aliases.mjs';
import { axiosBrowser } from './build/axios-browser.mjs';
import { minifyCss } from './build/minify-css.mjs';
import { moduleReport } from './build/module-report.mjs';

const input = 'src/element/index.ts';

// One self-contained file that needs no Node globals at run time: React resolves to
// Preact, and every package (stream-chat, axios, …) to its browser build.
const plugins = [
  alias({ entries: preactAliases }),
  axiosBrowser(),
  replace({ preventAssignment: true, values: { 'process.env.NODE_ENV': JSON.stringify('production') } }),
  nodeResolve({
    browser: true,
    preferBuiltins: false,
    exportConditions: ['browser', 'module', 'import', 'default'],
    extensions: ['.mjs', '.js', '.ts', '.tsx', '.json'],
  }),
  commonjs(),
  minifyCss(),
  esbuild({ target: 'es2020', jsx: 'automatic', jsxImportSource: 'preact', minify: false }),
  terser({ ecma: 2020, compress: { passes: 2 }, format: { comments: false } }),
];

export default [
  {
    input,
    plugins,
    output: [
      { file: 'dist/chat-widget.js', format: 'iife', name: 'ChatWidget', plugins: [moduleReport()] },
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
