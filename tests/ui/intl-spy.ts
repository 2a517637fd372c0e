import { vi } from 'vitest';

/**
 * Records the locale of every Intl.DateTimeFormat made from now on (each is still a real one).
 * Restored by `vi.restoreAllMocks()` or the spy's own `mockRestore()`.
 */
export function recordDateFormats() {
  const Real = Intl.DateTimeFormat;
  const made: string[] = [];
  const spy = vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(((locale: string, options?: Intl.DateTimeFormatOptions) => {
    made.push(String(locale));
    return new Real(locale, options);
  }) as unknown as typeof Intl.DateTimeFormat);
  return { made, Real, spy };
}
