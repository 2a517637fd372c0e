/**
 * A date formatter for the panel's locale, made on its first use. The page's first Intl
 * formatter loads its locale's data (about 20 ms of main thread): made when the script loads,
 * a closed bubble paid for it.
 */
export function lazyDateFormat(options: Intl.DateTimeFormatOptions): (date: Date, locale: string) => string {
  const made = new Map<string, Intl.DateTimeFormat>();
  return (date, locale) => {
    let format = made.get(locale);
    if (!format) made.set(locale, (format = new Intl.DateTimeFormat(locale, options)));
    return format.format(date);
  };
}

const timeFormat = lazyDateFormat({ hour: 'numeric', minute: '2-digit' });

/**
 * Makes the locale's time formatter now, the one every message row uses. A page's first Intl
 * formatter, whichever it is, sets up ICU (11–16 ms in Chromium; the next ones 0.1–2 ms), so
 * the day separators and receipts that follow it are cheap too.
 */
export function prepareFormats(locale: string): void {
  timeFormat(new Date(), locale);
}

export function formatTime(value: Date | string | undefined | null, locale: string): string {
  if (!value) return '';
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? '' : timeFormat(date, locale);
}

/** The first letter of a name, for the avatar. */
export function initial(name: string): string {
  return (Array.from(name.trim())[0] ?? '?').toUpperCase();
}

export function displayName(user: { id: string; name?: string } | undefined | null): string {
  return user?.name || user?.id || '?';
}

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** A file size as people read it, in their language: 512 bytes, 1.4 MB, 1,4 Mo. */
export function formatBytes(size: number | string | undefined, locale: string): string {
  const bytes = Number(size);
  if (size === undefined || size === '' || !Number.isFinite(bytes) || bytes < 0) return '';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : value < 10 ? 1 : 0;
  return new Intl.NumberFormat(locale, { style: 'unit', unit: UNITS[unit], unitDisplay: unit === 0 ? 'long' : 'short', maximumFractionDigits: digits }).format(value);
}

const parseUrl = (url: string | undefined) => {
  try {
    return new URL(url ?? '');
  } catch {
    return null;
  }
};

/** Only web addresses (and the browser's own blob: previews) may become a link or a source. */
export function safeUrl(url: string | undefined, allowBlob = false): string | undefined {
  const parsed = parseUrl(url);
  return (parsed && /^https?:$/.test(parsed.protocol)) || (allowBlob && parsed?.protocol === 'blob:') ? parsed?.href : undefined;
}

/** For pictures from other sites (link previews): one that does not load is left out, not shown broken. */
export const hideBroken = (event: { currentTarget: HTMLElement }) => {
  event.currentTarget.style.display = 'none';
};

/** The host a link points to, for naming it ("example.com"). */
export const hostOf = (url: string) => parseUrl(url)?.host ?? url;

const listFormats = new Map<string, Intl.ListFormat>();
/**
 * "Ann, Bob and Cy" in the panel's language. One name is itself in every language, so the
 * formatter (its ICU list patterns loaded on first use, on a first open's path when a receipt
 * names one reader) is made only for two or more.
 */
export function formatList(locale: string, items: string[]): string {
  if (items.length === 1) return items[0] as string;
  let format = listFormats.get(locale);
  if (!format) listFormats.set(locale, (format = new Intl.ListFormat(locale, { type: 'conjunction' })));
  return format.format(items);
}
