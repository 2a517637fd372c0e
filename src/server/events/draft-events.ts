// draft.updated / draft.deleted go to every connection of the draft's owner (drafts are
// private), so the same composer on another device or tab follows along. The SDK matches them
// to a composer by draft.channel_cid and draft.parent_id (messageComposer.ts subscribeDraft*).
import type { DraftResponse } from 'stream-chat';
import type { ServerContext } from '../http/context';
import { presentDraft } from '../present/draft';
import { Presenter } from '../present/presenter';
import type { DraftRow } from '../store/drafts';

export function notifyDraft(ctx: ServerContext, type: 'draft.updated' | 'draft.deleted', row: DraftRow): DraftResponse {
  const presenter = new Presenter(ctx, row.user_id);
  const draft = presentDraft(ctx, presenter, row);
  const [channelType = '', channelId = ''] = row.cid.split(/:(.*)/s);
  ctx.hub.toUser(row.user_id, {
    type,
    cid: row.cid,
    channel_type: channelType,
    channel_id: channelId,
    draft,
    user: presenter.user(row.user_id),
    created_at: new Date().toISOString(),
  });
  return draft;
}

/** Sending a message in a composer uses up its draft. */
export function dropDraftAfterSend(ctx: ServerContext, userId: string, cid: string, parentId: string | null): void {
  const removed = ctx.store.drafts.remove(userId, cid, parentId ?? '');
  if (removed) notifyDraft(ctx, 'draft.deleted', removed);
}
