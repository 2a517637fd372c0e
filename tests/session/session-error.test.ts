import { describe, expect, it } from 'vitest';
import { english } from '../../src/i18n/english';
import { describeApiError, retryAfter } from '../../src/session/session-error';

const read = (error: unknown) => {
  const { code, text } = describeApiError(error);
  return { code, text: english(text) };
};

// An HTTP refusal as the SDK throws it: code, status and the axios response with its headers.
const refusal = (code: number, headers: Record<string, string> = {}) =>
  Object.assign(new Error(`StreamChat error code ${code}: refused`), { code, status: 429, response: { data: { code, message: 'refused' }, headers } });

describe('reading a refusal', () => {
  it('says how many whole seconds remain until a rate-limited request may be retried', () => {
    const now = 1_800_000_000_000;
    expect(retryAfter(refusal(9, { 'x-ratelimit-reset': String(now / 1000 + 12) }), now)).toBe(12);
    expect(retryAfter(refusal(9, { 'x-ratelimit-reset': String(now / 1000 + 11.2) }), now)).toBe(12);
    // A reset already past still means "once more, in a second", never 0 or less.
    expect(retryAfter(refusal(9, { 'x-ratelimit-reset': String(now / 1000 - 3) }), now)).toBe(1);
    // A cross-origin API that does not expose the header, or no answer at all.
    expect(retryAfter(refusal(9), now)).toBeNull();
    expect(retryAfter(new Error('Network Error'), now)).toBeNull();
    expect(retryAfter(undefined, now)).toBeNull();
  });

  it('words the rate limit and the connection cap for the visitor', () => {
    expect(read(refusal(9))).toEqual({ code: 9, text: 'sending too fast' });
    // A socket refused by the per-user cap: the SDK's WS error carries the code.
    const socket = Object.assign(new Error("WS failed with code 71 and reason - user 'ann' already has 25 open connections"), { code: 71 });
    expect(read(socket)).toEqual({ code: 71, text: 'too many chat windows are open; close one and try again' });
  });
});
