// The house's floors: a module imports (at run time) only from its own folder or from folders
// on a lower floor, so each part can be read, tested and replaced from the bottom up. Type-only
// imports are free: they vanish from the build and carry no behaviour. Folders on the same
// floor stay apart (the element and the session share only what sits below them both).
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveImport, runtimeImports, sources } from './source-imports';

/** Floors, lowest first: folders, or modules at the top of a folder (without their extension). */
const FLOORS: string[][] = [
  // The widget.
  ['contract', 'browser', 'i18n', 'styles', 'transport'],
  ['element', 'session'],
  ['ui/common'],
  ['ui/message', 'ui/search', 'ui/notify'],
  ['ui/composer'],
  ['ui/views'],
  ['ui/shell'],
  ['entries'],
  // The local backend.
  ['server/limits'],
  ['server/config', 'server/http'],
  ['server/store'],
  ['server/infra'],
  ['server/auth'],
  ['server/present'],
  ['server/realtime'],
  ['server/events'],
  ['server/features'],
  ['server/routes'],
  ['server/app'],
  ['server/index'],
  ['server/main', 'server/bin'],
];

const SRC = resolve('src'); // vitest runs from the project's root

/** The listed folder (or top-level module) a file belongs to: the longest listed prefix of its path under src. */
function folderOf(file: string): string | undefined {
  const path = relative(SRC, file);
  return FLOORS.flat()
    .filter((folder) => path.startsWith(`${folder}/`) || path.replace(/\.tsx?$/, '') === folder)
    .sort((a, b) => b.length - a.length)[0];
}

const floorOf = (folder: string) => FLOORS.findIndex((floor) => floor.includes(folder));

describe("the house's floors", () => {
  const files = sources(SRC);

  it('lists every folder', () => {
    const unlisted = files.filter((file) => !folderOf(file));
    expect(unlisted.map((file) => relative(SRC, file))).toEqual([]);
  });

  it('are the ones docs/layout.md describes', () => {
    const layout = readFileSync(resolve('docs/layout.md'), 'utf8');
    const named = (entry: string) => {
      if (!entry.startsWith('server/')) return layout.includes(`\`src/${entry}/\``);
      const name = entry.slice('server/'.length);
      return layout.includes(`\`${name}/\``) || layout.includes(`\`${name}.ts\``);
    };
    expect(FLOORS.flat().filter((entry) => !named(entry))).toEqual([]);
  });

  it('has no import running upward or sideways', () => {
    const wrong: string[] = [];
    for (const file of files) {
      const from = folderOf(file);
      if (!from) continue;
      for (const specifier of runtimeImports(file).filter((specifier) => specifier.startsWith('.'))) {
        const to = folderOf(resolveImport(file, specifier) ?? `${resolve(dirname(file), specifier)}.ts`);
        if (!to || to === from) continue;
        if (floorOf(to) >= floorOf(from)) wrong.push(`${relative(SRC, file)} → ${specifier} (${from} → ${to})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has no import cycle', () => {
    // Run-time imports only: a cycle of them decides the order modules are evaluated in.
    const edges = new Map(files.map((file) => [file, runtimeImports(file).flatMap((specifier) => resolveImport(file, specifier) ?? [])]));
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (file: string, path: string[]) => {
      state.set(file, 'open');
      for (const next of edges.get(file) ?? []) {
        if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].map((f) => relative(SRC, f)).join(' → '));
        else if (!state.has(next)) visit(next, [...path, next]);
      }
      state.set(file, 'done');
    };
    for (const file of files) if (!state.has(file)) visit(file, [file]);
    expect(cycles).toEqual([]);
  });
});
