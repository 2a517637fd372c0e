/**
 * A date formatter made on its first use. The page's first Intl formatter loads its locale's
 * data (about 20 ms of main thread): made when the script loads, a closed bubble paid for it.
 */
export function lazyDateFormat(options: Intl.DateTimeFormatOptions): (date: Date) => string {
  let made: Intl.DateTimeFormat | undefined;
  return (date) => (made ??= new Intl.DateTimeFormat(undefined, options)).format(date);
}

const timeFormat = lazyDateFormat({ hour: 'numeric', minute: '2-digit' });

export function formatTime(value: Date | string | undefined | null): string {
  if (!value) return '';
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? '' : timeFormat(date);
}

/** The first letter of a name, for the avatar. */
export function initial(name: string): string {
  return (Array.from(name.trim())[0] ?? '?').toUpperCase();
}

export function displayName(user: { id: string; name?: string } | undefined | null): string {
  return user?.name || user?.id || 'Someone';
}

const UNITS = ['bytes', 'KB', 'MB', 'GB'];

/** A file size as people read it: 512 bytes, 1.4 MB. */
export function formatBytes(size: number | string | undefined): string {
  const bytes = Number(size);
  if (size === undefined || size === '' || !Number.isFinite(bytes) || bytes < 0) return '';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`;
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
