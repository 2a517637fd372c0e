// What sending a message involves beyond storing it, for the composer's features: a banned
// sender is refused, slash commands run (and may answer instead of storing), attachments are
// capped at 10 and images given their size, a poll is checked and tied to the message, a shared
// location is validated and stored, and the composer's draft is used up. routes/messages.ts
// calls prepareSend() before storing, save() in the storing transaction, after() once sent.
import { randomUUID } from 'node:crypto';
import type { MessageResponse } from 'stream-chat';
import type { UserActor } from '../../auth/actor';
import { accessTo, assertCapability } from '../../auth/channel-access';
import { runCommand } from '../commands/run-command';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { optionalString, type JsonObject } from '../../http/input';
import { parseLocation, type LocationInput } from '../locations/shared-location';
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
  save(message: MessageRow): void;
  after(message: MessageRow): void;
};

export function prepareSend(ctx: ServerContext, channel: ChannelRow, actor: UserActor, raw: JsonObject): PreparedSend {
  const { store } = ctx;
  const access = accessTo(ctx, channel, actor);
  assertCapability(channel, actor, access, 'send-message');
  if (store.bans.active(channel.cid, actor.id)) throw ApiError.notAllowed(`you are banned from ${channel.cid}`);
  assertNotBlockedInDirectChannel(ctx, channel, actor.id);
  const marks: MessageMarks = { shadowed: false, moderation: null };
  const noop = () => {};
  const reply = runCommand(ctx, channel, actor, raw);
  if (reply) return { reply, input: raw, marks, save: noop, after: noop };

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
    save(message) {
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
      dropDraftAfterSend(ctx, actor.id, channel.cid, message.parent_id);
    },
  };
}

/**
 * A direct conversation (two members) between users one of whom blocked the other takes no
 * new messages from either.
 */
function assertNotBlockedInDirectChannel(ctx: ServerContext, channel: ChannelRow, senderId: string): void {
  if (channel.member_count !== 2) return;
  const other = ctx.store.channels.memberIds(channel.cid).find((id) => id !== senderId);
  if (other && ctx.store.blocks.betweenEither(senderId, other)) {
    throw ApiError.notAllowed(`messages between ${senderId} and ${other} are blocked in the direct conversation ${channel.cid}`);
  }
}
