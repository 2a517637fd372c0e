// Writes <file>.modules.json beside each output: every bundled module and its minified
// share, so the bundle benchmark can split the bytes by package and a test can check that
// exactly one copy of Preact went in.
import { relative } from 'node:path';

export function moduleReport() {
  return {
    name: 'module-report',
    generateBundle(options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const modules = Object.fromEntries(
          Object.entries(chunk.modules)
            .filter(([, info]) => info.renderedLength > 0)
            .map(([id, info]) => [relative(process.cwd(), id.replace(/^\0/, '')), info.renderedLength]),
        );
        this.emitFile({ type: 'asset', fileName: `${chunk.fileName}.modules.json`, source: JSON.stringify(modules, null, 1) });
      }
    },
  };
}
