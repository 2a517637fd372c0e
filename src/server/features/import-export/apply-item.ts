// Applying one checked import item (check-item.ts) to the store, in the import's transaction:
// mode `upsert` updates what exists, `insert` leaves it (the item then counts as skipped). An item
// that refers to a user, channel or message that neither the file (so far) nor the backend has
// fails the import there. Imported data raises no events: nobody is watching data that did not
// exist, as with the provider's imports.
// - Members carry their channel role (or is_moderator), an invitation and its answer, hiding,
//   the history they cleared and their read position (`last_read`). The read position's unread
//   count depends on the messages after it, which come later in the file: it is noted here and
//   set once every item is in (ReadPositions).
// - A message keeps its thread (`parent_id`: the parent must be in the channel already, and not
//   be a reply itself, as the provider requires), its quote, mentions, pin and deletion.
import type { ServerContext } from '../../http/context';
import { withoutKeys, type JsonObject } from '../../http/input';
import type { ChannelRow } from '../../store/channels';
import { createChannel } from '../channels/create-channel';
import { pushOptions } from '../push/push-options';
import { userPatch } from '../users/user-fields';
import { authorOf, bad, channelOf, channelOfChannel, date, flag, messageTypeOf, text, visibleTo } from './check-item';
import type { ImportLine } from './import-file';
import type { ItemType } from './import-items';

export type ImportMode = 'upsert' | 'insert';

const CHANNEL_FIELDS = new Set([
  'id', 'type', 'cid', 'member_ids', 'created_by', 'created_by_id', 'name', 'frozen', 'created_at', 'updated_at',
  'member_count', 'members', 'config', 'own_capabilities',
]);
const MESSAGE_FIELDS = new Set([
  'id', 'channel_type', 'channel_id', 'channel_member_ids', 'cid', 'user', 'user_id', 'text', 'type', 'parent_id',
  'show_in_channel', 'quoted_message_id', 'mentioned_users_ids', 'mentioned_users', 'attachments', 'created_at',
  'updated_at', 'deleted_at', 'pinned_at', 'pinned_by_id', 'pin_expires', 'restricted_visibility', 'html', 'reply_count', 'latest_reactions',
  'own_reactions', 'reaction_counts', 'reaction_scores', 'reaction_groups', 'thread_participants', 'pinned', 'silent_at',
]);
const REACTION_FIELDS = new Set(['message_id', 'user_id', 'user', 'type', 'score', 'created_at', 'updated_at']);

type ReadPosition = { cid: string; userId: string; at: string };

/**
 * Members' read positions, set once the messages after them are imported. Those of a chunk are
 * kept only once its transaction is committed (`keep`): a chunk rolled back leaves none.
 */
export class ReadPositions {
  private readonly pending = new Map<string, ReadPosition>();
  private staged: ReadPosition[] = [];

  note(cid: string, userId: string, at: string): void {
    this.staged.push({ cid, userId, at });
  }

  /** The chunk's transaction is committed: its positions will be set. */
  keep(): void {
    for (const read of this.staged) this.pending.set(`${read.cid}\n${read.userId}`, read);
    this.staged = [];
  }

  /** The chunk's transaction was rolled back. */
  drop(): void {
    this.staged = [];
  }

  /** Each member has read up to their position: the messages from others after it are unread. */
  apply(ctx: ServerContext): void {
    const { store } = ctx;
    store.transaction(() => {
      for (const { cid, userId, at } of this.pending.values()) {
        if (!store.channels.member(cid, userId)) continue;
        // Everything at or before `at` is read, whatever the order of equal timestamps.
        const position = { created_at: at, seq: Number.MAX_SAFE_INTEGER };
        const last = store.messageQueries.previousInChannel(cid, position, userId);
        store.reads.start(cid, [userId], at);
        store.reads.markUnread(cid, userId, at, last?.id ?? null, store.messageQueries.countFrom(cid, userId, position));
      }
    });
    this.pending.clear();
  }
}

type Apply = { ctx: ServerContext; line: ImportLine; mode: ImportMode; now: string; reads: ReadPositions };

/** Applies one checked item; false when `insert` mode found it existing and left it. */
export function applyItem(ctx: ServerContext, line: ImportLine, mode: ImportMode, reads: ReadPositions): boolean {
  const apply: Apply = { ctx, line, mode, now: new Date().toISOString(), reads };
  switch (line.type as ItemType) {
    case 'user':
      return applyUser(apply);
    case 'channel':
      return applyChannel(apply);
    case 'member':
      return applyMember(apply);
    case 'message':
      return applyMessage(apply);
    case 'reaction':
      return applyReaction(apply);
    case 'device':
      return applyDevice(apply);
  }
}

function requireUser({ ctx, line }: Apply, id: string): void {
  if (!ctx.store.users.get(id)) throw bad(line, `user ${id} does not exist: import it before what refers to it`);
}

/** The channel a member or message item names, which must exist and not be deleted. */
function liveChannel({ ctx, line }: Apply, what: string): ChannelRow {
  const { type, id } = channelOf(line);
  const channel = ctx.store.channels.get(`${type}:${id}`);
  if (!channel || channel.deleted_at) throw bad(line, `channel ${type}:${id} does not exist: import it before its ${what}`);
  return channel;
}

function applyUser({ ctx, line, mode }: Apply): boolean {
  const { item } = line;
  const id = item.id as string;
  if (mode === 'insert' && ctx.store.users.get(id)) return false;
  ctx.store.users.upsert(userPatch(id, item as JsonObject, { allowRole: true }));
  const deactivatedAt = date(line, 'deactivated_at');
  const deletedAt = date(line, 'deleted_at');
  if (deactivatedAt || deletedAt) {
    ctx.store.users.setLifecycle(id, { ...(deactivatedAt ? { deactivated_at: deactivatedAt } : {}), ...(deletedAt ? { deleted_at: deletedAt } : {}) });
  }
  return true;
}

function applyChannel(apply: Apply): boolean {
  const { ctx, line, mode, now } = apply;
  const { store } = ctx;
  const { item } = line;
  const { type, id } = channelOfChannel(line);
  if (!store.channelTypes.get(type)) throw bad(line, `channel type ${type} does not exist`);
  const creator = (text(line, 'created_by', false) ?? text(line, 'created_by_id')) as string;
  requireUser(apply, creator);
  // A soft-deleted channel is gone: the item makes it anew (createChannel replaces it).
  const found = store.channels.get(`${type}:${id}`);
  const existing = found && !found.deleted_at ? found : undefined;
  if (existing && mode === 'insert') return false;
  // Members come as items of their own, and nobody is told (see above).
  const row = existing ?? createChannel(ctx, {
    type,
    id,
    creatorId: creator,
    creatorJoins: false,
    memberIds: [],
    data: item as JsonObject,
    notCustom: CHANNEL_FIELDS,
    now: date(line, 'created_at') ?? now,
    announce: false,
  });
  if (existing || item.frozen !== undefined) {
    store.channelAdmin.setData(row.cid, {
      name: existing ? (typeof item.name === 'string' ? item.name : null) : row.name,
      custom: existing ? withoutKeys(item as JsonObject, CHANNEL_FIELDS) : (JSON.parse(row.custom) as JsonObject),
      frozen: item.frozen !== undefined ? flag(line, 'frozen') : row.frozen === 1,
      disabled: row.disabled === 1,
      cooldown: row.cooldown,
    }, existing ? now : row.updated_at);
  }
  return true;
}

function applyMember(apply: Apply): boolean {
  const { ctx, line, mode, now, reads } = apply;
  const { store } = ctx;
  const channel = liveChannel(apply, 'members');
  const userId = text(line, 'user_id') as string;
  requireUser(apply, userId);
  const existing = store.channels.member(channel.cid, userId);
  if (existing && mode === 'insert') return false;
  const joined = date(line, 'created_at') ?? now;
  const invited = flag(line, 'invited');
  if (!existing) {
    if (invited) store.channelAdmin.invite(channel.cid, [userId], joined);
    else store.channels.addMembers(channel.cid, [userId], userId === channel.created_by_id ? 'owner' : 'member', joined);
  }
  const channelRole = text(line, 'channel_role', false) ?? (flag(line, 'is_moderator') ? 'channel_moderator' : undefined);
  if (channelRole) {
    const role = userId === channel.created_by_id ? 'owner' : channelRole === 'channel_moderator' ? 'moderator' : 'member';
    store.imports.setMemberRole(channel.cid, userId, role, channelRole, now);
  }
  const accepted = date(line, 'invite_accepted_at');
  const rejected = date(line, 'invite_rejected_at');
  if (accepted || rejected) store.channelAdmin.answerInvite(channel.cid, userId, Boolean(accepted), (accepted ?? rejected) as string);
  if (flag(line, 'hide_channel')) store.channelAdmin.hide(channel.cid, userId, false, now);
  const hiddenBefore = date(line, 'hide_messages_before');
  if (hiddenBefore) store.channelAdmin.hideHistoryBefore(channel.cid, [userId], hiddenBefore);
  // An invitation not accepted yet has no read state (it starts when it is accepted); a new
  // member the file gives no position has read everything; a member kept keeps theirs.
  const lastRead = date(line, 'last_read');
  if ((!invited || accepted) && (lastRead || !existing)) reads.note(channel.cid, userId, lastRead ?? now);
  return true;
}

function applyMessage(apply: Apply): boolean {
  const { ctx, line, mode, now } = apply;
  const { store } = ctx;
  const { item } = line;
  const channel = liveChannel(apply, 'messages');
  const id = text(line, 'id') as string;
  const userId = authorOf(line);
  requireUser(apply, userId);
  const body = typeof item.text === 'string' ? item.text : '';
  const attachments = Array.isArray(item.attachments) ? item.attachments : [];
  const custom = withoutKeys(item as JsonObject, MESSAGE_FIELDS);
  const deletedAt = date(line, 'deleted_at') ?? null;
  const updatedAt = date(line, 'updated_at') ?? now;
  const pinnedAt = date(line, 'pinned_at') ?? null;
  const pin = {
    pinned_at: pinnedAt,
    pinned_by_id: pinnedAt ? (text(line, 'pinned_by_id') as string) : null,
    pin_expires: pinnedAt ? (date(line, 'pin_expires') ?? null) : null,
  };
  const existing = store.messages.get(id);
  if (existing) {
    if (existing.cid !== channel.cid) throw bad(line, `message ${id} exists in another channel`);
    if (mode === 'insert') return false;
    store.imports.updateMessage(id, body, attachments, custom, updatedAt, deletedAt);
    store.messageEdits.write(id, pin, updatedAt);
    return true;
  }
  const parentId = text(line, 'parent_id', false) ?? null;
  const parent = parentId ? store.messages.get(parentId) : undefined;
  if (parentId && parent?.cid !== channel.cid) throw bad(line, `parent message ${parentId} does not exist in ${channel.cid}: import it before its replies`);
  if (parent?.parent_id) throw bad(line, `parent message ${parentId} is a reply itself: only one level of thread is supported`);
  const quotedId = text(line, 'quoted_message_id', false) ?? null;
  const mentioned = Array.isArray(item.mentioned_users_ids) ? item.mentioned_users_ids.filter((v): v is string => typeof v === 'string') : [];
  const known = store.users.getMany(mentioned);
  const createdAt = date(line, 'created_at') ?? now;
  // A deleted message is stored as what it was, with its deletion date.
  const given = messageTypeOf(line);
  const type = given === 'deleted' ? (parentId ? 'reply' : 'regular') : given;
  const message = store.messages.add({
    id,
    cid: channel.cid,
    userId,
    type,
    text: body,
    parentId,
    showInChannel: item.show_in_channel === true,
    quotedMessageId: quotedId && store.messages.get(quotedId)?.cid === channel.cid ? quotedId : null,
    mentionedUserIds: [...new Set(mentioned)].filter((mentionedId) => known.has(mentionedId)),
    attachments,
    custom,
    now: createdAt,
    restrictedVisibility: visibleTo(line) ?? null,
  });
  if (deletedAt) store.imports.setDeleted(id, deletedAt);
  if (pinnedAt) store.messageEdits.write(id, pin, date(line, 'updated_at') ?? createdAt);
  if (parent) {
    store.messages.incrementReplyCount(parent.id);
    store.threads.recordReply({
      parentId: parent.id,
      parentAuthorId: parent.user_id,
      parentCreatedAt: parent.created_at,
      cid: channel.cid,
      userId,
      messageId: message.id,
      now: createdAt,
    });
  }
  const inChannel = !parentId || message.show_in_channel === 1;
  const last = store.channels.get(channel.cid)?.last_message_at;
  if (inChannel && !deletedAt && (!last || last < createdAt)) store.channels.setLastMessageAt(channel.cid, createdAt);
  return true;
}

function applyReaction(apply: Apply): boolean {
  const { ctx, line, mode, now } = apply;
  const { store } = ctx;
  const { item } = line;
  const messageId = text(line, 'message_id') as string;
  if (!store.messages.get(messageId)) throw bad(line, `message ${messageId} does not exist: import it before its reactions`);
  const userId = authorOf(line);
  requireUser(apply, userId);
  const type = text(line, 'type') as string;
  if (mode === 'insert' && store.reactions.get(messageId, userId, type)) return false;
  const score = typeof item.score === 'number' ? item.score : 1;
  store.reactions.put({ messageId, userId, type, score, custom: withoutKeys(item as JsonObject, REACTION_FIELDS), now: date(line, 'created_at') ?? now }, false);
  return true;
}

function applyDevice(apply: Apply): boolean {
  const { ctx, line, mode } = apply;
  const { store } = ctx;
  const { item } = line;
  const id = text(line, 'id') as string;
  const userId = text(line, 'user_id') as string;
  requireUser(apply, userId);
  if (mode === 'insert' && store.devices.get(id)) return false;
  const name = typeof item.push_provider_name === 'string' && item.push_provider_name ? item.push_provider_name : null;
  const provider = item.push_provider_type as string;
  store.devices.add({ id, userId, provider, providerName: name, now: date(line, 'created_at') as string }, pushOptions(ctx).maxDevicesPerUser);
  if (flag(line, 'disabled')) store.devices.disable(id, typeof item.disabled_reason === 'string' && item.disabled_reason ? item.disabled_reason : 'disabled');
  return true;
}
