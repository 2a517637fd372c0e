// The house's floors: a module imports (at run time) only from its own folder or from folders
// on a lower floor, so each part can be read, tested and replaced from the bottom up. Type-only
// imports are free: they vanish from the build and carry no behaviour. Folders on the same
// floor stay apart (the element and the session share only what sits below them both).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

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

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The listed folder (or top-level module) a file belongs to: the longest listed prefix of its path under src. */
function folderOf(file: string): string | undefined {
  const path = relative(SRC, file);
  return FLOORS.flat()
    .filter((folder) => path.startsWith(`${folder}/`) || path.replace(/\.tsx?$/, '') === folder)
    .sort((a, b) => b.length - a.length)[0];
}

const floorOf = (folder: string) => FLOORS.findIndex((floor) => floor.includes(folder));

/** Relative specifiers this file imports or re-exports at run time (type-only ones left out). */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause && !clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings) &&
          clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.isTypeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteral(arg)) found.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((specifier) => specifier.startsWith('.'));
}

describe("the house's floors", () => {
  const files = sources(SRC).filter((file) => !file.endsWith('.d.ts'));

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
      for (const specifier of runtimeImports(file)) {
        const target = resolve(dirname(file), specifier);
        const to = folderOf(`${target}.ts`);
        if (!to || to === from) continue;
        if (floorOf(to) >= floorOf(from)) wrong.push(`${relative(SRC, file)} → ${specifier} (${from} → ${to})`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
