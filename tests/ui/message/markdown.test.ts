import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from '../../../src/ui/message/markdown';

describe('parseInline', () => {
  it('reads bold, italic and inline code', () => {
    expect(parseInline('a **bold** and *it* and _it2_ and `co*de*`')).toEqual([
      { t: 'text', v: 'a ' },
      { t: 'bold', c: [{ t: 'text', v: 'bold' }] },
      { t: 'text', v: ' and ' },
      { t: 'italic', c: [{ t: 'text', v: 'it' }] },
      { t: 'text', v: ' and ' },
      { t: 'italic', c: [{ t: 'text', v: 'it2' }] },
      { t: 'text', v: ' and ' },
      { t: 'code', v: 'co*de*' },
    ]);
  });

  it('makes links of name.tld URLs only, and leaves underscores in them alone', () => {
    const parts = parseInline('see https://example.com/a_b_c and example.org, not localhost or foo');
    expect(parts.filter((p) => p.t === 'link')).toEqual([
      { t: 'link', v: 'https://example.com/a_b_c', href: 'https://example.com/a_b_c' },
      { t: 'link', v: 'example.org', href: 'http://example.org/' },
    ]);
    expect(parts.some((p) => p.t === 'italic')).toBe(false);
  });

  it('links internationalised names, and finds no link in text without a dot before a letter', () => {
    expect(parseInline('see bücher.de and пример.com').filter((p) => p.t === 'link').map((p) => p.v)).toEqual(['bücher.de', 'пример.com']);
    expect(parseInline('Hi. Version 2.5 at http://localhost:8080, ok.')).toEqual([{ t: 'text', v: 'Hi. Version 2.5 at http://localhost:8080, ok.' }]);
  });

  it('never links other schemes', () => {
    expect(parseInline('javascript:alert(1) data:text/html,x').every((p) => p.t === 'text')).toBe(true);
  });

  it('marks mentions of mentioned users by name or id, longest first', () => {
    const users = [{ id: 'ann', name: 'Ann' }, { id: 'ann2', name: 'Ann Lee' }];
    expect(parseInline('hi @Ann Lee and @ann, not @Annabel', users)).toEqual([
      { t: 'text', v: 'hi ' },
      { t: 'mention', v: '@Ann Lee', userId: 'ann2' },
      { t: 'text', v: ' and ' },
      { t: 'mention', v: '@ann', userId: 'ann' },
      { t: 'text', v: ', not @Annabel' },
    ]);
  });

  it('keeps HTML as text', () => {
    expect(parseInline('<img src=x onerror=alert(1)><script>alert(2)</script>')).toEqual([
      { t: 'text', v: '<img src=x onerror=alert(1)><script>alert(2)</script>' },
    ]);
  });
});

describe('parseMarkdown', () => {
  it('reads paragraphs, code blocks and lists', () => {
    const blocks = parseMarkdown('Hello\nworld\n\n```\nconst a = **1**;\n```\n- one\n- two\n1. first\n2. second');
    expect(blocks.map((b) => b.t)).toEqual(['p', 'pre', 'ul', 'ol']);
    expect(blocks[0]).toEqual({ t: 'p', lines: [[{ t: 'text', v: 'Hello' }], [{ t: 'text', v: 'world' }]] });
    expect(blocks[1]).toEqual({ t: 'pre', v: 'const a = **1**;' });
    expect(blocks[2]).toMatchObject({ t: 'ul', items: [[{ t: 'text', v: 'one' }], [{ t: 'text', v: 'two' }]] });
    expect(blocks[3]).toMatchObject({ t: 'ol', start: 1 });
  });

  it('keeps an unclosed code fence as code to the end', () => {
    expect(parseMarkdown('```\nno end')).toEqual([{ t: 'pre', v: 'no end' }]);
  });
});
