// Which of the widget's languages a visitor gets: the `locale` attribute, else the host page's
// `<html lang>`, else the browser's languages, each matched to the catalogues we ship.

/** The catalogues shipped beside the script (English is inside it). */
export const LOCALES = ['en', 'de', 'fr', 'es', 'pt', 'it', 'nl', 'pl', 'tr', 'ru', 'ar', 'he', 'hi', 'ja', 'ko', 'zh-Hans'] as const;
export type Locale = (typeof LOCALES)[number];

const RIGHT_TO_LEFT = new Set(['ar', 'he', 'fa', 'ur']);

/** A well-formed tag: its language, then subtags of letters and digits. */
const SIMPLE_TAG = /^([a-z]{2,3})(?:-[a-z0-9]{1,8})*$/i;

/** The shipped catalogue for one BCP 47 tag, or null: `de-AT` → `de`, `zh-CN` → `zh-Hans`; Traditional Chinese has none. */
export function matchLocale(tag: string): Locale | null {
  const normal = tag.trim().replace(/_/g, '-');
  // A tag's language is its first subtag: only Chinese needs the script worked out, which takes
  // the likely-subtags data (Intl.Locale#maximize loads it: milliseconds of a first open).
  const language = SIMPLE_TAG.exec(normal)?.[1]?.toLowerCase();
  if (language && language !== 'zh') {
    if (language === 'iw') return 'he';
    return (LOCALES as readonly string[]).includes(language) ? (language as Locale) : null;
  }
  let locale: Intl.Locale;
  try {
    locale = new Intl.Locale(normal).maximize();
  } catch {
    return null;
  }
  if (locale.language === 'zh') return locale.script === 'Hans' ? 'zh-Hans' : null;
  if (locale.language === 'iw') return 'he';
  return (LOCALES as readonly string[]).includes(locale.language) ? (locale.language as Locale) : null;
}

export interface LocaleSources {
  /** The element's `locale` attribute. */
  attribute?: string | null;
  /** The nearest `lang` of the page around the element (usually `<html lang>`). */
  pageLang?: string | null;
  /** `navigator.languages`. */
  browser?: readonly string[];
}

/**
 * The first source, in order, that names a language we ship (by language and script: `pt-BR` is
 * `pt`); a language we do not ship falls through to the next source, and English is the last.
 */
export function resolveLocale({ attribute, pageLang, browser = [] }: LocaleSources): Locale {
  for (const tag of [attribute, pageLang, ...browser]) {
    const found = tag ? matchLocale(tag) : null;
    if (found) return found;
  }
  return 'en';
}

/** The writing direction of a locale. */
export const directionOf = (locale: string): 'rtl' | 'ltr' => (RIGHT_TO_LEFT.has(locale.split('-')[0]!) ? 'rtl' : 'ltr');
