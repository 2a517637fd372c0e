// Token verification, shared by the REST middleware and the WebSocket handshake.
// Tokens are the provider's: HS256 JWTs signed with the app secret, `{user_id, exp?, iat?}` for
// users and `{server: true}` for server-side clients. Development tokens
// (`<header>.<padded base64 payload>.devtoken`, stream-chat src/signing.ts DevToken) carry no
// signature at all, so they are accepted only when the app setting `disable_auth_checks` is on.
import { SignJWT, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { ApiError, ErrorCode } from '../http/errors';

export type AuthSettings = {
  apiKey: string;
  apiSecret: string;
  disableAuthChecks: boolean;
};

/** Who a request or socket authenticated as, before any user lookup. */
export type Subject =
  | { kind: 'server' }
  | { kind: 'user'; userId: string; /** The token's `iat` (unix seconds), when it has one. */ issuedAt?: number }
  | { kind: 'anonymous'; userId?: string };

export type Credentials = {
  apiKey: string | undefined;
  /** `stream-auth-type`: `jwt` (default) or `anonymous`. */
  authType: string | undefined;
  token: string | undefined;
  /** The `user_id` query parameter (or the socket's `json.user_id`). */
  userId: string | undefined;
};

const encoder = new TextEncoder();

function secretKey(secret: string) {
  return encoder.encode(secret);
}

export async function authenticate(credentials: Credentials, settings: AuthSettings): Promise<Subject> {
  if (credentials.apiKey !== settings.apiKey) {
    throw ApiError.auth(ErrorCode.AuthFailed, 'api_key not valid');
  }
  if (credentials.authType === 'anonymous') {
    return credentials.userId ? { kind: 'anonymous', userId: credentials.userId } : { kind: 'anonymous' };
  }
  if (!credentials.token) {
    throw ApiError.auth(
      ErrorCode.AuthFailed,
      'JWTAuth error: missing authorization (send a token, or stream-auth-type: anonymous)',
    );
  }
  const subject = await verifyToken(credentials.token, settings);
  if (subject.kind === 'user' && credentials.userId && credentials.userId !== subject.userId) {
    throw ApiError.auth(
      ErrorCode.TokenSignatureInvalid,
      `JWTAuth error: token user_id "${subject.userId}" does not match user_id "${credentials.userId}"`,
    );
  }
  return subject;
}

async function verifyToken(token: string, settings: AuthSettings): Promise<Subject> {
  const parts = token.split('.');
  if (parts.length !== 3) {
    throw ApiError.auth(ErrorCode.TokenSignatureInvalid, 'JWTAuth error: token is not a valid JWT');
  }
  const payload = parts[2] === 'devtoken' ? devTokenPayload(parts[1] ?? '', settings) : await signedPayload(token, settings);
  if (payload.server === true) return { kind: 'server' };
  if (typeof payload.user_id !== 'string' || !payload.user_id) {
    throw ApiError.auth(ErrorCode.TokenSignatureInvalid, 'JWTAuth error: token has no user_id claim');
  }
  return typeof payload.iat === 'number'
    ? { kind: 'user', userId: payload.user_id, issuedAt: payload.iat }
    : { kind: 'user', userId: payload.user_id };
}

function devTokenPayload(encoded: string, settings: AuthSettings): JWTPayload {
  if (!settings.disableAuthChecks) {
    throw ApiError.auth(
      ErrorCode.TokenSignatureInvalid,
      'JWTAuth error: development tokens are not allowed; enable disable_auth_checks (DISABLE_AUTH_CHECKS=1)',
    );
  }
  try {
    // Buffer's base64 decoder takes both the padded standard alphabet (which the SDK's
    // DevToken uses) and base64url.
    const payload: unknown = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
    if (typeof payload === 'object' && payload !== null) return payload as JWTPayload;
  } catch {
    // fall through to the error below
  }
  throw ApiError.auth(ErrorCode.TokenSignatureInvalid, 'JWTAuth error: development token payload is not JSON');
}

/**
 * Signatures verified lately, by token: a client sends the same token with its socket and every
 * request, and checking an HMAC through WebCrypto cost about half a millisecond each time. The
 * time claims (exp, nbf, iat) are checked again on every use; a changed secret misses. Bounded:
 * past VERIFIED_MAX tokens the oldest is forgotten.
 */
const verified = new Map<string, { secret: string; payload: JWTPayload }>();
const VERIFIED_MAX = 10_000;

async function signedPayload(token: string, settings: AuthSettings): Promise<JWTPayload> {
  const known = verified.get(token);
  let payload: JWTPayload;
  if (known && known.secret === settings.apiSecret) {
    payload = known.payload;
    const now = Math.floor(Date.now() / 1000);
    if (typeof payload.exp === 'number' && payload.exp <= now) {
      verified.delete(token);
      throw ApiError.auth(ErrorCode.TokenExpired, 'JWTAuth error: token has expired');
    }
    if (typeof payload.nbf === 'number' && payload.nbf > now) {
      throw ApiError.auth(ErrorCode.TokenNotValidYet, 'JWTAuth error: token is not valid yet (nbf)');
    }
  } else {
    try {
      ({ payload } = await jwtVerify(token, secretKey(settings.apiSecret), { algorithms: ['HS256'] }));
    } catch (error) {
      throw tokenError(error);
    }
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
    verified.set(token, { secret: settings.apiSecret, payload });
  }
  // jose only checks `iat` when asked for a maximum age; the provider refuses tokens from the future.
  if (typeof payload.iat === 'number' && payload.iat > Math.ceil(Date.now() / 1000)) {
    throw ApiError.auth(ErrorCode.TokenUsedBeforeIssuedAt, 'JWTAuth error: token used before issue at (iat)');
  }
  return payload;
}

function tokenError(error: unknown): ApiError {
  if (error instanceof joseErrors.JWTExpired) {
    return ApiError.auth(ErrorCode.TokenExpired, 'JWTAuth error: token has expired');
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed && error.claim === 'nbf') {
    return ApiError.auth(ErrorCode.TokenNotValidYet, 'JWTAuth error: token is not valid yet (nbf)');
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return ApiError.auth(
      ErrorCode.TokenSignatureInvalid,
      'JWTAuth error: signature is not valid. Make sure the token is created using the secret for this API key',
    );
  }
  return ApiError.auth(ErrorCode.TokenSignatureInvalid, 'JWTAuth error: token is not valid');
}

/**
 * A user token as `createToken` makes it: HS256, `{user_id, exp?, iat?}`. Tokens made here carry
 * `iat` so that revoking tokens issued before a date (`revoke_tokens_issued_before`) spares
 * those issued after it.
 */
export async function createUserToken(
  userId: string,
  secret: string,
  { expiresInSeconds }: { expiresInSeconds?: number } = {},
): Promise<string> {
  const jwt = new SignJWT({ user_id: userId }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt();
  if (expiresInSeconds !== undefined) {
    jwt.setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds);
  }
  return jwt.sign(secretKey(secret));
}
