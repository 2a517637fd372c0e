import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatTime, prepareFormats } from '../../../src/ui/common/format';
import { recordDateFormats } from '../intl-spy';

describe('prepareFormats', () => {
  afterEach(() => vi.restoreAllMocks());

  it('makes the time formatter the message rows then use, not a throwaway one', () => {
    const { made, Real } = recordDateFormats();
    const at = new Date('2026-11-27T15:05:00');

    prepareFormats('fr');
    expect(made).toEqual(['fr']);
    expect(formatTime(at, 'fr')).toBe(new Real('fr', { hour: 'numeric', minute: '2-digit' }).format(at));
    expect(formatTime(at.toISOString(), 'fr')).toBe(formatTime(at, 'fr'));
    // The rows reuse the prepared formatter; another locale gets its own.
    expect(made).toEqual(['fr']);
    formatTime(at, 'de');
    expect(made).toEqual(['fr', 'de']);
  });
});
