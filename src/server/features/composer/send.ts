// What sending a message involves beyond storing it: the sender's capabilities, a channel that
// takes messages (not disabled, frozen or in slow mode for them), a banned sender refused (a
// shadow-banned one stored shadowed), slash commands run (and may answer
// instead of storing), the channel type's blocklist blocks or flags the text, attachments are
// capped at 10 and images given their size, a poll is checked and tied to the message, a shared
// location is validated and stored, and the composer's draft is used up. The sender calls
// prepareSend() before storing, save() in the storing transaction, after() once sent.
import { randomUUID } from 'node:crypto';
import type { MessageResponse } from 'stream-chat';
import type { UserActor } from '../../auth/actor';
import { assertCapability, type ChannelAccess } from '../../auth/channel-access';
import { runCommand } from '../commands/run-command';
import { assertMaySend } from './may-send';
import { blockedReply, blocklistVerdict, moderationMark } from '../moderation/blocklist-check';
import { notifyMessageFlagged } from '../moderation/flag-events';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { optionalString, type JsonObject } from '../../http/input';
import { parseLocation, type LocationInput } from '../locations/shared-location';
import { Presenter } from '../../present/presenter';
import { dropDraftAfterSend } from '../../realtime/draft-events';
import type { ChannelRow } from '../../store/channels';
import type { MessageRow } from '../../store/messages';
import { attachmentList, withUploadDimensions } from '../uploads/attachments';

export type MessageMarks = { shadowed: boolean; moderation: string | null };

export type PreparedSend = {
  /** A command's answer to the sender: send it back and store nothing. */
  reply?: MessageResponse;
  /** The message input to store (with its id fixed and attachments completed). */
  input: JsonObject;
  /** Moderation's marks on the message to store (store/messages.ts NewMessage). */
  marks: MessageMarks;
  /** The sender's access to the channel, as checked here. */
  access: ChannelAccess;
  save(message: MessageRow): void;
  after(message: MessageRow): void;
};

export function prepareSend(ctx: ServerContext, channel: ChannelRow, actor: UserActor, raw: JsonObject): PreparedSend {
  const { store } = ctx;
  const { access, shadowed } = assertMaySend(ctx, channel, actor);
  const marks: MessageMarks = { shadowed, moderation: null };
  const noop = () => {};
  const reply = runCommand(ctx, channel, actor, raw);
  if (reply) return { reply, input: raw, marks, access, save: noop, after: noop };

  // The provider leaves messages sent server-side unmoderated (unless force_moderation, which
  // the message alone does not carry).
  const text = typeof raw.text === 'string' ? raw.text : '';
  const verdict = actor.server ? undefined : blocklistVerdict(store, access.type.config, text);
  if (verdict?.behavior === 'block') {
    const blocked = blockedReply(new Presenter(ctx, actor.id), channel, actor, raw, text);
    return { reply: blocked, input: raw, marks, access, save: noop, after: noop };
  }
  if (verdict) {
    marks.moderation = moderationMark(verdict);
    if (verdict.behavior === 'shadow_block') marks.shadowed = true;
  }

  // The id is settled here so the location can name its message before the message exists.
  const id = optionalString(raw.id, 'message.id') || randomUUID();
  const input: JsonObject = { ...raw, id };
  if (raw.attachments !== undefined) {
    input.attachments = withUploadDimensions(store, attachmentList(raw.attachments, 'message.attachments'));
  }

  const pollId = optionalString(raw.poll_id, 'message.poll_id');
  if (pollId) {
    assertCapability(channel, actor, access, 'send-poll');
    const poll = store.polls.get(pollId);
    if (!poll) throw ApiError.input(`poll ${pollId} does not exist`);
    if (poll.created_by_id !== actor.id) throw ApiError.input(`poll ${pollId} can only be sent by the user who created it`);
    if (poll.message_id) throw ApiError.input(`poll ${pollId} is already sent in message ${poll.message_id}`);
  }

  let location: LocationInput | undefined;
  if (raw.shared_location !== undefined && raw.shared_location !== null) {
    assertCapability(channel, actor, access, 'share-location');
    location = parseLocation(raw.shared_location, id);
  }

  return {
    input,
    marks,
    access,
    save(message) {
      // Automatic moderation files its flag in the author's name (store/flags.ts).
      if (verdict) store.flags.flag(actor.id, 'message', message.id, null, message.created_at);
      if (pollId) store.polls.attach(pollId, message.id, channel.cid);
      if (location) {
        store.locations.add({
          ...location,
          message_id: message.id,
          cid: channel.cid,
          user_id: actor.id,
          created_at: message.created_at,
          updated_at: message.created_at,
        });
      }
    },
    after(message) {
      if (verdict) notifyMessageFlagged(ctx, channel, message, null);
      dropDraftAfterSend(ctx, actor.id, channel.cid, message.parent_id);
    },
  };
}
