// `GET /app`: the app settings the SDK reads, notably the upload checks the attachment manager
// runs before every upload (file_upload_config / image_upload_config).
import { Hono } from 'hono';
import type { AppSettingsAPIResponse } from 'stream-chat';
import { CHANNEL_TYPES } from '../auth/channel-types';
import { channelCommands } from '../features/commands/command-list';
import type { AppEnv, ServerContext } from '../http/context';
import { elapsed, requireAuth, sendJson } from '../http/request';

export function appSettingsRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();

  routes.get('/app', requireAuth(ctx), (c) => {
    const channelConfigs: NonNullable<AppSettingsAPIResponse['app']>['channel_configs'] = {};
    // Every type offers every command, custom ones included (commands/command-list.ts).
    const commands = channelCommands(ctx.store).flatMap((command) => (command.name ? [command.name] : []));
    for (const [name, type] of Object.entries(CHANNEL_TYPES)) channelConfigs[name] = { ...type.config, commands };
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
        file_upload_config: ctx.config.uploads.file,
        image_upload_config: ctx.config.uploads.image,
        suspended: false,
        user_search_disallowed_roles: [],
      },
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  return routes;
}
