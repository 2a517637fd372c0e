import { describe, expect, it } from 'vitest';
import { hasExpired } from '../../src/session/token-freshness';

const token = (claims: Record<string, number>) => `e30.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.sig`;

describe('whether a token is known to have expired', () => {
  it("counts a token's lifetime from when it arrived, so a browser clock an hour fast renews neither at once nor never", () => {
    const iat = 1_800_000_000;
    const fresh = token({ iat, exp: iat + 60 });
    const fastClock = (iat + 3600) * 1000; // the browser thinks an hour has passed since iat
    expect(hasExpired(fresh, fastClock)).toBe(false);
    expect(hasExpired(fresh, fastClock + 54_000)).toBe(false);
    // 5 s before the end of its 60 s, in this browser's time.
    expect(hasExpired(fresh, fastClock + 55_000)).toBe(true);
  });

  it('gives a short token a tenth of its lifetime as margin, and one without exp never expires here', () => {
    const iat = 1_800_000_100;
    const short = token({ iat, exp: iat + 3 });
    expect(hasExpired(short, 5_000)).toBe(false);
    expect(hasExpired(short, 5_000 + 2_600)).toBe(false);
    expect(hasExpired(short, 5_000 + 2_700)).toBe(true);
    expect(hasExpired(token({ user_id: 1 } as never), Date.now())).toBe(false);
    expect(hasExpired('not a jwt', Date.now())).toBe(false);
  });

  it('without iat, judges by exp as it stands', () => {
    const exp = 1_800_000_200;
    const noIat = token({ exp });
    expect(hasExpired(noIat, (exp - 6) * 1000)).toBe(false);
    expect(hasExpired(noIat, (exp - 5) * 1000)).toBe(true);
  });
});
