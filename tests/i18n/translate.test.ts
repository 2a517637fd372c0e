import { describe, expect, it } from 'vitest';
import { overridesFor } from '../../src/i18n/catalogues';
import { en } from '../../src/i18n/en';
import { english } from '../../src/i18n/english';
import { directionOf, LOCALES, matchLocale, resolveLocale } from '../../src/i18n/locale';
import { createTranslate, formatNumber, LATIN_DIGITS, text } from '../../src/i18n/translate';
import { formatList } from '../../src/ui/common/format';

describe('catalogue lookups', () => {
  it('fills placeholders, and formats numbers in the locale', () => {
    const t = createTranslate('de', [{ 'composer.charactersOver': { one: '{count} Zeichen zu viel (max. {max})', other: '{count} Zeichen zu viel (max. {max})' } }, en]);
    expect(t('composer.charactersOver', { count: 3, max: 5000 })).toBe('3 Zeichen zu viel (max. 5.000)');
    expect(t('channel.backTo', { name: 'Support' })).toBe('Back to Support'); // missing in German: English, never the key
  });

  it('chooses the plural form by Intl.PluralRules', () => {
    const t = createTranslate('en', [en]);
    expect(t('message.replies', { count: 1 })).toBe('1 reply');
    expect(t('message.replies', { count: 0 })).toBe('0 replies');
    expect(t('message.replies', { count: 2 })).toBe('2 replies');
    // Polish has one, few and many: 1 odpowiedź, 3 odpowiedzi, 5 odpowiedzi.
    const pl = createTranslate('pl', [{ 'message.replies': { one: '{count} odpowiedź', few: '{count} odpowiedzi', many: '{count} odpowiedzi', other: '{count} odpowiedzi' } }]);
    expect([1, 3, 5, 22].map((count) => pl('message.replies', { count }))).toEqual(['1 odpowiedź', '3 odpowiedzi', '5 odpowiedzi', '22 odpowiedzi']);
    // Arabic has six categories; a missing one falls back to `other`.
    const ar = createTranslate('ar', [{ 'message.replies': { zero: 'لا ردود', one: 'رد واحد', two: 'ردّان', other: '{count} ردود' } }]);
    expect(ar('message.replies', { count: 0 })).toBe('لا ردود');
    expect(ar('message.replies', { count: 2 })).toBe('ردّان');
    expect(ar('message.replies', { count: 11 })).toMatch(/^(11|١١) ردود$/); // "many": not given, so "other"
  });

  it('translates texts nested in values, so a session error says its reason in the same language', () => {
    const t = createTranslate('fr', [{ 'error.notSent': 'Un message n’a pas été envoyé : {why}.', 'why.rateLimited': 'envoi trop rapide' }, en]);
    expect(t('error.notSent', { why: text('why.rateLimited') })).toBe('Un message n’a pas été envoyé : envoi trop rapide.');
    expect(english(text('error.notSent', { why: text('why.rateLimited') }))).toBe('A message was not sent: sending too fast.');
  });

  it('writes small whole numbers without a formatter only where the locale would write the same', () => {
    for (const locale of LATIN_DIGITS) {
      const format = new Intl.NumberFormat(locale);
      for (const value of [0, 7, 42, 999]) expect(formatNumber(locale, value), locale).toBe(format.format(value));
    }
    expect(formatNumber('de', 5000)).toBe('5.000');
    expect(formatNumber('en', 2.5)).toBe('2.5');
  });

  it('names one reader as the list formatter would, without making one; two or more through it', () => {
    for (const locale of LOCALES) {
      const format = new Intl.ListFormat(locale, { type: 'conjunction' });
      expect(formatList(locale, ['Ann']), locale).toBe(format.format(['Ann']));
      expect(formatList(locale, ['Ann', 'Bob', 'Cy']), locale).toBe(format.format(['Ann', 'Bob', 'Cy']));
    }
    expect(formatList('en', ['Ann', 'Bob'])).toBe('Ann and Bob');
  });

  it('leaves an unknown placeholder as it is instead of saying "undefined"', () => {
    const t = createTranslate('en', [{ 'channel.backTo': 'Back to {name} ({unknown})' }]);
    expect(t('channel.backTo', { name: 'Support' })).toBe('Back to Support ({unknown})');
  });
});

describe('the locale fallback chain', () => {
  it('matches tags to the catalogues by language and script', () => {
    expect(matchLocale('de-AT')).toBe('de');
    expect(matchLocale('pt_BR')).toBe('pt');
    expect(matchLocale('zh-CN')).toBe('zh-Hans');
    expect(matchLocale('zh-Hans-SG')).toBe('zh-Hans');
    expect(matchLocale('zh-TW')).toBeNull(); // Traditional Chinese is not shipped
    expect(matchLocale('iw')).toBe('he');
    expect(matchLocale('sv')).toBeNull();
    expect(matchLocale('not a tag!')).toBeNull();
    expect(matchLocale(' EN-gb ')).toBe('en');
    expect(matchLocale('ar-EG')).toBe('ar');
    expect(matchLocale('zh')).toBe('zh-Hans');
  });

  it('takes the attribute, then the page, then the browser, then English', () => {
    expect(resolveLocale({ attribute: 'fr', pageLang: 'de', browser: ['es'] })).toBe('fr');
    expect(resolveLocale({ attribute: 'sv', pageLang: 'de', browser: ['es'] })).toBe('de');
    expect(resolveLocale({ attribute: '', pageLang: '', browser: ['sv-SE', 'es-MX'] })).toBe('es');
    expect(resolveLocale({ browser: ['sv'] })).toBe('en');
  });

  it('knows which languages are written right to left', () => {
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('he')).toBe('rtl');
    expect(directionOf('zh-Hans')).toBe('ltr');
  });
});

describe("a site's overrides", () => {
  it('may be flat (every language) or by language, the language\'s own winning', () => {
    const site = { 'composer.placeholder': 'Ask us anything…', de: { 'composer.placeholder': 'Fragen Sie uns…' }, 'pt': { 'composer.send': 'Enviar!' } };
    expect(overridesFor(site, 'de')).toEqual({ 'composer.placeholder': 'Fragen Sie uns…' });
    expect(overridesFor(site, 'fr')).toEqual({ 'composer.placeholder': 'Ask us anything…' });
    expect(overridesFor(site, 'pt')).toEqual({ 'composer.placeholder': 'Ask us anything…', 'composer.send': 'Enviar!' });
  });

  it('leaves out anything that is not a string or plural forms', () => {
    expect(overridesFor({ 'composer.send': 42, 'composer.save': { one: 'x', other: 7 }, 'panel.chat': 'Talk' }, 'en')).toEqual({ 'panel.chat': 'Talk' });
    expect(overridesFor('nonsense', 'en')).toEqual({});
    expect(overridesFor(null, 'en')).toEqual({});
  });
});
