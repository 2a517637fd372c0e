// The translation service: a LibreTranslate-compatible HTTP API, `POST {url}/translate` with
// `{q, source, target, format: "text", api_key?}` answering `{translatedText, detectedLanguage?:
// {language, confidence}}` (or `{error}` with a 4xx/5xx). One deadline covers the whole exchange,
// body included, and the answer is read up to a bound, so a slow or flooding service ends in a
// clear error well inside the SDK's 3 s request timeout, never a hang.
import { ApiError, ErrorCode } from '../../http/errors';
import { readCapped } from '../../http/service-answer';

export type TranslatorSettings = {
  /** The service's base URL (`{url}/translate` is called). */
  url: string;
  /** Sent as `api_key` when the service needs one. */
  apiKey?: string;
  /** For the whole exchange. Default 2500 ms: inside the SDK's 3 s. */
  timeoutMs: number;
  /** Bytes of the service's answer read at most. */
  maxBytes: number;
  /** Characters sent for translation at most. */
  maxChars: number;
};

export const DEFAULT_TRANSLATOR: Omit<TranslatorSettings, 'url'> = {
  timeoutMs: 2500,
  maxBytes: 1024 * 1024,
  maxChars: 20_000,
};

export type Translation = { text: string; detectedLanguage?: string };

/** `source` 'auto' lets the service detect the language (and say which it found). */
export async function translate(
  settings: TranslatorSettings,
  request: { text: string; source: string; target: string },
): Promise<Translation> {
  if (request.text.length > settings.maxChars) {
    throw ApiError.input(`text is longer than ${settings.maxChars} characters, the most this backend translates at once`);
  }
  const endpoint = `${settings.url.replace(/\/+$/, '')}/translate`;
  const body = JSON.stringify({
    q: request.text,
    source: request.source,
    target: request.target,
    format: 'text',
    ...(settings.apiKey ? { api_key: settings.apiKey } : {}),
  });
  const signal = AbortSignal.timeout(settings.timeoutMs);
  try {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body,
      signal,
      redirect: 'error',
    });
    const answer = parseAnswer(await readCapped(response, settings.maxBytes, () => failed(`answered with more than ${settings.maxBytes} bytes`)));
    if (response.status >= 400 && response.status < 500 && response.status !== 429 && response.status !== 403) {
      // The service refused what was asked (a language it does not know, an empty text).
      throw ApiError.input(`the translation service refused the request: ${errorText(answer) || `HTTP ${response.status}`}`);
    }
    if (!response.ok) throw failed(`answered HTTP ${response.status}${errorText(answer) ? `: ${errorText(answer)}` : ''}`);
    if (typeof answer?.translatedText !== 'string') throw failed('answered without a translatedText');
    const detected = answer.detectedLanguage;
    const language = typeof detected === 'object' && detected !== null ? (detected as { language?: unknown }).language : undefined;
    return { text: answer.translatedText, ...(typeof language === 'string' && language ? { detectedLanguage: language } : {}) };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (signal.aborted) {
      throw new ApiError(ErrorCode.Internal, `the translation service did not answer within ${settings.timeoutMs} ms`, 504);
    }
    throw failed(`could not be reached (${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message})`);
  }
}

/** A failure of the service, not of the request: 502 with the provider's error JSON. */
function failed(what: string): ApiError {
  return new ApiError(ErrorCode.Internal, `the translation service ${what}`, 502);
}

type Answer = { translatedText?: unknown; detectedLanguage?: unknown; error?: unknown } | undefined;

function parseAnswer(text: string): Answer {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Answer) : undefined;
  } catch {
    return undefined;
  }
}

function errorText(answer: Answer): string {
  return typeof answer?.error === 'string' ? answer.error.slice(0, 300) : '';
}
