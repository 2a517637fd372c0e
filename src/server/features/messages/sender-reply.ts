// A message only its sender gets back, in the send response, and that is never stored: a slash
// command's answer (`ephemeral` or `error`) or a message moderation blocked (`error`).
import { randomUUID } from 'node:crypto';
import type { MessageLabel, MessageResponse } from 'stream-chat';
import type { UserActor } from '../../auth/actor';
import type { JsonObject } from '../../http/input';
import type { Presenter } from '../../present/presenter';
import type { ChannelRow } from '../../store/channels';

export type ReplyFields = Partial<MessageResponse> & { type: MessageLabel; text: string };

export function senderReply(
  presenter: Presenter,
  channel: ChannelRow,
  actor: UserActor,
  input: JsonObject,
  fields: ReplyFields,
): MessageResponse {
  const now = new Date().toISOString();
  return {
    // The SDK replaces its optimistic copy by id, so the reply keeps the id the client chose.
    id: typeof input.id === 'string' && input.id ? input.id : randomUUID(),
    cid: channel.cid,
    html: '',
    user: presenter.user(actor.id),
    attachments: [],
    mentioned_users: [],
    latest_reactions: [],
    own_reactions: [],
    reaction_counts: {},
    reaction_scores: {},
    reply_count: 0,
    silent: false,
    shadowed: false,
    pinned: false,
    ...(typeof input.parent_id === 'string' && input.parent_id ? { parent_id: input.parent_id } : {}),
    created_at: now,
    updated_at: now,
    ...fields,
  };
}
