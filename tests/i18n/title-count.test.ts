import { afterEach, describe, expect, it } from 'vitest';
import { setTitleCount } from '../../src/browser/title-count';
import { parseNotify } from '../../src/contract/attributes';

describe('the unread count in the title', () => {
  const a = {};
  const b = {};
  afterEach(() => {
    setTitleCount(a, 0);
    setTitleCount(b, 0);
  });

  it('adds the count and restores the page title exactly', () => {
    document.title = 'Harbor & Pine · Shop';
    const title = document.querySelector('title')!;
    title.textContent = '  Harbor &  Pine · Shop ';
    setTitleCount(a, 2);
    const shown = () => document.title.replace(/\s+/g, ' ').trim(); // as browsers read it
    expect(shown()).toBe('(2) Harbor & Pine · Shop');
    setTitleCount(a, 5);
    expect(shown()).toBe('(5) Harbor & Pine · Shop');
    setTitleCount(a, 0);
    expect(title.textContent).toBe('  Harbor &  Pine · Shop '); // as the page wrote it, spaces and all
  });

  it('adds up several widgets, and caps what it shows', () => {
    document.title = 'Shop';
    setTitleCount(a, 60);
    setTitleCount(b, 50);
    expect(document.title).toBe('(99+) Shop');
    setTitleCount(a, 0);
    expect(document.title).toBe('(50) Shop');
    setTitleCount(b, 0);
    expect(document.title).toBe('Shop');
  });

  it('keeps a title the page set meanwhile as the one to restore', () => {
    document.title = 'Cart';
    setTitleCount(a, 1);
    document.title = 'Checkout'; // a single-page site navigated
    setTitleCount(a, 3);
    expect(document.title).toBe('(3) Checkout');
    setTitleCount(a, 0);
    expect(document.title).toBe('Checkout');
  });
});

describe('the notify attribute', () => {
  it('reads its words in any order and ignores others', () => {
    expect(parseNotify('sound title')).toEqual({ title: true, sound: true });
    expect(parseNotify('TITLE  confetti')).toEqual({ title: true, sound: false });
    expect(parseNotify(undefined)).toEqual({ title: false, sound: false });
  });
});
