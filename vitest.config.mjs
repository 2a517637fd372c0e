import { defineConfig } from 'vitest/config';
import { preactAliases } from './build/aliases.mjs';

// Three levels, one command: happy-dom for the element and UI, node for the backend
// driven by the real SDK, and Chromium (playwright-core) against the built bundle.
export default defineConfig({
  test: {
    reporters: ['default', './tests/summary-reporter.ts'],
    projects: [
      {
        resolve: { alias: preactAliases },
        esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
        test: {
          name: 'dom',
          environment: 'happy-dom',
          include: ['tests/{element,ui,session,bundle,i18n}/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/setup-dom.ts'],
          testTimeout: 15_000,
          // r2wc imports react and react-dom/client: run it through the aliases so it
          // renders with the same Preact as everything else.
          server: { deps: { inline: [/@r2wc\//] } },
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts', 'tests/project/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
