// Health checks: `GET /hi` is the SDK's warm-up call (client._sayHi); `GET /healthz` is for
// humans and scripts. Neither needs authentication.
import { Hono } from 'hono';
import type { APIResponse } from 'stream-chat';
import type { AppEnv } from '../http/context';
import { elapsed, sendJson } from './request';

export function healthRoutes() {
  const routes = new Hono<AppEnv>();
  routes.get('/hi', (c) => sendJson({ duration: elapsed(c) } satisfies APIResponse));
  routes.get('/healthz', (c) => c.text('ok\n'));
  return routes;
}
