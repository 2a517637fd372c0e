// Drafts: `POST /channels/{type}/{id}/draft` (create or replace the user's draft of that
// composer: the channel's, or a thread's by message.parent_id), `GET` and `DELETE …/draft
// ?parent_id=`, and `POST /drafts/query`. Each change is a draft.updated / draft.deleted to the
// owner's connections; sending a message removes the composer's draft (routes/messages.ts).
import { Hono, type Context } from 'hono';
import type { APIResponse, CreateDraftResponse, GetDraftResponse, QueryDraftsResponse } from 'stream-chat';
import { actorFor, requireUser, type UserActor } from '../auth/actor';
import { accessTo, assertCanRead, assertCapability } from '../auth/channel-access';
import { presentChannel } from '../present/channel';
import type { AppEnv, ServerContext } from '../http/context';
import { draftMessage } from '../features/messages/draft-message';
import { presentDraft } from '../present/draft';
import { ApiError } from '../http/errors';
import { elapsed, readJson, requireAuth, sendJson } from './request';
import { isObject, namedUserId, optionalString, withoutKeys } from '../http/input';
import { cursors, pageOf } from '../http/paging';
import { Presenter } from '../present/presenter';
import { notifyDraft } from '../events/draft-events';
import type { ChannelRow } from '../store/channels';
import { existingChannel } from './channels';

/** Who a server-side draft belongs to: said in the message, not stored with it. */
const DRAFT_OWNER = new Set(['user_id', 'user']);

export function draftRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);
  const { store } = ctx;

  /** The channel and the user whose draft it is; drafts need the right to write there. */
  const target = (c: Context<AppEnv>, userId: string | undefined): { channel: ChannelRow; actor: UserActor } => {
    const actor = requireUser(actorFor(store, c.get('subject'), userId), 'keep drafts');
    const channel = existingChannel(ctx, c.req.param('type') ?? '', c.req.param('id') ?? '');
    const access = accessTo(ctx, channel, actor);
    assertCanRead(channel, actor, access);
    assertCapability(channel, actor, access, 'send-message');
    return { channel, actor };
  };
  const parentOf = (c: Context<AppEnv>) => optionalString(c.req.query('parent_id'), 'parent_id') ?? '';

  routes.post('/channels/:type/:id/draft', auth, async (c) => {
    const body = await readJson(c);
    // Server-side, the SDK names the user inside the draft's message (`createDraft({text, user_id})`).
    const { channel, actor } = target(c, namedUserId(body) ?? (isObject(body.message) ? namedUserId(body.message) : undefined));
    const message = draftMessage(ctx, channel, actor.id, isObject(body.message) ? withoutKeys(body.message, DRAFT_OWNER) : body.message);
    const row = {
      user_id: actor.id,
      cid: channel.cid,
      parent_id: message.parent_id ?? '',
      message: JSON.stringify(message),
      created_at: new Date().toISOString(),
    };
    store.drafts.save(row);
    const response: CreateDraftResponse = { draft: notifyDraft(ctx, 'draft.updated', row), duration: elapsed(c) };
    return sendJson(response);
  });

  routes.get('/channels/:type/:id/draft', auth, (c) => {
    const { channel, actor } = target(c, c.req.query('user_id'));
    const row = store.drafts.get(actor.id, channel.cid, parentOf(c));
    if (!row) throw ApiError.notFound(`no draft in ${channel.cid}${parentOf(c) ? ` thread ${parentOf(c)}` : ''}`);
    const response: GetDraftResponse = { draft: presentDraft(ctx, new Presenter(ctx, actor.id), row), duration: elapsed(c) };
    return sendJson(response);
  });

  // Deleting a draft that is already gone succeeds: the composer deletes its draft after
  // sending, when sending has already removed it.
  routes.delete('/channels/:type/:id/draft', auth, (c) => {
    const { channel, actor } = target(c, c.req.query('user_id'));
    const removed = store.drafts.remove(actor.id, channel.cid, parentOf(c));
    if (removed) notifyDraft(ctx, 'draft.deleted', removed);
    const response: APIResponse = { duration: elapsed(c) };
    return sendJson(response);
  });

  routes.post('/drafts/query', auth, async (c) => {
    const body = await readJson(c);
    const actor = requireUser(actorFor(store, c.get('subject'), namedUserId(body)), 'query drafts');
    const page = pageOf(body, { fallback: 25, max: 100 });
    const rows = store.drafts.query(actor.id, body.filter, body.sort, page.limit, page.offset);
    const presenter = new Presenter(ctx, actor.id);
    const drafts = rows.flatMap((row) => {
      const channel = store.channels.get(row.cid);
      // A channel the user can no longer read takes its drafts out of sight.
      if (!channel || !accessTo(ctx, channel, actor).canRead) return [];
      return [presentDraft(ctx, presenter, row, presentChannel(presenter, channel, accessTo(ctx, channel, actor)))];
    });
    const response: QueryDraftsResponse = { drafts, ...cursors(page, rows.length), duration: elapsed(c) };
    return sendJson(response);
  });

  return routes;
}
