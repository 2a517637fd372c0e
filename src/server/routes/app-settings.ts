// `GET /app`: the app settings the SDK reads, notably the upload checks the attachment manager
// runs before every upload (file_upload_config / image_upload_config). Changing them is the
// server-side `PATCH /app` (routes/server-side/app.ts).
import { Hono } from 'hono';
import type { AppSettingsAPIResponse } from 'stream-chat';
import { typeCommands } from '../auth/channel-types';
import { channelCommands } from '../present/commands';
import { appSettings } from '../infra/app-settings';
import type { AppEnv, ServerContext } from '../http/context';
import { elapsed, requireAuth, sendJson } from './request';

export function appSettingsRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();

  routes.get('/app', requireAuth(ctx), (c) => {
    const settings = appSettings(ctx);
    const commands = channelCommands(ctx.store);
    const channelConfigs: NonNullable<AppSettingsAPIResponse['app']>['channel_configs'] = {};
    for (const type of ctx.store.channelTypes.all()) {
      const names = typeCommands(type.config, commands).flatMap((command) => (command.name ? [command.name] : []));
      channelConfigs[type.config.name] = { ...type.config, commands: names };
    }
    const stored = ctx.store.appSettings.all();
    const response: AppSettingsAPIResponse = {
      app: {
        // Settings the backend does not act on are kept and returned as they were set.
        ...stored,
        name: 'chat-widget (local backend)',
        placement: 'local',
        channel_configs: channelConfigs,
        call_types: {},
        reminders_interval: 60,
        disable_auth_checks: settings.disableAuthChecks,
        disable_permissions_checks: settings.disablePermissionsChecks,
        guest_user_creation_disabled: false,
        multi_tenant_enabled: false,
        // Whether messages can be translated here: a translation service is configured.
        auto_translation_enabled: ctx.config.translation !== undefined,
        async_url_enrich_enabled: false,
        poll_enabled: true,
        enforce_unique_usernames: settings.enforceUniqueUsernames as 'no' | 'app' | 'team',
        file_upload_config: settings.fileUploadConfig,
        image_upload_config: settings.imageUploadConfig,
        webhook_url: settings.webhookUrl,
        webhook_events: settings.webhookEvents,
        revoke_tokens_issued_before: settings.revokeTokensIssuedBefore,
        grants: { ...settings.appGrants },
        suspended: false,
        user_search_disallowed_roles: [],
      },
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  return routes;
}
