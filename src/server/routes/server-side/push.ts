// Server-side push calls: `POST /push_providers` (upsertPushProvider), `GET /push_providers`
// (listPushProviders), `DELETE /push_providers/{type}/{name}` (deletePushProvider),
// `POST /check_push` (testPushSettings), `POST /check_sqs` and `POST /check_sns`
// (testSQSSettings, testSNSSettings). What pushes are sent, and how: features/push.
import { Hono } from 'hono';
import type { APIResponse, CheckPushResponse, CheckSNSResponse, CheckSQSResponse } from 'stream-chat';
import { checkPush } from '../../features/push/check-push';
import { checkedProvider, providerName, providerType, storedProvider, type ProviderConfig } from '../../features/push/provider-config';
import { checkSns, checkSqs } from '../../features/webhooks/check-queues';
import type { AppEnv, ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { elapsed, readJson, requireServerSide, sendJson } from '../request';

/** Providers an app keeps at most (multi-bundle apps have a few per type). */
const MAX_PROVIDERS = 25;

export function pushAdminRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const server = requireServerSide(ctx);

  routes.post('/push_providers', server, async (c) => {
    const body = await readJson(c);
    const config = await checkedProvider(body.push_provider);
    const { type, name } = config;
    if (!ctx.store.pushProviders.get(type, name) && ctx.store.pushProviders.all().length >= MAX_PROVIDERS) {
      throw ApiError.input(`an app can have at most ${MAX_PROVIDERS} push providers`);
    }
    const row = ctx.store.pushProviders.upsert(type, name, JSON.stringify(config), new Date().toISOString());
    // The SDK's type says `push_provider: PushProvider` (the type's name); the provider answers the configuration.
    return sendJson({ push_provider: storedProvider(row), duration: elapsed(c) } satisfies APIResponse & { push_provider: ProviderConfig });
  });

  routes.get('/push_providers', server, (c) => {
    const providers = ctx.store.pushProviders.all().map(storedProvider);
    return sendJson({ push_providers: providers, duration: elapsed(c) } satisfies APIResponse & { push_providers: ProviderConfig[] });
  });

  routes.delete('/push_providers/:type/:name', server, (c) => {
    const type = providerType(c.req.param('type'));
    const name = providerName(c.req.param('name'));
    if (!ctx.store.pushProviders.remove(type, name)) throw ApiError.notFound(`push provider ${type}/${name} does not exist`);
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  routes.post('/check_push', server, async (c) => {
    const result = await checkPush(ctx, await readJson(c));
    return sendJson({ ...result, duration: elapsed(c) } satisfies CheckPushResponse);
  });

  routes.post('/check_sqs', server, async (c) => {
    const result = await checkSqs(ctx, await readJson(c));
    return sendJson({ ...result, duration: elapsed(c) } satisfies CheckSQSResponse);
  });

  routes.post('/check_sns', server, async (c) => {
    const result = await checkSns(ctx, await readJson(c));
    return sendJson({ ...result, duration: elapsed(c) } satisfies CheckSNSResponse);
  });

  return routes;
}
