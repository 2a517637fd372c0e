// The app's settings as every part of the backend reads them: the defaults the server was
// started with (config), overlaid by what `PATCH /app` stored.
import type { FileUploadConfig } from 'stream-chat';
import type { PolicySettings } from '../auth/policy';
import type { ServerContext } from '../http/context';

export type AppSettings = PolicySettings & {
  disableAuthChecks: boolean;
  /** Where events are POSTed; empty: no webhooks. */
  webhookUrl: string;
  /** Event types sent to the webhook; empty: every event. */
  webhookEvents: string[];
  /** `no`, `app` (unique across the app) or `team`. */
  enforceUniqueUsernames: string;
  fileUploadConfig: FileUploadConfig;
  imageUploadConfig: FileUploadConfig;
  /** Tokens issued before this instant are refused, for every user. */
  revokeTokensIssuedBefore: string | null;
};

/** The stored keys, named as `PATCH /app` names them. */
export const SETTING_KEYS = [
  'disable_auth_checks',
  'disable_permissions_checks',
  'webhook_url',
  'webhook_events',
  'enforce_unique_usernames',
  'file_upload_config',
  'image_upload_config',
  'grants',
  'revoke_tokens_issued_before',
] as const;

/**
 * The settings as last derived, per server: a request asks for them several times (its token,
 * each capability check, the webhooks), and they change only through `PATCH /app` and the
 * custom permissions, whose store replaces its list on every write.
 */
const derived = new WeakMap<ServerContext, { version: number; permissions: unknown; settings: AppSettings }>();

export function appSettings(ctx: ServerContext): AppSettings {
  const version = ctx.store.appSettings.version();
  const permissions = ctx.store.accessControl.permissions();
  const known = derived.get(ctx);
  if (known && known.version === version && known.permissions === permissions) return known.settings;
  const settings = Object.freeze(deriveSettings(ctx));
  derived.set(ctx, { version, permissions, settings });
  return settings;
}

function deriveSettings(ctx: ServerContext): AppSettings {
  const stored = ctx.store.appSettings.all();
  const pick = <T>(key: (typeof SETTING_KEYS)[number], fallback: T): T => (key in stored ? (stored[key] as T) : fallback);
  return {
    disableAuthChecks: pick('disable_auth_checks', ctx.config.disableAuthChecks),
    disablePermissionsChecks: pick('disable_permissions_checks', false),
    appGrants: pick('grants', {}),
    customPermissions: new Map(ctx.store.accessControl.permissions().map((p) => [p.id, p.grants])),
    webhookUrl: pick('webhook_url', ''),
    webhookEvents: pick('webhook_events', []),
    enforceUniqueUsernames: pick('enforce_unique_usernames', 'no'),
    fileUploadConfig: pick('file_upload_config', ctx.config.uploads.file),
    imageUploadConfig: pick('image_upload_config', ctx.config.uploads.image),
    revokeTokensIssuedBefore: pick('revoke_tokens_issued_before', null),
  };
}
