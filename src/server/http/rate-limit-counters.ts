// Per-endpoint request counters, as the provider keeps them (protocol-notes §12): one window
// of a minute per endpoint and platform (server-side, web, iOS, Android), and inside it one per
// user (60 a minute per endpoint; server-side calls are exempt). The same counters answer the
// `X-RateLimit-*` headers, `GET /rate_limits`, and, when limits are on, whether a request may
// proceed: one mechanism for counting and enforcing. Endpoints the provider's table names keep
// its names and limits; any other route counts as its own endpoint (its method and path
// pattern) with the default of 1,000, so no two features share a window. The counters are
// bounded: endpoint names come from the route table, and user windows are swept once expired.
import { DEFAULT_LIMITS, type Limits } from '../limits';

export type Platform = 'server_side' | 'web' | 'ios' | 'android';
export const PLATFORMS: Platform[] = ['server_side', 'web', 'ios', 'android'];

type Rule = [method: string, path: RegExp, name: string, limit: number];

const ID = '[^/]+';
const rule = (method: string, path: string, name: string, limit: number): Rule => [
  method,
  new RegExp(`^${path.replace(/\{id\}/g, ID)}$`),
  name,
  limit,
];

/** The provider's endpoint names and default per-minute limits (self-serve plans). */
const RULES: Rule[] = [
  rule('GET', '/connect', 'Connect', 10_000),
  rule('GET', '/longpoll', 'LongPoll', 10_000),
  rule('POST', '/channels', 'QueryChannels', 10_000),
  rule('POST', '/channels/{id}/query', 'GetOrCreateChannel', 10_000),
  rule('POST', '/channels/{id}/{id}/query', 'GetOrCreateChannel', 10_000),
  rule('GET', '/app', 'GetApp', 10_000),
  rule('PATCH', '/app', 'UpdateApp', 60),
  rule('POST', '/channels/{id}/{id}/read', 'MarkRead', 10_000),
  rule('POST', '/channels/read', 'MarkChannelsRead', 10_000),
  rule('POST', '/channels/{id}/{id}/event', 'SendEvent', 10_000),
  rule('POST', '/users/{id}/event', 'SendUserCustomEvent', 1_000),
  rule('POST', '/channels/{id}/{id}/message', 'SendMessage', 1_000),
  rule('POST', '/messages/{id}', 'UpdateMessage', 1_000),
  rule('PUT', '/messages/{id}', 'UpdateMessagePartial', 1_000),
  rule('DELETE', '/messages/{id}', 'DeleteMessage', 1_000),
  rule('GET', '/messages/{id}', 'GetMessage', 1_000),
  rule('GET', '/channels/{id}/{id}/messages', 'GetManyMessages', 1_000),
  rule('POST', '/messages/{id}/reaction', 'SendReaction', 1_000),
  rule('DELETE', '/messages/{id}/reaction/{id}', 'DeleteReaction', 1_000),
  rule('GET', '/messages/{id}/reactions', 'GetReactions', 1_000),
  rule('GET', '/messages/{id}/replies', 'GetReplies', 1_000),
  rule('GET', '/channels/{id}/{id}/pinned_messages', 'GetPinnedMessages', 1_000),
  rule('POST', '/messages/{id}/action', 'RunMessageAction', 1_000),
  rule('GET', '/users', 'QueryUsers', 1_000),
  rule('POST', '/users', 'UpdateUsers', 300),
  rule('PATCH', '/users', 'UpdateUsersPartial', 300),
  rule('POST', '/guest', 'CreateGuest', 1_000),
  rule('POST', '/channels/{id}/{id}/stop-watching', 'StopWatchingChannel', 1_000),
  rule('POST', '/channels/{id}/{id}/file', 'UploadFile', 1_000),
  rule('POST', '/channels/{id}/{id}/image', 'UploadImage', 1_000),
  rule('DELETE', '/channels/{id}/{id}/file', 'DeleteFile', 60),
  // The table names Delete File alone; deleting an image is taken to be limited alike.
  rule('DELETE', '/channels/{id}/{id}/image', 'DeleteImage', 60),
  rule('POST', '/uploads/file', 'UploadFile', 1_000),
  rule('POST', '/uploads/image', 'UploadImage', 1_000),
  rule('GET', '/search', 'Search', 300),
  rule('GET', '/members', 'QueryMembers', 300),
  rule('POST', '/moderation/ban', 'Ban', 300),
  rule('DELETE', '/moderation/ban', 'Unban', 300),
  rule('GET', '/query_banned_users', 'QueryBannedUsers', 300),
  rule('POST', '/moderation/flag', 'Flag', 300),
  rule('POST', '/moderation/unflag', 'Unflag', 300),
  rule('POST', '/moderation/flags', 'QueryFlags', 300),
  rule('GET', '/moderation/flags/message', 'QueryMessageFlags', 300),
  rule('POST', '/moderation/reports', 'QueryFlagReports', 300),
  rule('PATCH', '/moderation/reports/{id}', 'FlagReportReview', 300),
  rule('POST', '/moderation/unblock_message', 'Unblock', 300),
  rule('POST', '/moderation/mute', 'MuteUser', 300),
  rule('POST', '/moderation/unmute', 'UnmuteUser', 300),
  rule('POST', '/moderation/mute/channel', 'MuteChannel', 300),
  rule('POST', '/moderation/unmute/channel', 'UnmuteChannel', 300),
  rule('POST', '/channels/{id}/{id}/hide', 'HideChannel', 300),
  rule('POST', '/channels/{id}/{id}/show', 'ShowChannel', 300),
  rule('POST', '/channels/{id}/{id}', 'UpdateChannel', 300),
  rule('PATCH', '/channels/{id}/{id}', 'UpdateChannelPartial', 300),
  rule('DELETE', '/channels/{id}/{id}', 'DeleteChannel', 60),
  rule('POST', '/channels/delete', 'DeleteChannels', 60),
  rule('POST', '/channels/{id}/{id}/truncate', 'TruncateChannel', 60),
  rule('POST', '/channeltypes', 'CreateChannelType', 60),
  rule('GET', '/channeltypes', 'ListChannelTypes', 60),
  rule('GET', '/channeltypes/{id}', 'GetChannelType', 60),
  rule('PUT', '/channeltypes/{id}', 'UpdateChannelType', 60),
  rule('DELETE', '/channeltypes/{id}', 'DBDeleteChannelType', 60),
  rule('POST', '/permissions', 'CreatePermission', 60),
  rule('GET', '/permissions', 'ListPermissions', 60),
  rule('GET', '/permissions/{id}', 'GetPermission', 60),
  rule('PUT', '/permissions/{id}', 'UpdatePermission', 60),
  rule('DELETE', '/permissions/{id}', 'DeletePermission', 60),
  rule('POST', '/users/{id}/deactivate', 'DeactivateUser', 60),
  rule('POST', '/users/deactivate', 'DeactivateUser', 60),
  rule('POST', '/users/{id}/reactivate', 'ReactivateUser', 60),
  rule('POST', '/users/reactivate', 'ReactivateUser', 60),
  rule('DELETE', '/users/{id}', 'DeleteUser', 60),
  rule('POST', '/users/delete', 'DeleteUsers', 60),
  rule('GET', '/users/{id}/export', 'ExportUser', 60),
  rule('POST', '/devices', 'CreateDevice', 300),
  rule('DELETE', '/devices', 'DeleteDevice', 60),
  rule('GET', '/devices', 'ListDevices', 60),
  rule('POST', '/check_push', 'CheckPush', 60),
  rule('POST', '/export_channels', 'ExportChannels', 60),
  // Endpoints the SDK names (its EndpointName) that the provider's table gives no number: the
  // default every unnamed call has here, so `GET /rate_limits` can report them by name.
  rule('GET', '/rate_limits', 'GetRateLimits', 1_000),
  rule('GET', '/export_channels/{id}', 'GetExportChannelsStatus', 1_000),
  rule('POST', '/export/users', 'ExportUsers', 1_000),
  rule('POST', '/check_sqs', 'CheckSQS', 1_000),
  rule('POST', '/sync', 'Sync', 1_000),
  rule('POST', '/messages/{id}/translate', 'TranslateMessage', 1_000),
  rule('GET', '/og', 'GetOG', 1_000),
  rule('GET', '/tasks/{id}', 'GetTask', 1_000),
  rule('POST', '/roles', 'CreateRole', 1_000),
  rule('GET', '/roles', 'ListRoles', 1_000),
  rule('DELETE', '/roles/{id}', 'DeleteRole', 1_000),
  rule('POST', '/blocklists', 'CreateBlockList', 1_000),
  rule('GET', '/blocklists', 'ListBlockLists', 1_000),
  rule('GET', '/blocklists/{id}', 'GetBlockList', 1_000),
  rule('PUT', '/blocklists/{id}', 'UpdateBlockList', 1_000),
  rule('DELETE', '/blocklists/{id}', 'DeleteBlockList', 1_000),
  rule('POST', '/commands', 'CreateCommand', 1_000),
  rule('GET', '/commands', 'ListCommands', 1_000),
  rule('GET', '/commands/{id}', 'GetCommand', 1_000),
  rule('PUT', '/commands/{id}', 'UpdateCommand', 1_000),
  rule('DELETE', '/commands/{id}', 'DeleteCommand', 1_000),
  rule('POST', '/segments', 'CreateSegment', 1_000),
  rule('POST', '/segments/query', 'QuerySegments', 1_000),
  rule('GET', '/segments/{id}', 'GetSegment', 1_000),
  rule('PUT', '/segments/{id}', 'UpdateSegment', 1_000),
  rule('DELETE', '/segments/{id}', 'DeleteSegment', 1_000),
  rule('POST', '/campaigns', 'CreateCampaign', 1_000),
  rule('POST', '/campaigns/query', 'ListCampaigns', 1_000),
  rule('GET', '/campaigns/{id}', 'GetCampaign', 1_000),
  rule('PUT', '/campaigns/{id}', 'UpdateCampaign', 1_000),
  rule('DELETE', '/campaigns/{id}', 'DeleteCampaign', 1_000),
  rule('POST', '/campaigns/{id}/start', 'ScheduleCampaign', 1_000),
  rule('POST', '/campaigns/{id}/stop', 'StopCampaign', 1_000),
  rule('POST', '/imports', 'CreateImport', 1_000),
  rule('POST', '/import_urls', 'CreateImportURL', 1_000),
  rule('GET', '/imports', 'ListImports', 1_000),
  rule('GET', '/imports/{id}', 'GetImport', 1_000),
  rule('POST', '/push_providers', 'UpsertPushProvider', 1_000),
  rule('GET', '/push_providers', 'ListPushProviders', 1_000),
  rule('DELETE', '/push_providers/{id}/{id}', 'DeletePushProvider', 1_000),
];

/** An API call the table does not name and whose route is not known (it failed before routing). */
export const OTHER = { name: 'Other', limit: 1_000 };
/** User windows are swept for expired ones whenever this many more have been opened. */
const SWEEP_EVERY = 1_024;

export type Endpoint = { name: string; limit: number };

/** The provider's endpoint for a call; else the route itself (`POST /polls`), else Other. */
export function endpointOf(method: string, path: string, route?: string): Endpoint {
  for (const [ruleMethod, pattern, name, limit] of RULES) {
    if (ruleMethod === method && pattern.test(path)) return { name, limit };
  }
  return route && route !== '*' && route !== '/*' ? { name: `${method} ${route}`, limit: OTHER.limit } : OTHER;
}

export function isNamedEndpoint(method: string, path: string): boolean {
  return endpointOf(method, path) !== OTHER;
}

export type RateLimitInfo = { limit: number; remaining: number; reset: number };
/** A counted request: the window its headers report (the endpoint's, or the one that refused it) and whether it may proceed. */
export type RateLimitDecision = RateLimitInfo & { allowed: boolean; endpoint: string; perUser: boolean };

export type CountedRequest = {
  platform: Platform;
  method: string;
  path: string;
  /** The matched route pattern, naming calls the provider's table does not. */
  route?: string;
  /** Counted against this user's own window too (never for server-side calls). */
  userId?: string;
};

type Window = { count: number; resetAt: number; limit: number };

export class RateLimitCounters {
  private readonly windows = new Map<string, Window>();
  private readonly userWindows = new Map<string, Window>();
  private openedSinceSweep = 0;
  private readonly settings: Pick<Limits, 'rateLimits' | 'userRequestsPerMinute' | 'rateLimitWindowMs'>;

  constructor(settings: Partial<Pick<Limits, 'rateLimits' | 'userRequestsPerMinute' | 'rateLimitWindowMs'>> = {}) {
    this.settings = {
      rateLimits: settings.rateLimits ?? DEFAULT_LIMITS.rateLimits,
      userRequestsPerMinute: settings.userRequestsPerMinute ?? DEFAULT_LIMITS.userRequestsPerMinute,
      rateLimitWindowMs: settings.rateLimitWindowMs || DEFAULT_LIMITS.rateLimitWindowMs,
    };
  }

  /**
   * Counts one request against its endpoint's window for the platform and, for a user, against
   * the user's window. With limits on, a request over either is refused and not counted.
   */
  take(request: CountedRequest, now = Date.now()): RateLimitDecision {
    const endpoint = endpointOf(request.method, request.path, request.route);
    const app = this.window(this.windows, `${request.platform} ${endpoint.name}`, endpoint.limit, now);
    const perUserLimit = this.settings.userRequestsPerMinute;
    const user =
      request.userId !== undefined && request.platform !== 'server_side' && perUserLimit > 0
        ? this.window(this.userWindows, `${request.platform} ${request.userId} ${endpoint.name}`, perUserLimit, now)
        : undefined;
    const allowed = !this.settings.rateLimits || (app.count < app.limit && (!user || user.count < user.limit));
    if (allowed) {
      app.count += 1;
      if (user) user.count += 1;
    }
    // The headers report the endpoint's window, as GET /rate_limits does; a refusal reports
    // the window that refused it, so its Reset says when to retry.
    const refusedBy = allowed ? undefined : app.count >= app.limit ? app : user;
    const shown = refusedBy ?? app;
    return { ...info(shown), allowed, endpoint: endpoint.name, perUser: shown === user };
  }

  /** Every endpoint's window for one platform (`GET /rate_limits`); untouched ones are full. */
  report(platform: Platform, only?: string[], now = Date.now()): Record<string, RateLimitInfo> {
    const names = new Map<string, number>([...RULES.map(([, , name, limit]) => [name, limit] as const), [OTHER.name, OTHER.limit]]);
    for (const [key, window] of this.windows) {
      if (key.startsWith(`${platform} `)) names.set(key.slice(platform.length + 1), window.limit);
    }
    const report: Record<string, RateLimitInfo> = {};
    for (const [name, limit] of names) {
      if (only && !only.includes(name)) continue;
      const window = this.windows.get(`${platform} ${name}`);
      report[name] = window && window.resetAt > now ? info(window) : { limit, remaining: limit, reset: Math.ceil((now + this.settings.rateLimitWindowMs) / 1000) };
    }
    return report;
  }

  private window(windows: Map<string, Window>, key: string, limit: number, now: number): Window {
    let window = windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + this.settings.rateLimitWindowMs, limit };
      windows.set(key, window);
      if (windows === this.userWindows && ++this.openedSinceSweep >= SWEEP_EVERY) this.sweep(now);
    }
    return window;
  }

  /** Forgets expired user windows, so their number follows the users active in the last minute. */
  private sweep(now: number): void {
    this.openedSinceSweep = 0;
    for (const [key, window] of this.userWindows) {
      if (window.resetAt <= now) this.userWindows.delete(key);
    }
  }
}

function remaining(window: Window): number {
  return Math.max(0, window.limit - window.count);
}

function info(window: Window): RateLimitInfo {
  return { limit: window.limit, remaining: remaining(window), reset: Math.ceil(window.resetAt / 1000) };
}
