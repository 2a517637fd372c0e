// Keeps the chat's runtime (src/entries/runtime.ts: the panel, the session, stream-chat) in the one
// bundled file but evaluates it only when the chat is first wanted. A script's top level runs at
// load; a function's body is only parsed (off the main thread, for a deferred script) until it
// is called. So the runtime is bundled on its own, taking every module the page loads anyway
// (the element, its launcher and styles) from the main bundle, and the main bundle's
// src/entries/runtime-loader.ts is replaced by a module that holds that code in a function and calls
// it on the first loadRuntime(). The runtime's imports stay at the loader's top level, so its code
// refers to the page's own modules as if it had been bundled with them.
//
// Three passes: the main graph without the runtime (to learn which modules it already has), the
// runtime with those modules external, then the main bundle with the loader put in place.
import { resolve } from 'node:path';
import { rollup } from 'rollup';
import { parseAst } from 'rollup/parseAst';

const LOADER = resolve('src/entries/runtime-loader.ts');
const RUNTIME = resolve('src/entries/runtime.ts');

/**
 * @param {{ input: string, plugins: () => import('rollup').Plugin[] }} options the main entry, and
 *   a fresh list of the main build's plugins (without minification) for the inner passes
 */
export function deferRuntime({ input, plugins }) {
  /** The runtime's own modules and their rendered sizes, for the module report. */
  const report = { holder: LOADER, modules: {} };
  let loaderCode = null;

  return {
    name: 'defer-runtime',
    report,
    async buildStart() {
      // 1. The modules the page loads anyway: the main graph with the loader left empty.
      const eager = await rollup({
        input,
        plugins: [{ name: 'no-runtime', load: (id) => (id === LOADER ? 'export const loadRuntime = () => Promise.reject();' : null) }, ...plugins()],
        onwarn: () => undefined,
      });
      const shared = new Set(eager.cache.modules.map((module) => module.id));
      await eager.close();

      // 2. The runtime, taking those modules from the page.
      const runtime = await rollup({
        input: RUNTIME,
        plugins: [
          {
            name: 'shared-from-page',
            async resolveId(source, importer, options) {
              const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
              return resolved && shared.has(resolved.id) ? { id: resolved.id, external: true } : resolved;
            },
          },
          ...plugins(),
        ],
        makeAbsoluteExternalsRelative: false,
        onwarn: (warning, warn) => warning.code !== 'CIRCULAR_DEPENDENCY' && warn(warning),
      });
      const { output } = await runtime.generate({ format: 'es', generatedCode: 'es2015' });
      await runtime.close();
      const [chunk] = output;
      for (const [id, info] of Object.entries(chunk.modules)) report.modules[id] = info.renderedLength;

      // 3. The loader the main bundle gets: the runtime's imports (of the page's modules) at its
      // top, the rest of the runtime in a function.
      const { imports, body } = asFunctionBody(chunk.code);
      loaderCode = `${imports}
let loadedRuntime$ = undefined;
export function loadRuntime() {
  return new Promise((done) => done((loadedRuntime$ ??= evaluateRuntime$())));
}
function evaluateRuntime$() {
${body}
}
`;
    },
    load(id) {
      return id === LOADER ? loaderCode : null;
    },
  };
}

/**
 * The runtime's ES module code split in two: its import declarations (of the page's modules),
 * which stay at the loader's top level, and the rest as the body of a function that returns
 * what the runtime exports.
 */
function asFunctionBody(code) {
  if (/\b(loadedRuntime|evaluateRuntime)\$/.test(code)) throw new Error('defer-runtime: the runtime uses a name the loader declares');
  const imports = [];
  const returned = [];
  const cuts = [];
  for (const node of parseAst(code).body) {
    if (node.type === 'ImportDeclaration') {
      imports.push(code.slice(node.start, node.end));
      cuts.push(node);
    } else if (node.type === 'ExportNamedDeclaration' && !node.declaration && !node.source) {
      for (const specifier of node.specifiers) returned.push(`${JSON.stringify(specifier.exported.name)}: ${specifier.local.name}`);
      cuts.push(node);
    } else if (node.type.startsWith('Export')) {
      throw new Error(`defer-runtime: unexpected ${node.type} in the runtime bundle`);
    }
  }
  let body = '';
  let at = 0;
  for (const node of cuts) {
    body += code.slice(at, node.start);
    at = node.end;
  }
  body += code.slice(at);
  return { imports: imports.join('\n'), body: `${body}\nreturn { ${returned.join(', ')} };` };
}
