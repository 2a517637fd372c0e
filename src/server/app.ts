// The request handler, with no port: CORS, timing, every API area, the demo token endpoint,
// static files, and the one mapping from errors to the provider's error JSON. index.ts listens;
// tests can call app.request() directly.
import { Hono, type MiddlewareHandler } from 'hono';
import { DEFAULT_LIMITS, type BodyLimits } from './limits';
import type { AppEnv, ServerContext } from './http/context';
import { ApiError, errorBody, toApiError } from './http/errors';
import { elapsed, sendJson } from './routes/request';
import { setAnswerHeaders } from './http/node-exchange';
import { appSettingsRoutes } from './routes/app-settings';
import { channelRoutes } from './routes/channels';
import { channelViewRoutes } from './routes/channel-view';
import { commandRoutes } from './routes/commands';
import { demoRoutes } from './routes/demo';
import { deviceRoutes } from './routes/devices';
import { draftRoutes } from './routes/drafts';
import { eventRoutes } from './routes/events';
import { healthRoutes } from './routes/health';
import { locationRoutes } from './routes/locations';
import { longPollRoutes } from './routes/longpoll';
import { memberRoutes } from './routes/members';
import { messageRoutes } from './routes/messages';
import { ogRoutes } from './routes/og';
import { pollOptionRoutes } from './routes/poll-options';
import { pollVoteRoutes } from './routes/poll-votes';
import { pollRoutes } from './routes/polls';
import { pushPreferenceRoutes } from './routes/push-preferences';
import { searchRoutes } from './routes/search';
import { syncRoutes } from './routes/sync';
import { unreadRoutes } from './routes/unread';
import { uploadRoutes } from './routes/uploads';
import { userRoutes } from './routes/users';
import { appAdminRoutes } from './routes/server-side/app';
import { banRoutes } from './routes/bans';
import { blocklistRoutes } from './routes/server-side/blocklists';
import { moderationReviewRoutes } from './routes/moderation-review';
import { usersAdminRoutes } from './routes/server-side/users-admin';
import { userBlockRoutes } from './routes/user-blocks';
import { channelTypeRoutes } from './routes/server-side/channel-types';
import { permissionRoutes } from './routes/server-side/permissions';
import { pushAdminRoutes } from './routes/server-side/push';
import { campaignRoutes } from './routes/server-side/campaigns';
import { segmentRoutes } from './routes/server-side/segments';
import { messageHistoryRoutes } from './routes/server-side/message-history';
import { pendingMessageRoutes } from './routes/pending-messages';
import { translationRoutes } from './routes/translation';
import { importExportRoutes } from './routes/server-side/imports-exports';
import { rateLimitHeaders } from './http/rate-limits';
import { serveStatic } from './http/static';

const ALLOWED_HEADERS = 'authorization, stream-auth-type, x-stream-client, x-client-request-id, content-type';
const ANSWER_CORS = {
  'access-control-allow-origin': '*',
  // A widget on another origin reads when a refused request may be retried.
  'access-control-expose-headers': 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
};

/**
 * The SDK's custom headers make browsers preflight every call. Requests carry no cookies
 * (axios withCredentials is false), so a wildcard origin is enough.
 */
const cors: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method === 'OPTIONS') {
    return new Response(null, {
      status: 204,
      headers: {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
        'access-control-allow-headers': ALLOWED_HEADERS,
        'access-control-max-age': '86400',
      },
    });
  }
  await next();
  // An answer that names its own origin (the demo token's, with credentials) keeps it.
  setAnswerHeaders(c, ANSWER_CORS);
};

export function createApp(ctx: ServerContext, limits: BodyLimits = DEFAULT_LIMITS) {
  const app = new Hono<AppEnv>();
  const bodyLimits: BodyLimits = { maxBodyBytes: limits.maxBodyBytes, maxJsonDepth: limits.maxJsonDepth };

  app.use('*', async (c, next) => {
    c.set('started', performance.now());
    c.set('bodyLimits', bodyLimits);
    await next();
  });
  app.use('*', cors);
  app.use('*', rateLimitHeaders(ctx.rateLimits));

  app.route('/', healthRoutes());
  // The realtime fallback and catch-up: GET /longpoll, POST /sync.
  app.route('/', longPollRoutes(ctx));
  app.route('/', syncRoutes(ctx));
  app.route('/', appSettingsRoutes(ctx));
  app.route('/', userRoutes(ctx));
  app.route('/', channelRoutes(ctx));
  app.route('/', memberRoutes(ctx));
  app.route('/', messageRoutes(ctx));
  app.route('/', eventRoutes(ctx));
  // Translation, pending messages and edit history; before channelViewRoutes,
  // whose POST /messages/{id} would otherwise take POST /messages/history.
  app.route('/', messageHistoryRoutes(ctx));
  app.route('/', pendingMessageRoutes(ctx));
  app.route('/', translationRoutes(ctx));
  // After channelRoutes: its POST /channels/{type}/query must win over POST /channels/{type}/{id}.
  app.route('/', channelViewRoutes(ctx));
  // The composer: uploads, link previews, polls, drafts, live locations, commands.
  app.route('/', uploadRoutes(ctx));
  app.route('/', ogRoutes(ctx));
  app.route('/', pollRoutes(ctx));
  app.route('/', pollOptionRoutes(ctx));
  app.route('/', pollVoteRoutes(ctx));
  app.route('/', draftRoutes(ctx));
  app.route('/', locationRoutes(ctx));
  app.route('/', commandRoutes(ctx));
  // Search: GET /search over the full-text index.
  app.route('/', searchRoutes(ctx));
  // Devices and push: devices, unread counts, push preferences; providers and checks server-side.
  app.route('/', deviceRoutes(ctx));
  app.route('/', unreadRoutes(ctx));
  app.route('/', pushPreferenceRoutes(ctx));
  app.route('/', pushAdminRoutes(ctx));
  // Server-side calls (signed with the app secret): the operator's side.
  app.route('/', appAdminRoutes(ctx));
  app.route('/', banRoutes(ctx));
  app.route('/', blocklistRoutes(ctx));
  app.route('/', moderationReviewRoutes(ctx));
  app.route('/', usersAdminRoutes(ctx));
  app.route('/', userBlockRoutes(ctx));
  app.route('/', channelTypeRoutes(ctx));
  app.route('/', permissionRoutes(ctx));
  // Campaigns and segments: server-side; a started campaign sends as a task.
  app.route('/', segmentRoutes(ctx));
  app.route('/', campaignRoutes(ctx));
  // Imports and exports: server-side; both run as tasks.
  app.route('/', importExportRoutes(ctx));
  if (ctx.config.devMode) app.route('/', demoRoutes(ctx));
  app.get('*', serveStatic(ctx.config));

  app.notFound((c) => {
    const error = ApiError.notFound(`${c.req.method} ${c.req.path} is not an endpoint of this API`);
    return sendJson(errorBody(error, elapsed(c)), error.status);
  });

  app.onError((err, c) => {
    const error = toApiError(err);
    if (error.status >= 500) ctx.log(`${c.req.method} ${c.req.path} failed`, err);
    return sendJson(errorBody(error, elapsed(c)), error.status);
  });

  return app;
}
