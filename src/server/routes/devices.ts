// Push devices: `POST /devices` (addDevice), `GET /devices` (getDevices), `DELETE /devices`
// (removeDevice). Users manage their own; a server-side call (or an admin) names the user in
// `user_id`. A user keeps at most 25 devices, the oldest going first.
import { Hono } from 'hono';
import type { APIResponse, Device } from 'stream-chat';
import { deviceId, registerDevice, subjectUser } from '../features/push/devices';
import { presentDevice } from '../present/push';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { elapsed, readJson, requireAuth, sendJson } from './request';

export function deviceRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);

  routes.post('/devices', auth, async (c) => {
    const body = await readJson(c);
    const userId = subjectUser(ctx, c, body.user_id, 'add devices');
    registerDevice(ctx, userId, body);
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  routes.get('/devices', auth, (c) => {
    const userId = subjectUser(ctx, c, c.req.query('user_id'), 'list devices');
    const devices = ctx.store.devices.ofUser(userId).map(presentDevice);
    return sendJson({ devices, duration: elapsed(c) } satisfies APIResponse & { devices: Device[] });
  });

  routes.delete('/devices', auth, (c) => {
    const userId = subjectUser(ctx, c, c.req.query('user_id'), 'remove devices');
    const id = deviceId(c.req.query('id'));
    if (!ctx.store.devices.remove(id, userId)) throw ApiError.notFound(`device ${id} of user ${userId} does not exist`);
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  return routes;
}
