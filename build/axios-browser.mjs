// axios for the browser, from its own ESM sources: its package `browser` map applied (Node's
// http adapter and platform swapped out), and its fetch adapter left out, since in a browser
// axios picks XHR first and stream-chat never asks for fetch. Saves the fetch adapter's bytes.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const AXIOS = fileURLToPath(new URL('../node_modules/axios/', import.meta.url));
const FETCH_STUB = '\0axios-fetch-stub';
const BROWSER_MAP = {
  'lib/adapters/http.js': 'lib/helpers/null.js',
  'lib/platform/node/index.js': 'lib/platform/browser/index.js',
  'lib/platform/node/classes/FormData.js': 'lib/helpers/null.js',
  'lib/platform/node/classes/Buffer.js': 'lib/helpers/null.js',
};

export function axiosBrowser() {
  return {
    name: 'axios-browser',
    resolveId(source, importer) {
      if (source === 'axios') return join(AXIOS, 'index.js');
      if (!importer?.startsWith(AXIOS) || !source.startsWith('.')) return null;
      const target = join(dirname(importer), source).slice(AXIOS.length);
      if (target === 'lib/adapters/fetch.js') return FETCH_STUB;
      return BROWSER_MAP[target] ? join(AXIOS, BROWSER_MAP[target]) : null;
    },
    load(id) {
      // adapters.js reads `getFetch`; returning false makes axios skip the fetch adapter.
      return id === FETCH_STUB ? 'export const getFetch = () => false; export default false;' : null;
    },
  };
}
