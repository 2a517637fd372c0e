// The part of axios that stream-chat uses in a browser, on XMLHttpRequest, in place of axios
// in the widget's build (build/axios-browser.mjs): about a tenth of its bytes. stream-chat makes
// one instance (`axios.create(options)`), sets its `defaults.paramsSerializer`, and calls
// get/delete/options/post/put/patch/postForm with full URLs, JSON or FormData bodies, headers,
// query params, a timeout, upload progress, and cancellation by AbortSignal or CancelToken
// (long-poll). It reads `response.data`, `.status`, `.headers`; `error.response` on an HTTP
// refusal; and `isCancel` / `isAxiosError`. The widget's session adds one request interceptor
// (src/session/token-freshness.ts). Those behave as axios's do; nothing else is here.
// Server-side code and tests use the real axios (this file is only aliased into the bundle).

export type Config = {
  url?: string;
  method?: string;
  baseURL?: string;
  data?: unknown;
  params?: Record<string, unknown>;
  paramsSerializer?: ((params: Record<string, unknown>) => string) | { serialize?: (params: Record<string, unknown>) => string };
  headers?: Record<string, unknown>;
  timeout?: number;
  withCredentials?: boolean;
  signal?: AbortSignal;
  cancelToken?: AbortSignal;
  onUploadProgress?: (event: { loaded: number; total?: number; lengthComputable: boolean; progress?: number }) => void;
  validateStatus?: (status: number) => boolean;
};

export type Response<T = unknown> = { data: T; status: number; statusText: string; headers: Record<string, string>; config: Config; request: XMLHttpRequest };

/** axios's error: `code` names the failure, `response` is there when the server answered. */
export class AxiosError extends Error {
  readonly isAxiosError = true;
  constructor(
    message: string,
    readonly code: string,
    readonly config: Config,
    readonly request?: XMLHttpRequest,
    readonly response?: Response,
  ) {
    super(message);
    this.name = 'AxiosError';
  }
}

/** A request cancelled on purpose (AbortSignal, CancelToken): `isCancel` says so. */
class CanceledError extends AxiosError {
  readonly __CANCEL__ = true;
  constructor(config: Config, request?: XMLHttpRequest, message = 'canceled') {
    super(message, 'ERR_CANCELED', config, request);
    this.name = 'CanceledError';
  }
}

export const isCancel = (value: unknown): boolean => !!(value as { __CANCEL__?: boolean } | null)?.__CANCEL__;
export const isAxiosError = (value: unknown): value is AxiosError => !!(value as { isAxiosError?: boolean } | null)?.isAxiosError;

/** `CancelToken.source()`: here the token is an AbortSignal, which `request` treats as `signal`. */
export const CancelToken = {
  source() {
    const controller = new AbortController();
    return { token: controller.signal, cancel: (reason?: string) => controller.abort(reason) };
  },
};

function withQuery(url: string, config: Config): string {
  const { params, paramsSerializer } = config;
  if (!params) return url;
  const serialize = typeof paramsSerializer === 'function' ? paramsSerializer : paramsSerializer?.serialize;
  const query = serialize
    ? serialize(params)
    : new URLSearchParams(Object.entries(params).flatMap(([key, value]) => (value == null ? [] : [[key, String(value)]]))).toString();
  return query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url;
}

function parseHeaders(raw: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return headers;
}

function request<T>(config: Config): Promise<Response<T>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const absolute = /^([a-z][a-z\d+.-]*:)?\/\//i.test(config.url!);
    const url = absolute || !config.baseURL ? config.url! : `${config.baseURL.replace(/\/+$/, '')}/${config.url!.replace(/^\/+/, '')}`;
    xhr.open((config.method ?? 'get').toUpperCase(), withQuery(url, config));
    xhr.timeout = config.timeout ?? 0;
    xhr.withCredentials = !!config.withCredentials;

    let body = config.data as XMLHttpRequestBodyInit | undefined;
    const headers: Record<string, unknown> = { Accept: 'application/json, text/plain, */*', ...config.headers };
    // FormData keeps the browser's own multipart Content-Type (with its boundary).
    if (body instanceof FormData) {
      for (const name of Object.keys(headers)) if (/^content-type$/i.test(name)) delete headers[name];
    } else if (body !== undefined && typeof body !== 'string' && !(body instanceof Blob)) {
      body = JSON.stringify(body);
      headers['Content-Type'] ??= 'application/json';
    }
    for (const [name, value] of Object.entries(headers)) {
      if (value != null && value !== false) xhr.setRequestHeader(name, String(value));
    }

    // A CancelToken's reason becomes the error's message, as with axios; a signal's is "canceled".
    const token = config.cancelToken;
    const canceled = () => new CanceledError(config, xhr, token?.aborted && typeof token.reason === 'string' ? token.reason : undefined);
    const signals = [config.signal, token].filter((signal): signal is AbortSignal => !!signal);
    const cancel = () => {
      xhr.abort();
      reject(canceled());
    };
    const settle = () => signals.forEach((signal) => signal.removeEventListener('abort', cancel));
    if (signals.some((signal) => signal.aborted)) return reject(canceled());
    signals.forEach((signal) => signal.addEventListener('abort', cancel));

    const progress = config.onUploadProgress;
    if (progress && xhr.upload) {
      xhr.upload.onprogress = ({ loaded, total, lengthComputable }) =>
        progress({ loaded, total: lengthComputable ? total : undefined, lengthComputable, progress: lengthComputable ? loaded / total : undefined });
    }

    xhr.onload = () => {
      settle();
      let data: unknown = xhr.responseText;
      try {
        data = data ? JSON.parse(data as string) : data;
      } catch {
        // not JSON: axios hands over the text as it is
      }
      const response: Response<T> = {
        data: data as T,
        status: xhr.status,
        statusText: xhr.statusText,
        headers: parseHeaders(xhr.getAllResponseHeaders()),
        config,
        request: xhr,
      };
      if ((config.validateStatus ?? ((status) => status >= 200 && status < 300))(xhr.status)) resolve(response);
      else {
        const code = xhr.status >= 500 ? 'ERR_BAD_RESPONSE' : 'ERR_BAD_REQUEST';
        reject(new AxiosError(`Request failed with status code ${xhr.status}`, code, config, xhr, response as Response));
      }
    };
    xhr.onerror = () => {
      settle();
      reject(new AxiosError('Network Error', 'ERR_NETWORK', config, xhr));
    };
    xhr.ontimeout = () => {
      settle();
      reject(new AxiosError(`timeout of ${config.timeout}ms exceeded`, 'ECONNABORTED', config, xhr));
    };
    xhr.send(body ?? null);
  });
}

export type Instance = ReturnType<typeof create>;

type RequestInterceptor = (config: Config) => Config | Promise<Config>;

/**
 * An instance with `defaults` (merged under each call's config), axios's method helpers, and
 * request interceptors (`interceptors.request.use`), run before the request goes out, the last
 * added first, as axios runs them; one that throws fails the call as it would with axios.
 */
export function create(defaults: Config = {}) {
  const interceptors: RequestInterceptor[] = [];
  const call = async <T>(method: string, url: string, config: Config = {}, data?: unknown) => {
    let merged: Config = { ...instance.defaults, ...config, headers: { ...instance.defaults.headers, ...config.headers }, method, url, data };
    for (let i = interceptors.length - 1; i >= 0; i--) merged = await interceptors[i]!(merged);
    return request<T>(merged);
  };
  const instance = {
    defaults: { ...defaults },
    interceptors: {
      request: { use: (intercept: RequestInterceptor) => interceptors.push(intercept) - 1 },
    },
    request: <T>(config: Config) => call<T>(config.method ?? 'get', config.url!, config, config.data),
    get: <T>(url: string, config?: Config) => call<T>('get', url, config),
    delete: <T>(url: string, config?: Config) => call<T>('delete', url, config),
    options: <T>(url: string, config?: Config) => call<T>('options', url, config),
    post: <T>(url: string, data?: unknown, config?: Config) => call<T>('post', url, config, data),
    put: <T>(url: string, data?: unknown, config?: Config) => call<T>('put', url, config, data),
    patch: <T>(url: string, data?: unknown, config?: Config) => call<T>('patch', url, config, data),
    // stream-chat hands postForm a ready FormData.
    postForm: <T>(url: string, data?: unknown, config?: Config) => call<T>('post', url, config, data),
  };
  return instance;
}

const axios = Object.assign(create(), { create, isCancel, isAxiosError, CancelToken, AxiosError });
export default axios;
