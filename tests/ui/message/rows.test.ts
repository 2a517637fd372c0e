import type { LocalMessage } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import { buildRows, dayLabel } from '../../../src/ui/message/rows';

const at = (iso: string) => new Date(iso);
const message = (id: string, user: string, iso: string, extra: Partial<LocalMessage> = {}) =>
  ({ id, user: { id: user }, created_at: at(iso), updated_at: at(iso), deleted_at: null, pinned_at: null, type: 'regular', text: id, ...extra }) as LocalMessage;

describe('buildRows', () => {
  const now = at('2026-11-21T12:00:00');

  it('puts a date separator before each new day, and groups one author within five minutes', () => {
    const rows = buildRows(
      [
        message('a', 'ann', '2026-11-20T10:00:00'),
        message('b', 'ann', '2026-11-20T10:03:00'),
        message('c', 'ann', '2026-11-20T10:30:00'),
        message('d', 'bob', '2026-11-21T09:00:00'),
        message('e', 'bob', '2026-11-21T09:01:00'),
      ],
      'ann',
      null,
      now,
    );
    expect(rows.map((r) => (r.kind === 'message' ? `${r.key}${r.continued ? '+' : ''}` : r.kind === 'date' ? dayLabel(r.day, 'en', now) : r.kind))).toEqual([
      'Yesterday', 'a', 'b+', 'c', 'Today', 'd', 'e+',
    ]);
    expect(rows.filter((r) => r.kind === 'message' && r.own).map((r) => r.key)).toEqual(['a', 'b', 'c']);
  });

  it('puts the new-messages line before the first unread message from someone else', () => {
    const rows = buildRows(
      [message('a', 'bob', '2026-11-21T09:00:00'), message('b', 'ann', '2026-11-21T09:05:00'), message('c', 'bob', '2026-11-21T09:06:00')],
      'ann',
      at('2026-11-21T09:01:00'),
      now,
    );
    expect(rows.map((r) => r.key)).toEqual([expect.stringMatching(/^date-/), 'a', 'b', 'unread', 'c']);
    expect(rows.at(-1)).toMatchObject({ continued: false });
  });

  it('does not group across deleted or system messages', () => {
    const rows = buildRows(
      [message('a', 'bob', '2026-11-21T09:00:00', { type: 'deleted' }), message('b', 'bob', '2026-11-21T09:00:30')],
      null,
      null,
      now,
    );
    expect(rows.at(-1)).toMatchObject({ key: 'b', continued: false });
  });
});

describe('dayLabel', () => {
  it('names older days with the weekday, and the year when it is not this year', () => {
    expect(dayLabel(at('2026-11-16T10:00:00'), 'en', at('2026-11-21T12:00:00'))).toMatch(/Monday/);
    expect(dayLabel(at('2025-03-03T10:00:00'), 'en', at('2026-11-21T12:00:00'))).toMatch(/2025/);
  });

  it('says today and yesterday in the panel language, from Intl', () => {
    const now = at('2026-11-21T12:00:00');
    expect(dayLabel(at('2026-11-21T08:00:00'), 'de', now)).toBe('Heute');
    expect(dayLabel(at('2026-11-20T08:00:00'), 'fr', now)).toBe('Hier');
    expect(dayLabel(at('2026-11-16T10:00:00'), 'de', now)).toMatch(/Montag/);
  });
});
