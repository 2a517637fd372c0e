// Turns a message key and its values into the visitor's words: a catalogue's text with `{name}`
// placeholders filled in, a plural form chosen by Intl.PluralRules for the `count` value, and
// texts from other layers (a session error's reason) translated in place.
import type { MessageKey } from './en';

/** One entry of a catalogue: a text, or its plural forms by Intl.PluralRules category. */
export type Entry = string | Partial<Record<Intl.LDMLPluralRule, string>>;
export type Catalogue = Partial<Record<MessageKey, Entry>>;

/** A text not yet in words: what the session layer hands the UI, translated where it is shown. */
export interface Text {
  key: MessageKey;
  params?: Params;
}
export type Params = Record<string, string | number | Text | undefined>;

export const text = (key: MessageKey, params?: Params): Text => ({ key, params });
export const isText = (value: unknown): value is Text =>
  typeof value === 'object' && value !== null && typeof (value as Text).key === 'string';

export type Translate = (key: MessageKey, params?: Params) => string;

const PLACEHOLDER = /\{(\w+)\}/g;

/**
 * A translator over catalogues tried in order (the site's overrides, the locale's catalogue,
 * English): the first that has the key wins, so a missing translation shows English, never a key.
 */
export function createTranslate(locale: string, catalogues: Catalogue[]): Translate {
  let plurals: Intl.PluralRules | undefined; // made on first use: its locale data costs time
  const translate: Translate = (key, params) => {
    const entry = catalogues.map((catalogue) => catalogue[key]).find((found) => found !== undefined);
    let template: string;
    if (entry === undefined) template = key;
    else if (typeof entry === 'string') template = entry;
    else {
      const count = Number(params?.count ?? 0);
      plurals ??= new Intl.PluralRules(locale);
      // An exact 0 or 1 form ("zero"/"one" as words) is not a category: only the category counts.
      template = entry[plurals.select(count)] ?? entry.other ?? Object.values(entry)[0] ?? key;
    }
    if (!params) return template;
    return template.replace(PLACEHOLDER, (whole, name: string) => {
      const value = params[name];
      if (value === undefined) return whole;
      if (isText(value)) return translate(value.key, value.params);
      return typeof value === 'number' ? formatNumber(locale, value) : value;
    });
  };
  return translate;
}

/**
 * Locales that write numbers in Latin digits by default (CLDR's `latn`): a whole number below
 * 1,000 is then its plain digits, and needs no formatter (the first Intl.NumberFormat loads
 * number data: milliseconds of a first open). Arabic is not here: some engines default it to
 * Arabic-Indic digits.
 */
export const LATIN_DIGITS: ReadonlySet<string> = new Set(['en', 'de', 'fr', 'es', 'pt', 'it', 'nl', 'pl', 'tr', 'ru', 'he', 'hi', 'ja', 'ko', 'zh-Hans']);

const numberFormats = new Map<string, Intl.NumberFormat>();
export function formatNumber(locale: string, value: number): string {
  if (Number.isInteger(value) && value >= 0 && value < 1000 && LATIN_DIGITS.has(locale)) return String(value);
  let format = numberFormats.get(locale);
  if (!format) numberFormats.set(locale, (format = new Intl.NumberFormat(locale)));
  return format.format(value);
}
