// Verified tokens are remembered (a client sends one token with every request), but what time
// changes is checked on every use: an expired token is refused however recently it verified.
import { StreamChat } from 'stream-chat';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authenticate } from '../../../src/server/auth/tokens';
import { ErrorCode } from '../../../src/server/http/errors';

const settings = { apiKey: 'cache-key', apiSecret: 'cache-secret-0123456789abcdef', disableAuthChecks: false };
const signer = new StreamChat(settings.apiKey, settings.apiSecret);
const asUser = (token: string) => authenticate({ apiKey: settings.apiKey, authType: 'jwt', token, userId: 'ann' }, settings);

afterEach(() => {
  vi.useRealTimers();
});

describe('remembered token verification', () => {
  it('refuses a remembered token once it has expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const now = Date.now();
    const token = signer.createToken('ann', Math.floor(now / 1000) + 60);
    await expect(asUser(token)).resolves.toMatchObject({ kind: 'user', userId: 'ann' });
    await expect(asUser(token)).resolves.toMatchObject({ kind: 'user', userId: 'ann' });
    vi.setSystemTime(now + 61_000);
    await expect(asUser(token)).rejects.toMatchObject({ code: ErrorCode.TokenExpired });
  });

  it('does not take a token verified under one secret for another', async () => {
    const token = signer.createToken('ann');
    await expect(asUser(token)).resolves.toMatchObject({ userId: 'ann' });
    const rotated = { ...settings, apiSecret: 'another-secret-0123456789abcdef' };
    await expect(authenticate({ apiKey: settings.apiKey, authType: 'jwt', token, userId: 'ann' }, rotated)).rejects.toMatchObject({
      code: ErrorCode.TokenSignatureInvalid,
    });
  });
});
