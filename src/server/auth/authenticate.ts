// Authentication. After a token checks out, whether its user may still act: a deactivated or deleted user may
// neither connect nor call anything, and a token issued before a revocation date (the user's
// own, or the app's) is refused like an expired one, so a client with a token provider fetches
// a new token and carries on. Tokens without `iat` cannot show when they were issued: once a
// revocation date is set they are refused too. A missing user is created by their first valid
// token, unless the id was hard-deleted: then only a token issued after the removal may.
import { authenticate, type Credentials, type Subject } from './tokens';
import { appSettings } from '../infra/app-settings';
import type { ServerContext } from '../http/context';
import { ApiError, ErrorCode } from '../http/errors';
import type { Store } from '../store/store';

/** The one authentication of every request and socket: the token, then the user's standing. */
export async function authenticateIn(ctx: ServerContext, credentials: Credentials): Promise<Subject> {
  const settings = appSettings(ctx);
  const subject = await authenticate(credentials, { ...ctx.config, disableAuthChecks: settings.disableAuthChecks });
  assertUserInGoodStanding(ctx.store, subject, settings.revokeTokensIssuedBefore);
  return subject;
}

function assertUserInGoodStanding(store: Store, subject: Subject, appRevokedBefore: string | null): void {
  if (subject.kind !== 'user') return;
  const user = store.users.get(subject.userId);
  if (!user) {
    assertNotRemoved(store, subject);
    return;
  }
  if (user.deleted_at) throw ApiError.auth(ErrorCode.AuthFailed, `user '${user.id}' was deleted`);
  if (user.deactivated_at) {
    throw ApiError.notAllowed(`user '${user.id}' was deactivated and can neither connect nor call the API until reactivated`);
  }
  const revokedBefore = [user.revoke_tokens_issued_before, appRevokedBefore]
    .filter((date): date is string => typeof date === 'string' && date !== '')
    .map((date) => Date.parse(date) / 1000)
    .reduce((latest, at) => Math.max(latest, at), -Infinity);
  if (revokedBefore === -Infinity) return;
  if (subject.issuedAt === undefined || subject.issuedAt < Math.floor(revokedBefore)) {
    throw ApiError.auth(ErrorCode.TokenExpired, 'JWTAuth error: token has been revoked (issued before revoke_tokens_issued_before)');
  }
}

/**
 * A user token for a hard-deleted id (deleted_users) would recreate the user (actorFor, the socket
 * handshake): only a token that shows it was issued after the removal may, as the site owner
 * then means a new user by that id. The tombstone stays when the id is reused: it is only read
 * while no user row exists, and a later hard delete moves its date forward.
 */
function assertNotRemoved(store: Store, subject: Extract<Subject, { kind: 'user' }>): void {
  const removedAt = store.users.removedAt(subject.userId);
  if (removedAt === undefined) return;
  // iat has whole seconds: a token from the removal's own second may predate it, so it is refused.
  if (subject.issuedAt === undefined || subject.issuedAt <= Date.parse(removedAt) / 1000) {
    throw ApiError.auth(ErrorCode.AuthFailed, `user '${subject.userId}' was deleted`);
  }
}
