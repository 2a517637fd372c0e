// Marking what a search matched: word beginnings, whatever the case or accents, as the backend's
// FTS5 tokenizer compares them; and the window shown of a long message.
import { describe, expect, it } from 'vitest';
import { fold, highlightParts, queryWords, snippet } from '../../../src/ui/search/highlight';

const marked = (text: string, query: string) =>
  highlightParts(text, queryWords(query))
    .filter((part) => part.match)
    .map((part) => part.text);

describe('search highlighting', () => {
  it('folds case and accents, precomposed or combining', () => {
    expect(fold('Café')).toBe('cafe');
    expect(fold('CAFE\u0301')).toBe('cafe');
    expect(queryWords('"Résumé"  OR near*')).toEqual(['resume', 'near', 'or']);
  });

  it('marks the beginnings of words the query starts, in the text as written', () => {
    expect(marked('Coffee at the Café, then the CAFE again', 'caf')).toEqual(['Caf', 'CAF']);
    expect(marked('My résumé', 'resu')).toEqual(['résu']);
    expect(marked('the cafe\u0301 round', 'cafe')).toEqual(['cafe\u0301']);
    expect(marked('decaf is not a match', 'caf')).toEqual([]);
    expect(marked('meet near the gate', 'gate meet')).toEqual(['meet', 'gate']);
  });

  it('keeps every character, in order', () => {
    const text = 'Say "hi" to <b>Bob</b> at the harbour!';
    expect(highlightParts(text, queryWords('harb bob')).map((part) => part.text).join('')).toBe(text);
    expect(highlightParts(text, [])).toEqual([{ text, match: false }]);
  });

  it('shows the part of a long message around the first match', () => {
    const text = `${'words before '.repeat(30)}the lantern walk ${'and after '.repeat(30)}`;
    const shown = snippet(text, queryWords('lantern'));
    expect(shown.startsWith('…')).toBe(true);
    expect(shown.endsWith('…')).toBe(true);
    expect(shown).toContain('the lantern walk');
    expect(shown.length).toBeLessThanOrEqual(162);
    expect(snippet('short and sweet', ['sweet'])).toBe('short and sweet');
  });
});
