// Where the words come from: English is inside the script; every other language is a JSON file
// in `locales/` beside it (dist/locales/de.json), fetched once when a visitor needs it, so the
// single file carries one language. A site's own strings (the `translations` property, or the
// same JSON at a URL) go over both.
import type { MessageKey } from './en';
import type { Locale } from './locale';
import { scriptBase } from './script-base';
import type { Catalogue, Entry } from './translate';

const fetched = new Map<string, Promise<unknown>>();

/** JSON from a URL, fetched once per page; a failure is forgotten so the next wish tries again. */
function fetchJson(url: string): Promise<unknown> {
  let pending = fetched.get(url);
  if (!pending) {
    pending = fetch(url, { credentials: 'same-origin' }).then((response) => {
      if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}.`);
      return response.json() as Promise<unknown>;
    });
    pending.catch(() => fetched.delete(url));
    fetched.set(url, pending);
  }
  return pending;
}

export const catalogueUrl = (locale: Locale, base = scriptBase()) => new URL(`locales/${locale}.json`, base).href;

/** A shipped language's catalogue; English is built in (an empty catalogue here). */
export async function loadCatalogue(locale: Locale, base = scriptBase()): Promise<Catalogue> {
  if (locale === 'en') return {};
  return asCatalogue(await fetchJson(catalogueUrl(locale, base)));
}

/** A site's translations at a URL, relative to the page. */
export const loadTranslations = (url: string): Promise<unknown> => fetchJson(new URL(url, document.baseURI).href);

const isEntry = (value: unknown): value is Entry =>
  typeof value === 'string' ||
  (typeof value === 'object' && value !== null && Object.values(value).every((form) => typeof form === 'string'));

/** The strings of a catalogue-shaped value; anything else in it is left out. Keys contain a dot. */
function asCatalogue(value: unknown): Catalogue {
  const catalogue: Catalogue = {};
  if (typeof value !== 'object' || value === null) return catalogue;
  for (const [key, entry] of Object.entries(value)) {
    if (key.includes('.') && isEntry(entry)) catalogue[key as MessageKey] = entry;
  }
  return catalogue;
}

/**
 * A site's overrides for one locale. They are either flat (`{"composer.placeholder": "Ask us"}`,
 * for every language) or by language (`{"de": {...}, "fr": {...}}`, a language's own winning).
 */
export function overridesFor(value: unknown, locale: Locale): Catalogue {
  if (typeof value !== 'object' || value === null) return {};
  const byLanguage = value as Record<string, unknown>;
  const language = locale.split('-')[0]!;
  return { ...asCatalogue(value), ...asCatalogue(byLanguage[language]), ...asCatalogue(byLanguage[locale]) };
}
