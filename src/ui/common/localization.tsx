// The visitor's language for the panel: which locale (the `locale` attribute, the page's
// `<html lang>`, the browser's), its catalogue, and the site's overrides, given to every
// component by context. `useT()` is how a component says anything.
import { createContext, useContext, useEffect, useMemo, useState } from 'react';
import { loadCatalogue, loadTranslations, overridesFor } from '../../i18n/catalogues';
import { en } from '../../i18n/en';
import { directionOf, resolveLocale, type Locale } from '../../i18n/locale';
import { createTranslate, type Catalogue, type Text, type Translate } from '../../i18n/translate';

export interface Localization {
  locale: Locale;
  dir: 'ltr' | 'rtl';
  t: Translate;
}

const english: Localization = { locale: 'en', dir: 'ltr', t: createTranslate('en', [en]) };
const LocalizationContext = createContext<Localization>(english);
export const LocalizationProvider = LocalizationContext.Provider;

/** Says things in the visitor's language: `t('composer.send')`. */
export const useT = (): Translate => useContext(LocalizationContext).t;
export const useLocalization = (): Localization => useContext(LocalizationContext);
/** A session's text (an error, a notice) in the visitor's words. */
export const useSay = () => {
  const t = useT();
  return (said: Text | null | undefined) => (said ? t(said.key, said.params) : '');
};

/** The page's language as it is now, kept current (single-page sites change it on navigation). */
function usePageLang(): string {
  const [lang, setLang] = useState(() => document.documentElement.lang);
  useEffect(() => {
    const observer = new MutationObserver(() => setLang(document.documentElement.lang));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
    return () => observer.disconnect();
  }, []);
  return lang;
}

export interface LocalizationInput {
  /** The `locale` attribute. */
  locale?: string;
  /** The `translations` attribute (a URL) or property (the strings themselves). */
  translations?: string | object;
  /** A site's translations that could not be read. */
  onError?: (message: string) => void;
}

/**
 * The panel's localization, or null while its catalogue is on its way (a fraction of a second,
 * once per page). A catalogue or overrides that cannot be fetched leave English in their place.
 */
export function useLocalizationFor({ locale: attribute, translations, onError }: LocalizationInput): Localization | null {
  const pageLang = usePageLang();
  const locale = resolveLocale({ attribute, pageLang, browser: navigator.languages ?? [] });
  const key = `${locale}|${typeof translations === 'string' ? translations : ''}`;
  // English with no translations to fetch needs nothing: it is there from the first render.
  const [loaded, setLoaded] = useState<{ key: string; locale: Locale; catalogue: Catalogue; overrides: unknown } | null>(() =>
    locale === 'en' && typeof translations !== 'string' ? { key, locale, catalogue: {}, overrides: null } : null,
  );
  useEffect(() => {
    if (loaded?.key === key) return;
    let current = true;
    const overrides =
      typeof translations === 'string'
        ? loadTranslations(translations).catch((error: unknown) => {
            onError?.(`The translations at "${translations}" could not be read: ${(error as Error)?.message ?? error}`);
            return {};
          })
        : Promise.resolve(null);
    void Promise.all([loadCatalogue(locale).catch(() => ({})), overrides]).then(([catalogue, fetched]) => {
      if (current) setLoaded({ key, locale, catalogue, overrides: fetched });
    });
    return () => {
      current = false;
    };
  }, [key]);
  // Until a new language arrives, the panel keeps speaking the one it has.
  return useMemo(() => {
    if (!loaded) return null;
    const site = overridesFor(typeof translations === 'object' ? translations : loaded.overrides, loaded.locale);
    return { locale: loaded.locale, dir: directionOf(loaded.locale), t: createTranslate(loaded.locale, [site, loaded.catalogue, en]) };
  }, [loaded, translations]);
}
