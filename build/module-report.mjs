// Writes <file>.modules.json beside each output: every bundled module and its minified
// share, so the bundle benchmark can split the bytes by package and a test can check that
// exactly one copy of Preact went in.
import { relative } from 'node:path';

/**
 * @param {{ holder: string, modules: Record<string, number> }} [deferred] modules bundled inside
 *   another one, the holder (build/defer-runtime.mjs): each is counted on its own, the holder
 *   without them
 */
export function moduleReport(deferred = { holder: '', modules: {} }) {
  return {
    name: 'module-report',
    generateBundle(options, bundle) {
      const inner = Object.values(deferred.modules).reduce((sum, length) => sum + length, 0);
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const sizes = Object.entries(chunk.modules).map(([id, info]) => [id, id === deferred.holder ? Math.max(0, info.renderedLength - inner) : info.renderedLength]);
        if (sizes.some(([id]) => id === deferred.holder)) sizes.push(...Object.entries(deferred.modules));
        const modules = Object.fromEntries(
          sizes.filter(([, length]) => length > 0).map(([id, length]) => [relative(process.cwd(), id.replace(/^\0/, '')), length]),
        );
        this.emitFile({ type: 'asset', fileName: `${chunk.fileName}.modules.json`, source: JSON.stringify(modules, null, 1) });
      }
    },
  };
}
