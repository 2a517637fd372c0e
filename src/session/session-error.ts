import type { ErrorReason } from '../contract/events';
import { english } from '../i18n/english';
import type { MessageKey } from '../i18n/en';
import { text, type Text } from '../i18n/translate';

/**
 * A failure the panel can show as it is: a stable reason code and its text, which the panel
 * says in the visitor's language (the message, for the page's chat-widget-error event, is English).
 */
export class SessionError extends Error {
  /** @param notice also shown to the reader as a passing notice (a refusal worth saying twice) */
  constructor(
    readonly reason: ErrorReason,
    readonly text: Text,
    readonly notice = false,
  ) {
    super(english(text));
    this.name = 'SessionError';
  }
}

/**
 * No answer came (offline, a dropped response, a time-out) or a server fault: the send may work
 * later. An error the SDK itself threw (no request made) is not one: it would block the queue.
 */
export const isTransient = (error: unknown) => {
  const raw = error as { status?: number; isAxiosError?: boolean; response?: { status?: number } };
  const status = raw.status ?? raw.response?.status;
  return status ? status >= 500 : !!raw.isAxiosError;
};

const API_CODE_TEXT: Record<number, MessageKey> = {
  4: 'why.invalid',
  16: 'why.notFound',
  17: 'why.notAllowed',
  40: 'why.expired',
  43: 'why.refused',
  9: 'why.rateLimited',
  71: 'why.tooManyConnections',
};

const UNREACHABLE = /network error|timeout|ECONNREFUSED|Failed to fetch/i;

/**
 * Reads an error from the SDK (an HTTP `ErrorFromResponse`, a websocket error whose
 * message is JSON, or a network failure) as `{code, text}` for a readable sentence: the text
 * is the reason in the visitor's words where the code has them, else the backend's own.
 */
export function describeApiError(error: unknown): { code: number | null; text: Text } {
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
  if (UNREACHABLE.test(detail)) return { code, text: text('why.unreachable') };
  const known = code !== null ? API_CODE_TEXT[code] : undefined;
  return { code, text: known ? text(known) : text('why.other', { detail }) };
}

/** Why a call failed, in the visitor's words: for `{why}` in a sentence. */
export const why = (error: unknown): Text => describeApiError(error).text;

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
export function errorDetail(error: unknown): Text {
  const raw = error as { message?: string; response?: { data?: { message?: string } } } | undefined;
  const detail = raw?.response?.data?.message ?? (typeof error === 'string' ? error : raw?.message) ?? String(error);
  if (UNREACHABLE.test(detail)) return text('why.unreachable');
  return text('why.other', { detail: detail.replace(/^StreamChat error (code -?\d+|HTTP code): ?/, '') });
}

/** The site closed the visitor's account: nothing to retry. */
export function closedAccount(how: 'deactivated' | 'deleted'): SessionError {
  return new SessionError(`account-${how}`, text(how === 'deleted' ? 'error.accountDeleted' : 'error.accountDeactivated'));
}

/** A refusal that says the account is closed (the backend's words for it). */
function accountError(error: unknown): SessionError | null {
  // A refused socket carries the backend's error as JSON in its message.
  let said = english(errorDetail(error));
  if (said.startsWith('{')) {
    try {
      said = String((JSON.parse(said) as { message?: unknown }).message ?? said);
    } catch {
      // not JSON after all
    }
  }
  // The backend's refusals of a closed account: "user 'ann' was deactivated …" / "… was deleted".
  if (/\buser '[^']*' was deactivated\b/.test(said)) return closedAccount('deactivated');
  if (/\buser '[^']*' was deleted\b/.test(said)) return closedAccount('deleted');
  return null;
}

/** A failure as the panel says it: `key`'s sentence with the reason as its `{why}`. */
export function toSessionError(reason: ErrorReason, key: MessageKey, error: unknown, params?: Text['params']): SessionError {
  if (error instanceof SessionError) return error;
  const account = accountError(error);
  if (account) return account;
  return new SessionError(reason, text(key, { ...params, why: why(error) }));
}
