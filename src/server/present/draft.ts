// A draft as the composer restores it: the message, and the quoted and parent messages.
import type { DraftMessage, DraftResponse } from 'stream-chat';
import type { ServerContext } from '../http/context';
import type { JsonObject } from '../http/input';
import type { DraftRow } from '../store/drafts';
import type { Presenter } from './presenter';

export function presentDraft(ctx: ServerContext, presenter: Presenter, row: DraftRow, channel?: DraftResponse['channel']): DraftResponse {
  const message = JSON.parse(row.message) as DraftMessage & JsonObject;
  const related = ctx.store.messages.getMany([row.parent_id, message.quoted_message_id ?? ''].filter(Boolean));
  const parentRow = row.parent_id ? related.get(row.parent_id) : undefined;
  const [parent] = parentRow ? presenter.messages([parentRow]) : [];
  const quotedRow = message.quoted_message_id ? related.get(message.quoted_message_id) : undefined;
  const [quoted] = quotedRow ? presenter.messages([quotedRow]) : [];
  return {
    channel_cid: row.cid,
    created_at: row.created_at,
    message,
    ...(row.parent_id ? { parent_id: row.parent_id } : {}),
    ...(parent ? { parent_message: parent } : {}),
    ...(quoted ? { quoted_message: quoted } : {}),
    ...(channel ? { channel } : {}),
  };
}
