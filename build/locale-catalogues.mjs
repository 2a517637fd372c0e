// The catalogues of every language but English (src/i18n/locales/*.json) travel beside the
// script, as dist/locales/<locale>.json, minified: the widget fetches the one a visitor needs.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const SOURCE = 'src/i18n/locales';

export function localeCatalogues() {
  return {
    name: 'locale-catalogues',
    generateBundle() {
      for (const file of readdirSync(SOURCE).filter((name) => name.endsWith('.json'))) {
        const catalogue = JSON.parse(readFileSync(join(SOURCE, file), 'utf8'));
        this.emitFile({ type: 'asset', fileName: `locales/${basename(file)}`, source: JSON.stringify(catalogue) });
      }
    },
  };
}
