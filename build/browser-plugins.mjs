// The rollup plugins that make a browser bundle, shared by our build and the benchmark's
// peer build so both are made the same way: every package resolved to its browser build
// (axios from its ESM sources, or for our own build the part of it stream-chat uses:
// src/transport/axios-lite.ts), NODE_ENV production, TypeScript/JSX through esbuild, terser.
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';
import { axiosBrowser, axiosLite } from './axios-browser.mjs';

/**
 * @param {{ jsxImportSource: string, before?: import('rollup').Plugin[], lite?: boolean }} options
 *   `before`: plugins that run before esbuild (aliases, CSS); `lite`: axios-lite instead of axios
 */
export function browserPlugins({ jsxImportSource, before = [], lite = false }) {
  return [
    lite ? axiosLite() : axiosBrowser(),
    replace({ preventAssignment: true, values: { 'process.env.NODE_ENV': JSON.stringify('production') } }),
    nodeResolve({
      browser: true,
      preferBuiltins: false,
      exportConditions: ['browser', 'module', 'import', 'default'],
      extensions: ['.mjs', '.js', '.ts', '.tsx', '.json'],
    }),
    commonjs(),
    ...before,
    esbuild({ target: 'es2020', jsx: 'automatic', jsxImportSource, minify: false }),
    terser({ ecma: 2020, compress: { passes: 2 }, format: { comments: false } }),
  ];
}
