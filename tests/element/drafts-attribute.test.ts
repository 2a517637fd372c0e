import { describe, expect, it } from 'vitest';
import { parseAttributes } from '../../src/contract/attributes';
import { mount } from './helpers';

const draftsOf = (drafts: string | undefined) => {
  const parsed = parseAttributes({ apiKey: 'key', drafts });
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.config.drafts;
};

describe('the drafts attribute', () => {
  it('is off by default, on when present, and off again with drafts="false"', () => {
    expect(draftsOf(undefined)).toBe(false);
    expect(draftsOf('')).toBe(true);
    expect(draftsOf('true')).toBe(true);
    expect(draftsOf('false')).toBe(false);
  });

  it('is an observed attribute with the drafts property', () => {
    const el = mount({ 'api-key': 'key', drafts: true });
    expect((el.constructor as typeof HTMLElement & { observedAttributes: string[] }).observedAttributes).toContain('drafts');
    expect((el as unknown as { drafts?: string }).drafts).toBe('');
  });
});
