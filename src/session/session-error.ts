import type { ErrorReason } from '../element/events';

/** A failure the panel can show as it is: a stable reason code and readable text. */
export class SessionError extends Error {
  /** @param notice also shown to the reader as a passing notice (a refusal worth saying twice) */
  constructor(
    readonly reason: ErrorReason,
    message: string,
    readonly notice = false,
  ) {
    super(message);
    this.name = 'SessionError';
  }
}

const API_CODE_TEXT: Record<number, string> = {
  4: 'the request was not valid',
  16: 'it does not exist',
  17: 'you are not allowed to do that here',
  40: 'your sign-in expired',
  43: 'your sign-in was refused',
  9: 'sending too fast',
  71: 'too many chat windows are open; close one and try again',
};

/**
 * Reads an error from the SDK (an HTTP `ErrorFromResponse`, a websocket error whose
 * message is JSON, or a network failure) as `{code, text}` for a readable sentence.
 */
export function describeApiError(error: unknown): { code: number | null; text: string } {
  const raw = error as { code?: number | null; message?: string; response?: { data?: { message?: string } } };
  let code = typeof raw?.code === 'number' ? raw.code : null;
  let detail = raw?.response?.data?.message ?? raw?.message ?? String(error);
  if (code === null && detail.startsWith('{')) {
    try {
      const parsed = JSON.parse(detail) as { code?: number; message?: string };
      code = parsed.code ?? null;
      detail = parsed.message ?? detail;
    } catch {
      // not JSON after all: keep the message as it is
    }
  }
  if (/network error|timeout|ECONNREFUSED|Failed to fetch/i.test(detail)) {
    return { code, text: 'the chat server could not be reached' };
  }
  return { code, text: (code !== null && API_CODE_TEXT[code]) || detail };
}

/**
 * Whole seconds until a refused request may be tried again, from the answer's
 * `X-RateLimit-Reset` header (unix seconds); null without one, or when it cannot be read (a
 * cross-origin API that does not expose it).
 */
export function retryAfter(error: unknown, now = Date.now()): number | null {
  const reset = Number((error as { response?: { headers?: Record<string, unknown> } })?.response?.headers?.['x-ratelimit-reset']);
  return reset > 0 ? Math.max(1, Math.ceil(reset - now / 1000)) : null;
}

/** The backend's own words for a refusal ("poll is closed"), without the SDK's "StreamChat error code 4: ". */
export function errorDetail(error: unknown): string {
  const raw = error as { message?: string; response?: { data?: { message?: string } } } | undefined;
  const detail = raw?.response?.data?.message ?? (typeof error === 'string' ? error : raw?.message) ?? String(error);
  if (/network error|timeout|ECONNREFUSED|Failed to fetch/i.test(detail)) return 'the chat server could not be reached';
  return detail.replace(/^StreamChat error (code -?\d+|HTTP code): ?/, '');
}

/** The site closed the visitor's account: nothing to retry. */
export function closedAccount(how: 'deactivated' | 'deleted'): SessionError {
  return new SessionError(`account-${how}`, `Your chat account has been ${how}.`);
}

/** A refusal that says the account is closed (the backend's words for it). */
function accountError(error: unknown): SessionError | null {
  // A refused socket carries the backend's error as JSON in its message.
  let text = errorDetail(error);
  if (text.startsWith('{')) {
    try {
      text = String((JSON.parse(text) as { message?: unknown }).message ?? text);
    } catch {
      // not JSON after all
    }
  }
  // The backend's refusals of a closed account: "user 'ann' was deactivated …" / "… was deleted".
  if (/\buser '[^']*' was deactivated\b/.test(text)) return closedAccount('deactivated');
  if (/\buser '[^']*' was deleted\b/.test(text)) return closedAccount('deleted');
  return null;
}

export function toSessionError(reason: ErrorReason, prefix: string, error: unknown): SessionError {
  if (error instanceof SessionError) return error;
  const account = accountError(error);
  if (account) return account;
  return new SessionError(reason, `${prefix}: ${describeApiError(error).text}.`);
}
