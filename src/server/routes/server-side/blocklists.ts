// Blocklists, a server-side call: `POST /blocklists` (createBlockList), `GET /blocklists`
// (listBlockLists), `GET`/`PUT`/`DELETE /blocklists/{name}` (getBlockList, updateBlockList,
// deleteBlockList). A channel type uses one through its `blocklist` and `blocklist_behavior`
// config (features/moderation/blocklist-check.ts). The provider's limits apply: 15 lists, 10,000
// words of at most 40 characters each. Only `word` lists are matched offline. The provider's
// built-in lists (store/builtin-blocklists.ts) are listed and read beside the app's own, and
// refuse changes.
import { Hono } from 'hono';
import type { APIResponse, BlockListResponse } from 'stream-chat';
import type { AppEnv, ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { optionalString, requiredString } from '../../http/input';
import { elapsed, readJson, requireServerSide, sendJson } from '../request';
import type { BlocklistRow } from '../../store/blocklists';

const MAX_LISTS = 15;
const MAX_WORDS = 10_000;
const MAX_WORD_LENGTH = 40;
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function blocklistRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const server = requireServerSide(ctx);

  const existing = (name: string): BlocklistRow => {
    const row = ctx.store.blocklists.get(name);
    if (!row) throw ApiError.notFound(`blocklist ${name} does not exist`);
    return row;
  };
  /** The app's own list of that name: a built-in one is the provider's, not the app's to change. */
  const changeable = (name: string, change: 'updated' | 'deleted'): BlocklistRow => {
    const row = existing(name);
    if (ctx.store.blocklists.isBuiltin(name)) throw ApiError.input(`blocklist ${name} is built in and cannot be ${change}`);
    return row;
  };

  routes.post('/blocklists', server, async (c) => {
    const body = await readJson(c);
    const name = requiredString(body.name, 'name');
    if (!NAME.test(name)) throw ApiError.input('name may hold only letters, digits, "-" and "_" (at most 64)');
    const type = optionalString(body.type, 'type') ?? 'word';
    if (type !== 'word') throw ApiError.input(`blocklist type "${type}" is not supported by this backend (only "word")`);
    const words = wordList(body.words);
    if (ctx.store.blocklists.count() >= MAX_LISTS) throw ApiError.input(`an app can have at most ${MAX_LISTS} blocklists`);
    if (!ctx.store.blocklists.create(name, type, words, new Date().toISOString())) {
      throw ApiError.input(`blocklist ${name} already exists`);
    }
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  routes.get('/blocklists', server, (c) => {
    const blocklists = ctx.store.blocklists.all().map(presentBlocklist);
    return sendJson({ blocklists, duration: elapsed(c) } satisfies APIResponse & { blocklists: BlockListResponse[] });
  });

  routes.get('/blocklists/:name', server, (c) => {
    const blocklist = presentBlocklist(existing(c.req.param('name')));
    return sendJson({ blocklist, duration: elapsed(c) } satisfies APIResponse & { blocklist: BlockListResponse });
  });

  routes.put('/blocklists/:name', server, async (c) => {
    const body = await readJson(c);
    const { name } = changeable(c.req.param('name'), 'updated');
    ctx.store.blocklists.setWords(name, wordList(body.words), new Date().toISOString());
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  routes.delete('/blocklists/:name', server, (c) => {
    const { name } = changeable(c.req.param('name'), 'deleted');
    // Deleting a list a channel type uses would silently turn its moderation off.
    const users = ctx.store.channelTypes.all().filter((type) => type.config.blocklist === name).map((type) => type.config.name);
    if (users.length) throw ApiError.input(`blocklist "${name}" is used by the channel types ${users.join(', ')}; change them first`);
    ctx.store.blocklists.remove(name);
    return sendJson({ duration: elapsed(c) } satisfies APIResponse);
  });

  return routes;
}

function wordList(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((word): word is string => typeof word === 'string')) {
    throw ApiError.input('words must be a list of strings');
  }
  if (value.length > MAX_WORDS) throw ApiError.input(`a blocklist holds at most ${MAX_WORDS} words`);
  const bad = value.find((word) => !word.trim() || word.length > MAX_WORD_LENGTH);
  if (bad !== undefined) throw ApiError.input(`blocklist words must be 1 to ${MAX_WORD_LENGTH} characters long: "${bad}"`);
  return value;
}

function presentBlocklist(row: BlocklistRow): BlockListResponse {
  return {
    name: row.name,
    type: row.type,
    words: JSON.parse(row.words) as string[],
    // The provider's answer always says which extra matching a list does; here, none of it.
    is_leet_check_enabled: false,
    is_plural_check_enabled: false,
    is_confusable_folding_enabled: false,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
