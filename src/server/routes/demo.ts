// `GET /demo/token?user=<id>`: the demo's token endpoint (development mode only). It stands in
// for the site's own endpoint that the widget's `token-endpoint` attribute points at, answering
// `{token, user}` for one of the seeded demo users.
import { Hono } from 'hono';
import { createUserToken } from '../auth/tokens';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import { sendJson } from '../http/request';
import { DEMO_USERS } from '../store/seed';

const TOKEN_LIFETIME_SECONDS = 60 * 60;

export type DemoTokenResponse = { token: string; user: { id: string; name: string; image?: string } };

export function demoRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();

  routes.get('/demo/token', async (c) => {
    const id = c.req.query('user') ?? '';
    const demoUser = DEMO_USERS.find((user) => user.id === id);
    if (!demoUser) throw ApiError.notFound(`"${id}" is not a demo user`);
    const stored = ctx.store.users.get(id);
    const response: DemoTokenResponse = {
      token: await createUserToken(id, ctx.config.apiSecret, { expiresInSeconds: TOKEN_LIFETIME_SECONDS }),
      user: {
        id,
        name: stored?.name ?? demoUser.name,
        ...(stored?.image ? { image: stored.image } : {}),
      },
    };
    const res = sendJson(response);
    // The widget fetches its token endpoint with credentials: 'include', which a wildcard
    // Access-Control-Allow-Origin does not satisfy.
    const origin = c.req.header('origin');
    if (origin) {
      res.headers.set('access-control-allow-origin', origin);
      res.headers.set('access-control-allow-credentials', 'true');
      res.headers.set('vary', 'Origin');
    }
    return res;
  });

  return routes;
}
