// Push provider configurations (`POST /push_providers`, upsertPushProvider): the fields the SDK's
// PushProviderConfig names for each type, checked as the provider checks them: credentials must be
// present and readable, templates must render to JSON. `base_url` (this backend's own field) sends
// a provider's requests somewhere other than its public API: a receiver on localhost in tests.
import { createHash } from 'node:crypto';
import { importPKCS8 } from 'jose';
import type { PushProvider, PushProviderConfig } from 'stream-chat';
import { ApiError } from '../../http/errors';
import { isObject, optionalBoolean, optionalString, type JsonObject } from '../../http/input';
import type { PushProviderRow } from '../../store/push-providers';
import { renderSample } from './render-push';
import { TemplateError } from './template';

export const PROVIDER_TYPES: readonly PushProvider[] = ['apn', 'firebase', 'huawei', 'xiaomi'];

/** A stored provider as every part of push reads it. */
export type ProviderConfig = PushProviderConfig & { base_url?: string };

const NAME = /^[A-Za-z0-9_.:-]{1,64}$/;
const MAX_FIELD = 64 * 1024;

const COMMON = ['description', 'disabled_at', 'disabled_reason', 'base_url'];
const FIELDS: Record<PushProvider, { strings: string[]; booleans?: string[]; templates: string[] }> = {
  apn: {
    strings: ['apn_auth_key', 'apn_auth_type', 'apn_host', 'apn_key_id', 'apn_p12_cert', 'apn_team_id', 'apn_topic', 'apn_notification_template'],
    booleans: ['apn_development'],
    templates: ['apn_notification_template'],
  },
  firebase: {
    strings: ['firebase_credentials', 'firebase_server_key', 'firebase_apn_template', 'firebase_data_template', 'firebase_notification_template'],
    templates: ['firebase_apn_template', 'firebase_data_template', 'firebase_notification_template'],
  },
  huawei: { strings: ['huawei_app_id', 'huawei_app_secret'], templates: [] },
  xiaomi: { strings: ['xiaomi_package_name', 'xiaomi_secret'], templates: [] },
};

export function providerType(value: unknown, name = 'type'): PushProvider {
  const type = optionalString(value, name);
  if (!type || !PROVIDER_TYPES.includes(type as PushProvider)) {
    throw ApiError.input(`${name} must be one of ${PROVIDER_TYPES.join(', ')}`);
  }
  return type as PushProvider;
}

export function providerName(value: unknown, name = 'name'): string {
  const text = optionalString(value, name);
  if (!text || !NAME.test(text)) throw ApiError.input(`${name} must be 1 to 64 letters, digits, ".", ":", "-" or "_"`);
  return text;
}

/** The Firebase service account JSON, with what the sender needs from it. */
export type ServiceAccount = { project_id: string; client_email: string; private_key: string; token_uri?: string };

export function serviceAccount(credentials: string): ServiceAccount {
  let parsed: unknown;
  try {
    parsed = JSON.parse(credentials);
  } catch {
    throw ApiError.input('firebase_credentials must be the service account JSON');
  }
  if (!isObject(parsed)) throw ApiError.input('firebase_credentials must be the service account JSON');
  for (const key of ['project_id', 'client_email', 'private_key']) {
    if (typeof parsed[key] !== 'string' || !parsed[key]) throw ApiError.input(`firebase_credentials has no ${key}`);
  }
  if (parsed.token_uri !== undefined && !isHttpUrl(parsed.token_uri)) throw ApiError.input('firebase_credentials.token_uri must be an http(s) URL');
  return parsed as ServiceAccount;
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || !/^https?:\/\//i.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

async function readableKey(pem: string, alg: 'ES256' | 'RS256', field: string): Promise<void> {
  try {
    await importPKCS8(pem, alg);
  } catch {
    throw ApiError.input(`${field} is not a PKCS#8 ${alg === 'ES256' ? 'EC (.p8)' : 'RSA'} private key`);
  }
}

/** Checks an upsert's `push_provider` and returns the configuration to store. */
export async function checkedProvider(input: unknown): Promise<ProviderConfig> {
  if (!isObject(input)) throw ApiError.input('push_provider is a required object');
  const type = providerType(input.type, 'push_provider.type');
  const name = providerName(input.name, 'push_provider.name');
  const fields = FIELDS[type];
  const config: JsonObject = { type, name };
  for (const key of [...COMMON, ...fields.strings]) {
    const value = optionalString(input[key], `push_provider.${key}`);
    if (value === undefined || value === '') continue;
    if (value.length > MAX_FIELD) throw ApiError.input(`push_provider.${key} is too long`);
    config[key] = value;
  }
  for (const key of fields.booleans ?? []) {
    const value = optionalBoolean(input[key], `push_provider.${key}`);
    if (value !== undefined) config[key] = value;
  }
  if (config.base_url !== undefined && !isHttpUrl(config.base_url)) throw ApiError.input('push_provider.base_url must be an http(s) URL');
  const missing = (...keys: string[]) => {
    const absent = keys.filter((key) => config[key] === undefined);
    if (absent.length) throw ApiError.input(`a ${type} push provider needs ${absent.map((key) => `push_provider.${key}`).join(', ')}`);
  };
  switch (type) {
    case 'apn': {
      const auth = (config.apn_auth_type as string | undefined) ?? (config.apn_p12_cert ? 'certificate' : 'token');
      if (auth !== 'token' && auth !== 'certificate') throw ApiError.input('push_provider.apn_auth_type must be token or certificate');
      config.apn_auth_type = auth;
      if (auth === 'token') {
        missing('apn_auth_key', 'apn_key_id', 'apn_team_id', 'apn_topic');
        await readableKey(config.apn_auth_key as string, 'ES256', 'push_provider.apn_auth_key');
      } else {
        missing('apn_p12_cert', 'apn_topic');
      }
      break;
    }
    case 'firebase':
      if (config.firebase_credentials === undefined) {
        throw ApiError.input('a firebase push provider needs push_provider.firebase_credentials (the FCM v1 service account JSON)');
      }
      await readableKey(serviceAccount(config.firebase_credentials as string).private_key, 'RS256', 'firebase_credentials.private_key');
      break;
    case 'huawei':
      missing('huawei_app_id', 'huawei_app_secret');
      break;
    case 'xiaomi':
      missing('xiaomi_package_name', 'xiaomi_secret');
      break;
  }
  for (const key of fields.templates) {
    if (typeof config[key] !== 'string') continue;
    try {
      renderSample(config[key] as string);
    } catch (error) {
      const reason = error instanceof TemplateError || error instanceof SyntaxError ? error.message : String(error);
      throw ApiError.input(`push_provider.${key} is not a valid template: ${reason}`);
    }
  }
  return config as ProviderConfig;
}

export function storedProvider(row: PushProviderRow): ProviderConfig {
  return { ...(JSON.parse(row.config) as ProviderConfig), created_at: row.created_at, updated_at: row.updated_at };
}

/** What identifies a provider's credentials: access tokens are cached under it. */
export function credentialKey(config: ProviderConfig): string {
  const { created_at: _created, updated_at: _updated, ...rest } = config;
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex');
}

/** The provider a device's pushes go through: the one it names, or the oldest of its type. */
export function providerFor(providers: ProviderConfig[], type: string, name: string | null): ProviderConfig | undefined {
  const usable = providers.filter((provider) => provider.type === type && !provider.disabled_at);
  return name ? usable.find((provider) => provider.name === name) : usable[0];
}
