// Pending messages, as the provider has them: a message sent server-side with `pending: true`
// (and optional `pending_message_metadata`, string values) is stored and answered, and reaches
// nobody: no event, no webhook, no push, no unread count, no thread, and no query but its
// author's (store/visibility.ts). Its author finds it in their channel queries, both among the
// messages and in `pending_messages` with its metadata (the newest 100), and by id. It cannot be
// edited, reacted to or soft deleted; it can be hard deleted by its author, or committed:
// `POST /messages/{id}/commit` makes it an ordinary message sent now, moves the counters a send
// moves and raises message.new exactly as a send does. Committing is asked of the one policy as
// a change to the message (update-own-message for its author, update-any-message otherwise).
import type { MessageResponse } from 'stream-chat';
import type { Actor } from '../../auth/actor';
import { channelSettings } from '../../auth/channel-access';
import { assertMayChange, type MessageTarget } from '../../auth/message-access';
import type { Subject } from '../../auth/tokens';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { isObject, optionalBoolean, type JsonObject } from '../../http/input';
import { deliverMessage } from './deliver-message';
import { countMessage } from './store-message';

const MAX_METADATA_KEYS = 50;
const MAX_METADATA_CHARS = 1000;

/** The send request's `pending` (or the deprecated `is_pending_message`) and its metadata. */
export function pendingOption(body: JsonObject, subject: Subject): { metadata: Record<string, string> | null } | undefined {
  const pending = optionalBoolean(body.pending, 'pending') ?? optionalBoolean(body.is_pending_message, 'is_pending_message') ?? false;
  const raw = body.pending_message_metadata;
  const given = raw !== undefined && raw !== null;
  if (!pending && !given) return undefined;
  if (subject.kind !== 'server') {
    throw ApiError.notAllowed('pending messages are a server-side feature: send them with the app secret');
  }
  if (!pending) throw ApiError.input('pending_message_metadata needs pending: true');
  return { metadata: given ? metadataOf(raw) : null };
}

function metadataOf(raw: unknown): Record<string, string> {
  if (!isObject(raw)) throw ApiError.input('pending_message_metadata must be an object of strings');
  const entries = Object.entries(raw);
  if (entries.length > MAX_METADATA_KEYS) throw ApiError.input(`pending_message_metadata has more than ${MAX_METADATA_KEYS} keys`);
  for (const [key, value] of entries) {
    if (typeof value !== 'string') throw ApiError.input(`pending_message_metadata.${key} must be a string`);
    if (value.length > MAX_METADATA_CHARS) throw ApiError.input(`pending_message_metadata.${key} is longer than ${MAX_METADATA_CHARS} characters`);
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

/** Commits the pending message: delivered now, as if sent now. */
export function commitMessage(ctx: ServerContext, target: MessageTarget, actor: Actor): MessageResponse {
  const { store } = ctx;
  const { message, channel } = target;
  // Only the first commit succeeds; later ones find an ordinary message.
  if (!message.pending) throw ApiError.input(`message ${message.id} is not pending: it was committed already or never sent pending`);
  if (message.deleted_at) throw ApiError.input(`message ${message.id} was deleted while it was pending`);
  assertMayChange(target, actor, 'update');
  const held = store.pendingMessages.get(message.id);
  const config = channelSettings(ctx, channel).config;
  const committed = store.transaction(() => {
    const row = store.pendingMessages.release(message.id, new Date().toISOString());
    if (!row) throw ApiError.input(`message ${message.id} is not pending: it was committed already`);
    // A shadow-banned author's message stays theirs alone, committed or not.
    if (!row.shadowed) countMessage(ctx, channel, row, config.read_events === true, store.channels.member(channel.cid, row.user_id) !== undefined);
    return row;
  });
  return deliverMessage(ctx, channel, committed, { skipPush: held?.skip_push === 1 });
}

/**
 * Deleting a pending message: only hard, as the provider requires, by its author (or whoever may
 * delete their messages). Nobody else ever saw it, so nobody is told.
 */
export function deletePendingMessage(ctx: ServerContext, target: MessageTarget, actor: Actor, hard: boolean, present: (row: MessageTarget['message']) => MessageResponse): MessageResponse {
  const { store } = ctx;
  const { message } = target;
  if (!hard) throw ApiError.input(`message ${message.id} is pending: a pending message can only be hard deleted (hard=true)`);
  assertMayChange(target, actor, 'delete');
  const row = store.transaction(() => {
    store.pendingMessages.remove(message.id);
    store.reactions.removeAllOf(message.id);
    store.reminders.removeAllOf(message.id);
    store.messageHistory.removeAllOf(message.id);
    return store.messageEdits.hardDelete(message.id, new Date().toISOString());
  });
  return present(row);
}

