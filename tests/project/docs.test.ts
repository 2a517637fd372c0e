// The docs stay what a reader needs: a README read in five minutes whose first screen shows the
// two commands, a record of decisions rather than a diary, and links that lead somewhere.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(resolve(path), 'utf8');
const lines = (path: string) => read(path).split('\n').length;
const DOCS = ['README.md', ...readdirSync(resolve('docs')).filter((name) => name.endsWith('.md')).map((name) => join('docs', name))];

describe('the docs', () => {
  it('keep the README short, with both commands on its first screen', () => {
    expect(lines('README.md')).toBeLessThanOrEqual(300);
    const firstScreen = read('README.md').split('\n').slice(0, 30).join('\n');
    expect(firstScreen).toContain('npm install && npm start');
    expect(firstScreen).toContain('npm install && npm test');
  });

  it('keep the design decisions a record, not a log', () => {
    expect(lines('docs/design-decisions.md')).toBeLessThanOrEqual(400);
    expect(DOCS.filter((path) => /\bissue \d+/i.test(read(path)))).toEqual([]);
  });

  it('link only to files that exist', () => {
    const broken = DOCS.flatMap((path) =>
      [...read(path).matchAll(/\]\(([^)#\s]+)(#[^)\s]*)?\)/g)]
        .map((match) => match[1] as string)
        .filter((target) => !/^[a-z]+:/i.test(target) && !existsSync(resolve(dirname(path), target)))
        .map((target) => `${path} → ${target}`),
    );
    expect(broken).toEqual([]);
  });
});
