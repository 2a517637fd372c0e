// `GET /demo/token?user=<id>`: the demo's token endpoint (development mode only). It stands in
// for the site's own endpoint that the widget's `token-endpoint` attribute points at, answering
// `{token, user}` for one of the seeded demo users.
//
// With `&support=1` it also plays the site's support desk: it gives the visitor a conversation
// of their own with the agent (`messaging:support-<id>`, made with the server-side SDK against
// this very backend, as a site's server would) and names it in the answer's `channel`, which
// the widget then opens. `user=guest` is a visitor who is not signed in: the site knows them by
// a cookie of its own and signs them in as a guest user, so guests get a private conversation
// too.
import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { StreamChat } from 'stream-chat';
import { createUserToken } from '../auth/tokens';
import type { AppEnv, ServerContext } from '../http/context';
import { requestHeader } from '../http/node-exchange';
import { ApiError } from '../http/errors';
import { sendJson } from './request';
import { DEMO_AGENT, DEMO_USERS } from '../store/seed';

const TOKEN_LIFETIME_SECONDS = 60 * 60;
const GUEST_COOKIE = 'demo-guest';

export type DemoTokenResponse = { token: string; user: { id: string; name: string; image?: string }; channel?: string };

export function demoRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();

  routes.get('/demo/token', async (c) => {
    const user = visitorOf(c);
    const stored = ctx.store.users.get(user.id);
    const response: DemoTokenResponse = {
      token: await createUserToken(user.id, ctx.config.apiSecret, { expiresInSeconds: TOKEN_LIFETIME_SECONDS }),
      user: { id: user.id, name: stored?.name ?? user.name, ...(stored?.image ? { image: stored.image } : {}) },
      ...(c.req.query('support') === '1' ? { channel: await supportChannelFor(ctx, c, user) } : {}),
    };
    const headers: Record<string, string> = {};
    if (user.newGuest) headers['set-cookie'] = `${GUEST_COOKIE}=${user.id}; Path=/; Max-Age=${60 * 60 * 24 * 30}; HttpOnly; SameSite=Lax`;
    // The widget fetches its token endpoint with credentials: 'include', which a wildcard
    // Access-Control-Allow-Origin does not satisfy.
    const origin = requestHeader(c, 'origin');
    if (origin) {
      headers['access-control-allow-origin'] = origin;
      headers['access-control-allow-credentials'] = 'true';
      headers.vary = 'Origin';
    }
    return sendJson(response, 200, headers);
  });

  return routes;
}

type Visitor = { id: string; name: string; guest: boolean; newGuest?: boolean };

function visitorOf(c: Context<AppEnv>): Visitor {
  const id = c.req.query('user') ?? '';
  if (id === 'guest') {
    // The site's own cookie is what makes a guest the same guest on their next visit.
    const known = getCookie(c, GUEST_COOKIE);
    const guestId = known && /^guest-[\w-]{8,40}$/.test(known) ? known : `guest-${randomUUID().slice(0, 8)}`;
    return { id: guestId, name: `Guest ${guestId.slice(6, 10)}`, guest: true, newGuest: guestId !== known };
  }
  const demoUser = [...DEMO_USERS, DEMO_AGENT].find((user) => user.id === id);
  if (!demoUser) throw ApiError.notFound(`"${id}" is not a demo user`);
  return { ...demoUser, guest: false };
}

/** The visitor's private conversation with the agent, made (or found) as the site's server would. */
async function supportChannelFor(ctx: ServerContext, c: Context<AppEnv>, visitor: Visitor): Promise<string> {
  if (visitor.id === DEMO_AGENT.id) throw ApiError.input('the agent answers from the inbox, not from a support conversation');
  const site = new StreamChat(ctx.config.apiKey, ctx.config.apiSecret, { baseURL: new URL(c.req.url).origin });
  await site.upsertUsers([
    { id: DEMO_AGENT.id, name: DEMO_AGENT.name },
    { id: visitor.id, name: ctx.store.users.get(visitor.id)?.name ?? visitor.name, ...(visitor.guest ? { role: 'guest' } : {}) },
  ]);
  const channel = site.channel('messaging', `support-${visitor.id}`, {
    name: `Support · ${visitor.name}`,
    members: [visitor.id, DEMO_AGENT.id],
    created_by_id: DEMO_AGENT.id,
  } as never);
  const created = await channel.create();
  // A new conversation opens with a greeting, so the visitor knows who will answer.
  if (created.messages.length === 0) {
    await channel.sendMessage({ text: `Hi ${visitor.name.split(' ')[0]}! Sam from Harbor & Pine here. How can I help?`, user_id: DEMO_AGENT.id });
  }
  return channel.cid;
}
