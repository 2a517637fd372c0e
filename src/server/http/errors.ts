// The provider's error JSON, produced in exactly one place. Every failure inside the backend
// is an ApiError (or becomes one in toApiError), and errorBody() is the only function that
// shapes it into what the SDK parses: `{code, message, StatusCode, duration, more_info, details}`.
// The SDK reads `code` (40 triggers a token refresh and a retry) and builds its message as
// "StreamChat error code <code>: <message>".

/** Stream error codes used by this backend (stream-chat src/errors.ts has the full table). */
export const ErrorCode = {
  Internal: -1,
  AuthFailed: 2,
  InputError: 4,
  RateLimited: 9,
  PayloadTooBig: 22,
  TooManyConnections: 71,
  CoolDown: 60,
  NotFound: 16,
  NotAllowed: 17,
  TokenExpired: 40,
  TokenNotValidYet: 41,
  TokenUsedBeforeIssuedAt: 42,
  TokenSignatureInvalid: 43,
  /** ConnectionIDNotFoundError: the SDK's long-poll fallback then opens a new connection. */
  ConnectionIdNotFound: 46,
} as const;

const MORE_INFO = 'https://getstream.io/chat/docs/api_errors_response';

export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly code: number,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }

  static input(message: string) {
    return new ApiError(ErrorCode.InputError, message, 400);
  }

  static notFound(message: string) {
    return new ApiError(ErrorCode.NotFound, message, 404);
  }

  static notAllowed(message: string) {
    return new ApiError(ErrorCode.NotAllowed, message, 403);
  }

  static auth(code: number, message: string) {
    return new ApiError(code, message, 401);
  }

  /** 413 with the provider's PayloadTooBigError code. */
  static tooBig(message: string) {
    return new ApiError(ErrorCode.PayloadTooBig, message, 413);
  }

  /** 429 with the provider's RateLimitError code (the SDK marks it retryable). */
  static rateLimited(message: string) {
    return new ApiError(ErrorCode.RateLimited, message, 429);
  }
}

export type ErrorBody = {
  code: number;
  message: string;
  StatusCode: number;
  duration: string;
  more_info: string;
  details: unknown[];
};

export function errorBody(error: ApiError, duration: string): ErrorBody {
  return {
    code: error.code,
    message: error.message,
    StatusCode: error.status,
    duration,
    more_info: MORE_INFO,
    details: [],
  };
}

/** Anything thrown becomes an ApiError; unexpected errors never leak their stack. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(ErrorCode.Internal, 'internal server error', 500);
}
