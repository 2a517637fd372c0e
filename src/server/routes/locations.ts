// Live locations: `GET /users/live_locations` (the user's shares still live, which the SDK's
// LiveLocationManager restores on start) and `PUT /users/live_locations` (move or stop a share;
// stopLiveLocationSharing sends end_at = now). Each update is a message.updated to the channel.
import { Hono } from 'hono';
import type { ActiveLiveLocationsAPIResponse, APIResponse, SharedLiveLocationResponse, SharedLocationResponse } from 'stream-chat';
import { actorFor, requireUser } from '../auth/actor';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, readPayload, requireAuth, sendJson } from './request';
import { namedUserId, optionalString, requiredString } from '../http/input';
import { coordinate, date } from '../features/messages/shared-location';
import { presentLocation } from '../present/location';
import { publishMessageEvent } from '../events/message-events';

export function locationRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);
  const { store } = ctx;

  routes.get('/users/live_locations', auth, (c) => {
    const actor = requireUser(actorFor(store, c.get('subject'), namedUserId(readPayload(c)) ?? c.req.query('user_id')), 'share locations');
    const rows = store.locations.active(actor.id, new Date().toISOString());
    const response: ActiveLiveLocationsAPIResponse = {
      active_live_locations: rows.map((row) => presentLocation(row) as SharedLiveLocationResponse),
      duration: elapsed(c),
    };
    return sendJson(response);
  });

  routes.put('/users/live_locations', auth, async (c) => {
    const body = await readJson(c);
    // The SDKs send a server-side update's user in the query string, as for the GET.
    const actor = requireUser(actorFor(store, c.get('subject'), namedUserId(body) ?? c.req.query('user_id')), 'share locations');
    const messageId = requiredString(body.message_id, 'message_id');
    const row = store.locations.get(messageId);
    if (!row) throw ApiError.notFound(`message ${messageId} has no shared location`);
    if (row.user_id !== actor.id && !actor.server) throw ApiError.notAllowed('only the user who shares a location can update it');
    if (!row.end_at) throw ApiError.input('a static location cannot be updated; only live ones can');
    const now = new Date();
    if (row.end_at <= now.toISOString()) throw ApiError.input(`this live location ended at ${row.end_at}`);
    const message = store.messages.get(messageId);
    if (!message || message.deleted_at) throw ApiError.input('the message sharing this location is deleted');

    const endAt = optionalString(body.end_at, 'end_at');
    // An end in the past is a stop: the share ends now.
    const end = endAt === undefined ? row.end_at : new Date(Math.max(date(endAt, 'end_at').getTime(), now.getTime())).toISOString();
    const updated = {
      ...row,
      latitude: body.latitude === undefined ? row.latitude : coordinate(body.latitude, 'latitude', 90),
      longitude: body.longitude === undefined ? row.longitude : coordinate(body.longitude, 'longitude', 180),
      created_by_device_id: optionalString(body.created_by_device_id, 'created_by_device_id') || row.created_by_device_id,
      end_at: end,
      updated_at: now.toISOString(),
    };
    store.locations.update(updated);
    const channel = store.channels.get(row.cid);
    if (channel) publishMessageEvent(ctx, channel, 'message.updated', message, actor.id);
    const response: SharedLocationResponse & APIResponse = { ...presentLocation(updated), duration: elapsed(c) };
    return sendJson(response);
  });

  return routes;
}
