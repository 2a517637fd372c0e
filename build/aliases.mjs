import { fileURLToPath } from 'node:url';

// The UI is written against the React API and compiled against Preact: every React
// entry point resolves to preact/compat so exactly one copy of Preact is bundled.
export const preactAliases = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];

// axios's package `browser` map only swaps its Node adapters for files resolved through
// the `main` entry; point straight at its self-contained browser ESM build instead.
// (That file is not in axios's `exports`, so it is named by path.)
export const browserAliases = [
  { find: /^axios$/, replacement: fileURLToPath(new URL('../node_modules/axios/dist/esm/axios.js', import.meta.url)) },
];
