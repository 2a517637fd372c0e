// Sending one rendered push to one device through the provider's HTTP API:
// - Firebase: FCM v1, `POST /v1/projects/{project}/messages:send` with an OAuth2 access token
//   obtained from the service account (a signed RS256 JWT exchanged at its `token_uri`);
// - APNs: `POST /3/device/{token}` over HTTP/2 with an ES256 provider token (or the certificate);
// - Huawei: Push Kit's `POST /v1/{app_id}/messages:send` with a client-credentials token;
// - Xiaomi: `POST /v3/message/regid` with `Authorization: key=…`.
// A provider's `base_url` replaces the public host (both hosts for Huawei). The answer says
// whether to retry and whether the device token is dead, as each API reports it.
import { connect } from 'node:http2';
import { importPKCS8, SignJWT } from 'jose';
import { credentialKey, serviceAccount, type ProviderConfig } from './provider-config';

export type SendResult = { ok: true } | { ok: false; retry: boolean; deviceGone?: boolean; error: string };

const PUBLIC_HOSTS = {
  firebase: 'https://fcm.googleapis.com',
  firebaseToken: 'https://oauth2.googleapis.com/token',
  apn: 'https://api.push.apple.com',
  apnSandbox: 'https://api.sandbox.push.apple.com',
  huawei: 'https://push-api.cloud.huawei.com',
  huaweiToken: 'https://oauth-login.cloud.huawei.com',
  xiaomi: 'https://api.xmpush.global.xiaomi.com',
};

/** Bytes of a provider's answer read at most: enough for any error it sends. */
const MAX_ANSWER = 64 * 1024;

/** Access tokens per set of credentials. A handful of providers at most; bounded anyway. */
const accessTokens = new Map<string, { value: string; expiresAt: number }>();
const fetchingTokens = new Map<string, Promise<string>>();
const MAX_TOKENS = 64;

class SendError extends Error {
  constructor(message: string, readonly retry: boolean) {
    super(message);
  }
}

/**
 * The cached access token under `key`, else one fetched by `fetchToken` (value and lifetime);
 * sends in the same batch share one fetch.
 */
function accessToken(key: string, fetchToken: () => Promise<{ value: string; ttlMs: number }>): Promise<string> {
  const hit = accessTokens.get(key);
  if (hit && hit.expiresAt > Date.now()) return Promise.resolve(hit.value);
  accessTokens.delete(key);
  let pending = fetchingTokens.get(key);
  if (!pending) {
    pending = fetchToken()
      .then(({ value, ttlMs }) => {
        if (accessTokens.size >= MAX_TOKENS) accessTokens.delete(accessTokens.keys().next().value as string);
        accessTokens.set(key, { value, expiresAt: Date.now() + Math.max(ttlMs, 1000) });
        return value;
      })
      .finally(() => fetchingTokens.delete(key));
    fetchingTokens.set(key, pending);
  }
  return pending;
}

const joined = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;

async function readAnswer(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (text.length < MAX_ANSWER) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text;
}

function parsed(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

async function post(url: string, init: { headers: Record<string, string>; body: string }, timeoutMs: number) {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new SendError(`${new URL(url).host} unreachable: ${error instanceof Error ? error.message : String(error)}`, true);
  }
  return { status: response.status, text: await readAnswer(response) };
}

/** Retry what may pass later (rate limits, server errors); not what the request itself got wrong. */
const transient = (status: number) => status === 429 || status >= 500;

async function firebaseAccessToken(config: ProviderConfig, timeoutMs: number): Promise<{ token: string; project: string; key: string }> {
  const account = serviceAccount(config.firebase_credentials ?? '');
  const key = `firebase:${credentialKey(config)}`;
  const token = await accessToken(key, async () => {
    const tokenUri = account.token_uri ?? PUBLIC_HOSTS.firebaseToken;
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ scope: 'https://www.googleapis.com/auth/firebase.messaging' })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(account.client_email)
      .setAudience(tokenUri)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(await importPKCS8(account.private_key, 'RS256'));
    const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion });
    return tokenAnswer('Firebase', await post(tokenUri, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() }, timeoutMs));
  });
  return { token, project: account.project_id, key };
}

/** An OAuth2 token endpoint's answer: the token and how long to keep it (a minute less than it lasts). */
function tokenAnswer(provider: string, answer: { status: number; text: string }): { value: string; ttlMs: number } {
  const json = parsed(answer.text);
  if (answer.status !== 200 || typeof json.access_token !== 'string') {
    throw new SendError(`${provider} access token refused: HTTP ${answer.status} ${String(json.error_description ?? json.error ?? '')}`.trim(), transient(answer.status));
  }
  return { value: json.access_token, ttlMs: (typeof json.expires_in === 'number' ? json.expires_in : 3600) * 1000 - 60_000 };
}

async function sendFirebase(config: ProviderConfig, device: string, payload: Record<string, unknown>, timeoutMs: number): Promise<SendResult> {
  const { token, project, key } = await firebaseAccessToken(config, timeoutMs);
  const url = joined(config.base_url ?? PUBLIC_HOSTS.firebase, `/v1/projects/${encodeURIComponent(project)}/messages:send`);
  const answer = await post(
    url,
    { headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ message: { ...payload, token: device } }) },
    timeoutMs,
  );
  if (answer.status === 200) return { ok: true };
  const error = parsed(answer.text).error as { status?: string; message?: string; details?: { errorCode?: string }[] } | undefined;
  const code = error?.details?.find((detail) => detail.errorCode)?.errorCode ?? error?.status ?? '';
  const message = `FCM answered HTTP ${answer.status}${code ? ` ${code}` : ''}${error?.message ? `: ${error.message}` : ''}`;
  if (answer.status === 401) accessTokens.delete(key);
  if (answer.status === 404 || code === 'UNREGISTERED' || (answer.status === 400 && /token/i.test(error?.message ?? ''))) {
    return { ok: false, retry: false, deviceGone: true, error: message };
  }
  return { ok: false, retry: answer.status === 401 || transient(answer.status), error: message };
}

function apnProviderToken(config: ProviderConfig): Promise<string> {
  // Apple refuses tokens older than an hour and throttles ones renewed more often than every 20 minutes.
  return accessToken(`apn:${credentialKey(config)}`, async () => ({
    value: await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: config.apn_key_id ?? '' })
      .setIssuer(config.apn_team_id ?? '')
      .setIssuedAt()
      .sign(await importPKCS8(config.apn_auth_key ?? '', 'ES256')),
    ttlMs: 50 * 60 * 1000,
  }));
}

/** One HTTP/2 POST (APNs speaks nothing else), its answer bounded like the others. */
function http2Post(
  origin: string,
  path: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  pfx?: Buffer,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const session = connect(origin, pfx ? { pfx } : {});
    let status = 0;
    let text = '';
    const fail = (error: Error) => {
      session.destroy();
      reject(new SendError(`${new URL(origin).host} unreachable: ${error.message}`, true));
    };
    session.on('error', fail);
    session.setTimeout(timeoutMs, () => fail(new Error(`no answer within ${timeoutMs} ms`)));
    const request = session.request({ ':method': 'POST', ':path': path, ...headers });
    request.setEncoding('utf8');
    request.on('response', (answer) => {
      status = Number(answer[':status']);
    });
    request.on('data', (chunk: string) => {
      if (text.length < MAX_ANSWER) text += chunk;
    });
    request.on('end', () => {
      session.close();
      resolve({ status, text });
    });
    request.on('error', fail);
    request.end(body);
  });
}

async function sendApn(config: ProviderConfig, device: string, payload: Record<string, unknown>, timeoutMs: number): Promise<SendResult> {
  const certificate = config.apn_auth_type === 'certificate';
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'apns-topic': config.apn_topic ?? '',
    'apns-push-type': 'alert',
    'apns-priority': '10',
    ...(certificate ? {} : { authorization: `bearer ${await apnProviderToken(config)}` }),
  };
  const origin = config.base_url ?? (config.apn_development ? PUBLIC_HOSTS.apnSandbox : PUBLIC_HOSTS.apn);
  const base = new URL(origin);
  const answer = await http2Post(
    base.origin,
    joined(base.pathname, `/3/device/${encodeURIComponent(device)}`),
    headers,
    JSON.stringify(payload),
    timeoutMs,
    certificate ? Buffer.from(config.apn_p12_cert ?? '', 'base64') : undefined,
  );
  if (answer.status === 200) return { ok: true };
  const reason = String(parsed(answer.text).reason ?? '');
  const message = `APNs answered HTTP ${answer.status}${reason ? ` ${reason}` : ''}`;
  if (answer.status === 410 || ['BadDeviceToken', 'DeviceTokenNotForTopic', 'Unregistered'].includes(reason)) {
    return { ok: false, retry: false, deviceGone: true, error: message };
  }
  if (reason === 'ExpiredProviderToken') {
    accessTokens.delete(`apn:${credentialKey(config)}`);
    return { ok: false, retry: true, error: message };
  }
  return { ok: false, retry: transient(answer.status), error: message };
}

async function huaweiAccessToken(config: ProviderConfig, timeoutMs: number): Promise<{ token: string; key: string }> {
  const key = `huawei:${credentialKey(config)}`;
  const token = await accessToken(key, async () => {
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: config.huawei_app_id ?? '', client_secret: config.huawei_app_secret ?? '' });
    const url = joined(config.base_url ?? PUBLIC_HOSTS.huaweiToken, '/oauth2/v3/token');
    return tokenAnswer('Huawei', await post(url, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() }, timeoutMs));
  });
  return { token, key };
}

async function sendHuawei(config: ProviderConfig, device: string, payload: Record<string, unknown>, timeoutMs: number): Promise<SendResult> {
  const { token, key } = await huaweiAccessToken(config, timeoutMs);
  const message = {
    data: JSON.stringify(payload.data ?? {}),
    android: { notification: { title: payload.title, body: payload.body, click_action: { type: 3 } } },
    token: [device],
  };
  const answer = await post(
    joined(config.base_url ?? PUBLIC_HOSTS.huawei, `/v1/${encodeURIComponent(config.huawei_app_id ?? '')}/messages:send`),
    { headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ validate_only: false, message }) },
    timeoutMs,
  );
  const json = parsed(answer.text);
  if (answer.status === 200 && json.code === '80000000') return { ok: true };
  const error = `Huawei answered HTTP ${answer.status} ${String(json.code ?? '')} ${String(json.msg ?? '')}`.trim();
  if (answer.status === 401 || json.code === '80200003') {
    accessTokens.delete(key);
    return { ok: false, retry: true, error };
  }
  if (json.code === '80300007') return { ok: false, retry: false, deviceGone: true, error };
  return { ok: false, retry: transient(answer.status), error };
}

async function sendXiaomi(config: ProviderConfig, device: string, payload: Record<string, unknown>, timeoutMs: number): Promise<SendResult> {
  const form = new URLSearchParams({
    registration_id: device,
    restricted_package_name: config.xiaomi_package_name ?? '',
    title: String(payload.title ?? ''),
    description: String(payload.body ?? ''),
    payload: JSON.stringify(payload.data ?? {}),
    pass_through: '0',
    notify_type: '-1',
  });
  const answer = await post(
    joined(config.base_url ?? PUBLIC_HOSTS.xiaomi, '/v3/message/regid'),
    { headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `key=${config.xiaomi_secret ?? ''}` }, body: form.toString() },
    timeoutMs,
  );
  const json = parsed(answer.text);
  if (answer.status === 200 && json.result === 'ok') return { ok: true };
  return { ok: false, retry: transient(answer.status), error: `Xiaomi answered HTTP ${answer.status} ${String(json.code ?? '')} ${String(json.reason ?? '')}`.trim() };
}

/** Sends one push; never throws. */
export async function sendPush(config: ProviderConfig, device: string, payload: Record<string, unknown>, timeoutMs: number): Promise<SendResult> {
  try {
    switch (config.type) {
      case 'firebase':
        return await sendFirebase(config, device, payload, timeoutMs);
      case 'apn':
        return await sendApn(config, device, payload, timeoutMs);
      case 'huawei':
        return await sendHuawei(config, device, payload, timeoutMs);
      case 'xiaomi':
        return await sendXiaomi(config, device, payload, timeoutMs);
      default:
        return { ok: false, retry: false, error: `unknown push provider type ${String(config.type)}` };
    }
  } catch (error) {
    if (error instanceof SendError) return { ok: false, retry: error.retry, error: error.message };
    return { ok: false, retry: false, error: error instanceof Error ? error.message : String(error) };
  }
}
