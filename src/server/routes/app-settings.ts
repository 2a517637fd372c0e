// `GET /app`: the app settings the SDK reads, notably the upload checks the attachment manager
// runs before every upload (file_upload_config / image_upload_config).
import { Hono } from 'hono';
import type { AppSettingsAPIResponse, FileUploadConfig } from 'stream-chat';
import { CHANNEL_TYPES } from '../channel-types';
import type { AppEnv, ServerContext } from '../context';
import { elapsed, requireAuth, sendJson } from '../http';

/** 100 MB, the provider's default (stream-chat DEFAULT_UPLOAD_SIZE_LIMIT_BYTES). */
const SIZE_LIMIT = 104_857_600;

const UPLOAD_CONFIG: FileUploadConfig = {
  allowed_file_extensions: [],
  blocked_file_extensions: [],
  allowed_mime_types: [],
  blocked_mime_types: [],
  size_limit: SIZE_LIMIT,
};

export function appSettingsRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();

  routes.get('/app', requireAuth(ctx), (c) => {
    const channelConfigs: NonNullable<AppSettingsAPIResponse['app']>['channel_configs'] = {};
    for (const [name, type] of Object.entries(CHANNEL_TYPES)) {
      const { commands, ...config } = type.config;
      channelConfigs[name] = { ...config, commands: commands?.flatMap((command) => (command.name ? [command.name] : [])) };
    }
    const response: AppSettingsAPIResponse = {
      app: {
        name: 'chat-widget (local backend)',
        placement: 'local',
        channel_configs: channelConfigs,
        call_types: {},
        reminders_interval: 60,
        disable_auth_checks: ctx.config.disableAuthChecks,
        disable_permissions_checks: false,
        guest_user_creation_disabled: false,
        multi_tenant_enabled: false,
        auto_translation_enabled: false,
        async_url_enrich_enabled: false,
        poll_enabled: true,
        enforce_unique_usernames: 'no',
        file_upload_config: UPLOAD_CONFIG,
        image_upload_config: UPLOAD_CONFIG,
        suspended: false,
        user_search_disallowed_roles: [],
      },
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  return routes;
}
