// Everything the channel view adds to the API, mounted together so app.ts registers it
// in one line: message edits and reads, reactions, threads, read state, channel administration
// and membership changes, moderation and reminders.
import { Hono } from 'hono';
import type { AppEnv, ServerContext } from '../http/context';
import { channelAdminRoutes } from './channel-admin';
import { memberUpdateRoutes } from './members-update';
import { messageEditRoutes } from './message-edits';
import { messageReadRoutes } from './message-reads';
import { moderationRoutes } from './moderation';
import { reactionRoutes } from './reactions';
import { readStateRoutes } from './read-state';
import { reminderRoutes } from './reminders';
import { threadRoutes } from './threads';

export function channelViewRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  for (const area of [
    messageReadRoutes,
    messageEditRoutes,
    reactionRoutes,
    threadRoutes,
    readStateRoutes,
    channelAdminRoutes,
    memberUpdateRoutes,
    moderationRoutes,
    reminderRoutes,
  ]) {
    routes.route('/', area(ctx));
  }
  return routes;
}
