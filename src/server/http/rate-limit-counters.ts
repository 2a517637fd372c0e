// Per-endpoint request counters, as the provider keeps them (protocol-notes §12): one rolling
// minute per endpoint and platform (server-side, web, iOS, Android). Every response carries
// `X-RateLimit-Limit`, `-Remaining` and `-Reset`, and `GET /rate_limits` reports them. The
// counters are bounded by construction: endpoint names come from the table below (anything
// else counts as `Other`), so there are at most (names + 1) × 4 of them.

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
  rule('POST', '/channels/{id}/{id}/(file|image)', 'UploadFile', 1_000),
  rule('DELETE', '/channels/{id}/{id}/(file|image)', 'DeleteFile', 1_000),
  rule('POST', '/uploads/(file|image)', 'UploadFile', 1_000),
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
  rule('POST', '/devices', 'CreateDevice', 60),
  rule('DELETE', '/devices', 'DeleteDevice', 60),
  rule('GET', '/devices', 'ListDevices', 60),
  rule('POST', '/check_push', 'CheckPush', 60),
];

export const OTHER = { name: 'Other', limit: 1_000 };
const WINDOW_MS = 60_000;

export function endpointOf(method: string, path: string): { name: string; limit: number } {
  for (const [ruleMethod, pattern, name, limit] of RULES) {
    if (ruleMethod === method && pattern.test(path)) return { name, limit };
  }
  return OTHER;
}

export type RateLimitInfo = { limit: number; remaining: number; reset: number };

export class RateLimitCounters {
  private readonly windows = new Map<string, { count: number; resetAt: number; limit: number }>();

  /** Counts one request; returns the window as the response headers report it. */
  count(platform: Platform, method: string, path: string, now = Date.now()): RateLimitInfo {
    const { name, limit } = endpointOf(method, path);
    const key = `${platform} ${name}`;
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + WINDOW_MS, limit };
      this.windows.set(key, window);
    }
    window.count += 1;
    return info(window);
  }

  /** Every endpoint's window for one platform (`GET /rate_limits`); untouched ones are full. */
  report(platform: Platform, only?: string[], now = Date.now()): Record<string, RateLimitInfo> {
    const names = new Map<string, number>([...RULES.map(([, , name, limit]) => [name, limit] as const), [OTHER.name, OTHER.limit]]);
    const report: Record<string, RateLimitInfo> = {};
    for (const [name, limit] of names) {
      if (only && !only.includes(name)) continue;
      const window = this.windows.get(`${platform} ${name}`);
      report[name] = window && window.resetAt > now ? info(window) : { limit, remaining: limit, reset: Math.ceil((now + WINDOW_MS) / 1000) };
    }
    return report;
  }
}

function info(window: { count: number; resetAt: number; limit: number }): RateLimitInfo {
  return { limit: window.limit, remaining: Math.max(0, window.limit - window.count), reset: Math.ceil(window.resetAt / 1000) };
}

