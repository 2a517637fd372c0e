// Every shipped catalogue (src/i18n/locales/<locale>.json) against English (src/i18n/en.ts): the
// same keys, the same placeholders, the plural forms its language's Intl.PluralRules asks for,
// and no empty text or key left in place of a translation. A failure lists every problem at once.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en';
import { LOCALES } from '../../src/i18n/locale';

const DIRECTORY = resolve('src/i18n/locales'); // vitest runs from the project's root
const SHIPPED = LOCALES.filter((locale) => locale !== 'en');
const KEYS = Object.keys(en);
const KEY_SET = new Set(KEYS);

type Entry = string | Record<string, string>;

const placeholders = (text: string) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!))].sort();
const englishPlaceholders = (entry: Entry) => placeholders(typeof entry === 'string' ? entry : (entry.other ?? ''));
const show = (names: string[]) => (names.length ? names.map((name) => `{${name}}`).join(' ') : 'none');
const quote = (value: unknown) => JSON.stringify(value);

/** What is wrong with one catalogue, one line a problem; empty when it is right. */
function problemsOf(locale: string, catalogue: unknown): string[] {
  if (typeof catalogue !== 'object' || catalogue === null || Array.isArray(catalogue)) return [`${locale}.json is not a JSON object`];
  const entries = catalogue as Record<string, unknown>;
  const problems: string[] = [];
  const categories = [...new Intl.PluralRules(locale).resolvedOptions().pluralCategories].sort();

  const missing = KEYS.filter((key) => !Object.hasOwn(entries, key));
  if (missing.length) problems.push(`missing keys (${missing.length}): ${missing.join(', ')}`);
  const extra = Object.keys(entries).filter((key) => !KEY_SET.has(key));
  if (extra.length) problems.push(`extra keys (${extra.length}): ${extra.join(', ')}`);

  const checkText = (where: string, value: unknown, expected: string[]) => {
    if (typeof value !== 'string') return problems.push(`${where}: not a string but ${quote(value)}`);
    if (value.trim() === '') return problems.push(`${where}: empty`);
    if (KEY_SET.has(value)) problems.push(`${where}: the key ${quote(value)} instead of a text`);
    const found = placeholders(value);
    if (found.join() !== expected.join()) problems.push(`${where}: placeholders ${show(found)}, English has ${show(expected)} (${quote(value)})`);
  };

  for (const key of KEYS.filter((name) => Object.hasOwn(entries, name))) {
    const english = (en as Record<string, Entry>)[key]!;
    const value = entries[key];
    const expected = englishPlaceholders(english);
    if (typeof english === 'string') {
      checkText(key, value, expected);
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push(`${key}: English has plural forms, this is ${quote(value)}`);
      continue;
    }
    const forms = Object.keys(value).sort();
    if (forms.join() !== categories.join()) problems.push(`${key}: plural forms ${forms.join(', ')}, ${locale} needs ${categories.join(', ')}`);
    for (const [form, text] of Object.entries(value)) checkText(`${key}.${form}`, text, expected);
  }
  return problems;
}

describe('shipped catalogues', () => {
  it('has a catalogue for every shipped locale and none for others', () => {
    const files = readdirSync(DIRECTORY).filter((name) => name.endsWith('.json'));
    const expected = SHIPPED.map((locale) => `${locale}.json`);
    expect({ missing: expected.filter((file) => !files.includes(file)), unexpected: files.filter((file) => !expected.includes(file)) }).toEqual({ missing: [], unexpected: [] });
  });

  it.each(SHIPPED)('%s matches English: keys, placeholders, plural forms, no empty texts', (locale) => {
    const path = join(DIRECTORY, `${locale}.json`);
    expect(existsSync(path), `${path} does not exist`).toBe(true);
    let catalogue: unknown;
    try {
      catalogue = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new Error(`${locale}.json is not valid JSON: ${(error as Error).message}`);
    }
    const problems = problemsOf(locale, catalogue);
    expect(problems, `${locale}.json:\n  ${problems.join('\n  ')}`).toEqual([]);
  });

  it('finds the problems it is meant to find', () => {
    const good = Object.fromEntries(
      Object.entries(en).map(([key, entry]) => [key, typeof entry === 'string' ? entry : { one: entry.one ?? entry.other, other: entry.other }]),
    );
    expect(problemsOf('de', good)).toEqual([]);
    const { 'panel.chat': _dropped, ...withoutChat } = good;
    const broken = {
      ...withoutChat,
      'panel.extra': 'x',
      'error.connect': 'Keine Verbindung: {grund}.',
      'panel.search': '',
      'panel.back': 'panel.close',
      'launcher.unread': { other: '{count} ungelesen' },
    };
    expect(problemsOf('de', broken).sort()).toEqual([
      'missing keys (1): panel.chat',
      'extra keys (1): panel.extra',
      'panel.search: empty',
      'panel.back: the key "panel.close" instead of a text',
      'launcher.unread: plural forms other, de needs one, other',
      'error.connect: placeholders {grund}, English has {why} ("Keine Verbindung: {grund}.")',
    ].sort());
  });
});
