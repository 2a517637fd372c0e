// Makes each part of the chat that few visitors use (the voice recorder, the poll and location
// forms, the views beside the conversation) a script of its own beside the single file, fetched
// the first time it is wanted (src/browser/fetch-part.ts), as the catalogues are. A part holds
// only its own modules: every module the page already has (Preact, its hooks, the panel's
// helpers) is taken from the page, which hands the part the bindings it imports as a list, in an
// order both sides were built with.
//
// Three steps, before the main build: the page's modules with the parts left out (their loaders
// as stubs); each part, with those modules external; then the two sides of the list: the loader
// the page gets (importing each binding the part needs) and the part's script (taking them from
// the list it is handed). A signature of the list and of the part's code, written on both
// sides, keeps a part of another build (a stale cached copy) from being started at all.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import terser from '@rollup/plugin-terser';
import { rollup } from 'rollup';
import { parseAst } from 'rollup/parseAst';

const FETCH_PART = resolve('src/browser/fetch-part.ts');
const SCRIPT_BASE = resolve('src/i18n/script-base.ts');

/**
 * @param {{ input: string, parts: Array<{ loader: string, entry: string, fileName: string }>, plugins: () => import('rollup').Plugin[] }} options
 *   the page's entry; each part: the module the page calls (`load…()`, replaced), the part's
 *   entry and its file beside the single file; a fresh list of the main build's plugins,
 *   without minification
 * @returns the plugin that puts the loaders in place (list it with the main build's plugins,
 *   and in every inner build that may reach a loader), and `emit`, the output plugin that
 *   writes the parts beside the script
 */
export function fetchOnFirstUse({ input, parts, plugins }) {
  const loaders = new Map(parts.map((part) => [resolve(part.loader), { ...part, entry: resolve(part.entry) }]));
  let prepared;
  const prepare = () => (prepared ??= buildParts({ input, loaders, plugins }));
  return {
    plugin: {
      name: 'fetch-on-first-use',
      load: (id) => (loaders.has(id) ? prepare().then((built) => built.get(id).loaderCode) : null),
    },
    emit: {
      name: 'fetch-on-first-use-emit',
      async generateBundle() {
        for (const [id, { fileName }] of loaders) this.emitFile({ type: 'asset', fileName, source: (await prepare()).get(id).partCode });
      },
    },
  };
}

/**
 * The code of a part's loader: fetch the part, handing it the list. The part's address is beside
 * the script's own (`import.meta.url`: in the single file, the script element that ran it; in the
 * ES module, a form bundlers such as webpack and Vite follow to copy the part beside their
 * output), with the script's query, so a site that versions the script by its query versions
 * the parts alike.
 */
const loaderCode = (loaderId, fileName, shared, signature) => `import { fetchPart } from ${JSON.stringify(FETCH_PART)};
import { scriptNonce } from ${JSON.stringify(SCRIPT_BASE)};
${shared.imports}
export const ${exportName(loaderId)} = () => {
  const url = new URL(${JSON.stringify(`./${fileName}`)}, import.meta.url);
  url.search = new URL(import.meta.url).search;
  return fetchPart(url.href, ${JSON.stringify(signature)}, () => [${shared.list}], scriptNonce());
};
`;

async function buildParts({ input, loaders, plugins }) {
  const none = { imports: '', list: '' };
  const stub = { name: 'part-stub', load: (id) => (loaders.has(id) ? loaderCode(id, loaders.get(id).fileName, none, '') : null) };

  // 1. Every module the page has without the parts (the runtime's included: the parts are started from it).
  const page = await rollup({ input, plugins: [stub, ...plugins()], onwarn: () => undefined });
  const pageModules = new Set(page.cache.modules.map((module) => module.id));
  await page.close();

  const built = new Map();
  for (const [id, { entry, fileName }] of loaders) {
    if (pageModules.has(entry)) throw new Error(`fetch-on-first-use: the page imports ${entry} itself`);
    built.set(id, await buildPart({ id, entry, fileName, pageModules, stub, plugins }));
  }
  return built;
}

/** 2 and 3. One part, taking the page's modules from the page, and its loader. */
async function buildPart({ id, entry, fileName, pageModules, stub, plugins }) {
  const part = await rollup({
    input: entry,
    plugins: [
      stub,
      {
        name: 'shared-from-page',
        async resolveId(source, importer, options) {
          const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
          return resolved && pageModules.has(resolved.id) ? { id: resolved.id, external: true } : resolved;
        },
      },
      ...plugins(),
    ],
    makeAbsoluteExternalsRelative: false,
    onwarn: (warning, warn) => warning.code !== 'CIRCULAR_DEPENDENCY' && warn(warning),
  });
  let shared;
  let signature;
  const { output } = await part.generate({
    format: 'es',
    generatedCode: 'es2015',
    plugins: [
      {
        name: 'part-script',
        renderChunk(code) {
          const split = splitImports(code);
          shared = split.shared;
          // The list and the part's own code: a copy of another build is refused, not run.
          signature = createHash('sha256').update(`${fileName}\n${shared.signature}\n${split.body}`).digest('hex').slice(0, 16);
          return `document.dispatchEvent(new CustomEvent("chat-widget-part", { detail: { signature: ${JSON.stringify(signature)}, start: (shared$) => {\n${split.body}\n} } }));`;
        },
      },
      terser({ ecma: 2020, compress: { passes: 2 }, format: { comments: false } }),
    ],
  });
  await part.close();
  return { loaderCode: loaderCode(id, fileName, shared, signature), partCode: output[0].code };
}

/** The name the loader module exports (`loadRecorder`), read from its source's one export. */
function exportName(loaderId) {
  const name = /export const (\w+) =/.exec(readFileSync(loaderId, 'utf8'))?.[1];
  if (!name) throw new Error(`fetch-on-first-use: ${loaderId} must export one const`);
  return name;
}

/**
 * The part's ES module code, its imports of the page's modules turned into reads of the list it
 * is handed (`const { h: e } = shared$[0]`) and its exports into what its function returns; and
 * the same list as the page writes it: the imports that bind each value, and the list's entries.
 */
function splitImports(code) {
  if (/\bshared\$/.test(code)) throw new Error('fetch-on-first-use: the part uses a name the wrapper declares');
  const reads = [];
  const imports = [];
  const list = [];
  const returned = [];
  const cuts = [];
  for (const node of parseAst(code).body) {
    if (node.type === 'ImportDeclaration') {
      cuts.push(node);
      if (node.specifiers.length === 0) continue; // run by the page already
      const index = list.length;
      const namespace = node.specifiers.find((specifier) => specifier.type === 'ImportNamespaceSpecifier');
      const source = JSON.stringify(node.source.value);
      if (namespace) {
        reads.push(`const ${namespace.local.name} = shared$[${index}];`);
        imports.push(`import * as part$${index} from ${source};`);
        list.push(`part$${index}`);
        continue;
      }
      const names = node.specifiers.map((specifier) => (specifier.type === 'ImportDefaultSpecifier' ? 'default' : specifier.imported.name));
      reads.push(`const { ${node.specifiers.map((specifier, at) => `${JSON.stringify(names[at])}: ${specifier.local.name}`).join(', ')} } = shared$[${index}];`);
      imports.push(`import { ${names.map((name, at) => `${name === 'default' ? 'default' : name} as part$${index}_${at}`).join(', ')} } from ${source};`);
      list.push(`{ ${names.map((name, at) => `${JSON.stringify(name)}: part$${index}_${at}`).join(', ')} }`);
    } else if (node.type === 'ExportNamedDeclaration' && !node.declaration && !node.source) {
      for (const specifier of node.specifiers) returned.push(`${JSON.stringify(specifier.exported.name)}: ${specifier.local.name}`);
      cuts.push(node);
    } else if (node.type.startsWith('Export')) {
      throw new Error(`fetch-on-first-use: unexpected ${node.type} in the part`);
    }
  }
  let body = `${reads.join('\n')}\n`;
  let at = 0;
  for (const node of cuts) {
    body += code.slice(at, node.start);
    at = node.end;
  }
  body += `${code.slice(at)}\nreturn { ${returned.join(', ')} };`;
  // What each entry holds, by module (relative to the project: the same on every machine) and name.
  const signature = imports.map((line) => line.replace(/from "(.*)";$/, (_, id) => relative(process.cwd(), id))).join('\n');
  return { shared: { imports: imports.join('\n'), list: list.join(', '), signature }, body };
}
