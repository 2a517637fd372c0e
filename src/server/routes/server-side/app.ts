// Server-side app calls: `PATCH /app` (updateAppSettings), `GET /rate_limits`, `GET /hook/events`
// and `GET /tasks/{id}` (the progress of slow work started by other calls).
import { Hono } from 'hono';
import type { APIResponse, GetHookEventsResponse, GetRateLimitsResponse, TaskStatus } from 'stream-chat';
import { BUILTIN_PERMISSIONS } from '../../auth/permissions';
import { HOOK_EVENTS } from '../../features/webhooks/hook-events';
import { SETTING_KEYS } from '../../infra/app-settings';
import { checkedUploadConfig } from '../../features/uploads/settings';
import type { AppEnv, ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { isObject, optionalBoolean, optionalString, type JsonObject } from '../../http/input';
import { PLATFORMS } from '../../http/rate-limit-counters';
import { existingTask } from '../../infra/run-task';
import { presentTask } from '../../present/task';
import { elapsed, readJson, readPayload, requireServerSide, sendJson } from '../request';

const ENFORCE_UNIQUE_USERNAMES = ['no', 'app', 'team'];
const KNOWN = new Set<string>([...SETTING_KEYS]);

export function appAdminRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const server = requireServerSide(ctx);

  routes.patch('/app', server, async (c) => {
    const body = await readJson(c);
    const changes: JsonObject = {};
    for (const [key, value] of Object.entries(body)) {
      // Settings the backend does not act on (push credentials, hooks…) are kept as given and
      // returned by GET /app, so server code that sets them runs unchanged.
      changes[key] = KNOWN.has(key) ? checkedSetting(key, value) : value;
    }
    ctx.store.appSettings.set(changes);
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  // As the provider answers it: one map per platform (endpoint name → limit, remaining, reset).
  // `server_side`, `android`, `ios` and `web` each ask for their platform, and asking for none
  // means all four; `endpoints` (names, comma-separated) keeps those endpoints in every map.
  routes.get('/rate_limits', server, (c) => {
    const payload = readPayload(c);
    const query = (name: string): unknown => c.req.query(name) ?? payload[name];
    const endpoints = optionalString(query('endpoints'), 'endpoints')
      ?.split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    const asked = PLATFORMS.filter((platform) => platformFlag(query(platform), platform));
    const response: GetRateLimitsResponse = { duration: elapsed(c) };
    for (const platform of asked.length ? asked : PLATFORMS) {
      response[platform] = ctx.rateLimits.report(platform, endpoints) as GetRateLimitsResponse['web'];
    }
    return sendJson(response);
  });

  routes.get('/hook/events', server, (c) => {
    const response: GetHookEventsResponse = { events: HOOK_EVENTS, duration: elapsed(c) };
    return sendJson(response);
  });

  routes.get('/tasks/:id', server, (c) => {
    const response: APIResponse & TaskStatus = { ...presentTask(existingTask(ctx, c.req.param('id'))), duration: elapsed(c) };
    return sendJson(response);
  });

  return routes;
}

/** A platform's flag in the query string (`true`, as the SDKs send it) or the payload. */
function platformFlag(value: unknown, name: string): boolean {
  if (value === undefined || value === null || value === '' || value === false || value === 'false' || value === '0') return false;
  if (value === true || value === 'true' || value === '1') return true;
  throw ApiError.input(`${name} must be a boolean`);
}

function checkedSetting(key: string, value: unknown): unknown {
  switch (key) {
    case 'disable_auth_checks':
    case 'disable_permissions_checks':
      return optionalBoolean(value, key) ?? false;
    case 'webhook_url': {
      const url = optionalString(value, key) ?? '';
      if (url && !/^https?:\/\/[^\s]+$/i.test(url)) throw ApiError.input('webhook_url must be an http(s) URL');
      if (url) {
        try {
          new URL(url);
        } catch {
          throw ApiError.input('webhook_url must be an http(s) URL');
        }
      }
      return url;
    }
    case 'webhook_events': {
      if (value === null || value === undefined) return [];
      const known = new Set(HOOK_EVENTS.map((event) => event.name));
      if (!Array.isArray(value) || value.some((name) => typeof name !== 'string')) {
        throw ApiError.input('webhook_events must be a list of event types');
      }
      const unknown = (value as string[]).filter((name) => !known.has(name));
      if (unknown.length) throw ApiError.input(`webhook_events has unknown event types: ${unknown.join(', ')}`);
      return value;
    }
    case 'enforce_unique_usernames': {
      const mode = optionalString(value, key) ?? 'no';
      if (!ENFORCE_UNIQUE_USERNAMES.includes(mode)) throw ApiError.input('enforce_unique_usernames must be no, app or team');
      return mode;
    }
    case 'file_upload_config':
    case 'image_upload_config':
      return checkedUploadConfig(value, key);
    case 'grants': {
      if (!isObject(value)) throw ApiError.input('grants must map roles to permission lists');
      const known = new Set(BUILTIN_PERMISSIONS.filter((p) => p.level === 'app').map((p) => p.id));
      for (const [role, list] of Object.entries(value)) {
        if (!Array.isArray(list) || list.some((id) => typeof id !== 'string' || !known.has(id.replace(/-owner$/, '')) && !known.has(id))) {
          throw ApiError.input(`grants.${role} must list app-level permissions (${[...known].join(', ')})`);
        }
      }
      return value;
    }
    case 'revoke_tokens_issued_before': {
      if (value === null) return null;
      const date = optionalString(value, key);
      // The SDK refuses a blank date client-side; the backend does too.
      if (!date || Number.isNaN(Date.parse(date))) throw ApiError.input('revoke_tokens_issued_before must be a date or null');
      return new Date(date).toISOString();
    }
    default:
      return value;
  }
}
