// The widget's package as a site installs it: `npm pack` of the project's root. A React site's
// `npm install chat-widget` must bring no server, nothing native, nothing at all at run time:
// every file it needs is a self-contained bundle in dist/ (npm test builds it first).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageOf, runtimeImports, sources } from './source-imports';

type Exports = string | { [condition: string]: Exports };

const targets = (entry: Exports): string[] => (typeof entry === 'string' ? [entry] : Object.values(entry).flatMap(targets));

describe('the packed widget', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-widget-pack-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { encoding: 'utf8' })) as [
    { filename: string; files: { path: string }[] },
  ];
  execFileSync('tar', ['-xzf', join(dir, packed.filename), '-C', dir]);
  const manifest = JSON.parse(readFileSync(join(dir, 'package', 'package.json'), 'utf8')) as Record<string, unknown>;
  const files = new Set(packed.files.map((file) => file.path));

  it('has no runtime dependencies; React is an optional peer', () => {
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.optionalDependencies ?? {}).toEqual({});
    expect(manifest.bundleDependencies ?? manifest.bundledDependencies ?? []).toEqual([]);
    expect(Object.keys((manifest.peerDependencies ?? {}) as object)).toEqual(['react']);
    expect(manifest.peerDependenciesMeta).toEqual({ react: { optional: true } });
  });

  it('ships every file its exports, main, module and types name, and nothing of the server', () => {
    const named = [
      ...targets(manifest.exports as Exports).filter((target) => !target.includes('*')),
      manifest.main as string,
      manifest.module as string,
      manifest.types as string,
    ].map((target) => target.replace(/^\.\//, ''));
    expect(named.length).toBeGreaterThan(6);
    expect(named.filter((target) => !files.has(target))).toEqual([]);
    expect(['js', 'loader.js', 'badge.js', 'recorder.js', 'sheets.js', 'views.js', 'search.js'].filter((file) => !files.has(`dist/chat-widget.${file}`))).toEqual([]);
    expect([...files].filter((path) => !path.startsWith('dist/') && !/^(package\.json|README\.md|LICENSE)$/i.test(path))).toEqual([]);
  });

  it("ships declarations that name no package but the one their entry is for", () => {
    // A site without Preact or Vue type-checks the element's own types (even with skipLibCheck
    // off): only the framework entries name their framework.
    const named = (file: string) => {
      const text = readFileSync(join(dir, 'package', 'dist', file), 'utf8');
      const specifiers = [...text.matchAll(/(?:from|import\(|declare module) ['"]([^'"]+)['"]/g)].map((match) => match[1] as string);
      return [...new Set(specifiers.filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('chat-widget')))].sort();
    };
    expect(named('chat-widget.d.ts')).toEqual([]);
    expect(named('react.d.ts')).toEqual(['react']);
    expect(named('preact.d.ts')).toEqual(['preact']);
    expect(named('vue.d.ts')).toEqual(['vue']);
  });
});

// The local backend as a package of its own: what it imports at run time is what it lists, and
// its command starts it.
describe('the backend package', () => {
  const manifest = JSON.parse(readFileSync(resolve('src/server/package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    bin: Record<string, string>;
  };

  it('lists every package the backend imports at run time, and no other', () => {
    const imported = new Set(sources(resolve('src/server')).flatMap((file) => runtimeImports(file).flatMap((specifier) => packageOf(specifier) ?? [])));
    // tsx is not imported by the TypeScript: its command loads the backend through it.
    imported.add('tsx');
    expect(Object.keys(manifest.dependencies).sort()).toEqual([...imported].sort());
  });

  it('has a command that runs the backend', () => {
    const command = resolve('src/server', manifest.bin['chat-widget-server'] as string);
    const usage = execFileSync(process.execPath, [command, '--help'], { encoding: 'utf8' });
    expect(usage).toMatch(/^Usage: chat-widget-server \[options\]/);
    expect(usage).toContain('--port');
  });
});
