// axios for the browser, for the benchmark's peer build, from its own ESM sources: its package `browser` map applied (Node's
// http adapter and platform swapped out), and its fetch adapter left out, since in a browser
// axios picks XHR first and stream-chat never asks for fetch. Its body converters are left out
// too: stream-chat sends JSON bodies and ready FormData uploads, and serializes query parameters
// itself (client.ts sets `paramsSerializer`), so axios never turns an object into a form or
// URLSearchParams, nor a FormData into JSON. Each is replaced by a function that says so if
// ever called; axios.HttpStatusCode, a table of status names stream-chat never reads, by an
// empty one. Saves their bytes in the single file.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const AXIOS = fileURLToPath(new URL('../node_modules/axios/', import.meta.url));
const FETCH_STUB = '\0axios-fetch-stub';
const UNUSED = '\0axios-unused:';
const UNUSED_HELPERS = ['toFormData', 'formDataToJSON', 'toURLEncodedForm', 'AxiosURLSearchParams', 'HttpStatusCode'];
const BROWSER_MAP = {
  'lib/adapters/http.js': 'lib/helpers/null.js',
  'lib/platform/node/index.js': 'lib/platform/browser/index.js',
  'lib/platform/node/classes/FormData.js': 'lib/helpers/null.js',
  'lib/platform/node/classes/Buffer.js': 'lib/helpers/null.js',
};

/** Our own build: 'axios' is src/transport/axios-lite.ts, the part of axios stream-chat uses. */
export function axiosLite() {
  const lite = fileURLToPath(new URL('../src/transport/axios-lite.ts', import.meta.url));
  return { name: 'axios-lite', resolveId: (source) => (source === 'axios' ? lite : null) };
}

export function axiosBrowser() {
  return {
    name: 'axios-browser',
    resolveId(source, importer) {
      if (source === 'axios') return join(AXIOS, 'index.js');
      if (!importer?.startsWith(AXIOS) || !source.startsWith('.')) return null;
      const target = join(dirname(importer), source).slice(AXIOS.length);
      if (target === 'lib/adapters/fetch.js') return FETCH_STUB;
      const helper = UNUSED_HELPERS.find((name) => target === `lib/helpers/${name}.js`);
      if (helper) return UNUSED + helper;
      return BROWSER_MAP[target] ? join(AXIOS, BROWSER_MAP[target]) : null;
    },
    load(id) {
      // adapters.js reads `getFetch`; returning false makes axios skip the fetch adapter.
      if (id === FETCH_STUB) return 'export const getFetch = () => false; export default false;';
      if (!id.startsWith(UNUSED)) return null;
      const name = id.slice(UNUSED.length);
      if (name === 'HttpStatusCode') return 'export default {};';
      const message = `axios ${name} is not in chat-widget's build: stream-chat sends JSON and FormData bodies`;
      // formDataToJSON imports this constant from toFormData.
      return `export default function ${name}() { throw new Error(${JSON.stringify(message)}); }
export const DEFAULT_FORM_DATA_MAX_DEPTH = 100;`;
    },
  };
}
