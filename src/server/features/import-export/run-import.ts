// An import as a task: `POST /imports` records the import (state `uploaded`) and starts this off
// the request. The file is read twice, item by item (import-file.ts): first every item's shape is
// checked (`analyzing`), so a malformed file changes nothing; then the items are applied in
// order (`importing`), a chunk per transaction with a breath between chunks, and the import ends
// `completed` with counts or `failed` with the error (references to users, channels or messages
// that neither the file nor the backend has are found in this pass, and what came before them
// stays imported). Mode `upsert` (the default) updates what exists; `insert` leaves it as it is.
//
// Items are the provider's: user {id, role, name, image, …custom}; channel {type, id,
// created_by, name, …custom}; member {channel_type, channel_id, user_id, channel_role};
// message {id, channel_type, channel_id, user, text, type, parent_id, show_in_channel,
// quoted_message_id, mentioned_users_ids, attachments, created_at, deleted_at, …custom};
// reaction {message_id, user_id, type, score, created_at, …custom}. Imported data raises no
// events: nobody is watching data that did not exist, as with the provider's imports.
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { isObject, withoutKeys, type JsonObject } from '../../http/input';
import { createChannel } from '../channels/create-channel';
import { startTask } from '../../infra/run-task';
import { userPatch, validUserId } from '../users/user-fields';
import { importItems, type ImportLine } from './import-file';

export type ImportMode = 'upsert' | 'insert';
type Kind = 'user' | 'channel' | 'member' | 'message' | 'reaction';
type Stats = Record<Kind, number> & { skipped: number };

const KINDS = new Set<string>(['user', 'channel', 'member', 'message', 'reaction']);
const CHUNK = 200;

const CHANNEL_FIELDS = new Set(['id', 'type', 'cid', 'created_by', 'created_by_id', 'name', 'created_at', 'updated_at', 'member_count', 'members', 'config', 'own_capabilities']);
const MESSAGE_FIELDS = new Set([
  'id', 'channel_type', 'channel_id', 'cid', 'user', 'user_id', 'text', 'type', 'parent_id', 'show_in_channel',
  'quoted_message_id', 'mentioned_users_ids', 'mentioned_users', 'attachments', 'created_at', 'updated_at', 'deleted_at',
  'html', 'reply_count', 'latest_reactions', 'own_reactions', 'reaction_counts', 'reaction_scores', 'reaction_groups',
  'thread_participants', 'pinned', 'silent_at',
]);
const REACTION_FIELDS = new Set(['message_id', 'user_id', 'user', 'type', 'score', 'created_at', 'updated_at']);

export function startImport(ctx: ServerContext, importId: string, file: string, mode: ImportMode): string {
  return startTask(ctx, 'import', async (breathe) => {
    const now = () => new Date().toISOString();
    try {
      ctx.store.imports.move(importId, 'analyzing', now());
      const counted: Stats = { user: 0, channel: 0, member: 0, message: 0, reaction: 0, skipped: 0 };
      let seen = 0;
      for await (const line of importItems(file)) {
        checkShape(line);
        counted[line.type as Kind]++;
        if (++seen % 1000 === 0) await breathe();
      }
      ctx.store.imports.move(importId, 'importing', now());
      const stats: Stats = { user: 0, channel: 0, member: 0, message: 0, reaction: 0, skipped: 0 };
      let chunk: ImportLine[] = [];
      const flush = () => {
        const lines = chunk;
        chunk = [];
        ctx.store.transaction(() => {
          for (const line of lines) {
            if (apply(ctx, line, mode)) stats[line.type as Kind]++;
            else stats.skipped++;
          }
        });
      };
      for await (const line of importItems(file)) {
        chunk.push(line);
        if (chunk.length >= CHUNK) {
          flush();
          await breathe();
        }
      }
      flush();
      const result = {
        stats: { users: stats.user, channels: stats.channel, members: stats.member, messages: stats.message, reactions: stats.reaction, skipped: stats.skipped },
      };
      ctx.store.imports.move(importId, 'completed', now(), result);
      return { import_id: importId, ...result };
    } catch (error) {
      const description = error instanceof ApiError ? error.message : 'the import failed';
      ctx.store.imports.move(importId, 'failed', now(), { error: description });
      throw error;
    }
  });
}

const bad = (line: ImportLine, why: string) => ApiError.input(`import item ${line.index + 1} (${line.type}): ${why}`);

function text(line: ImportLine, field: string, required = true): string | undefined {
  const value = line.item[field];
  if (value === undefined || value === null) {
    if (required) throw bad(line, `${field} is required`);
    return undefined;
  }
  if (typeof value !== 'string' || !value) throw bad(line, `${field} must be a non-empty string`);
  return value;
}

function date(line: ImportLine, field: string): string | undefined {
  const value = text(line, field, false);
  if (value === undefined) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw bad(line, `${field} must be a date`);
  return new Date(at).toISOString();
}

/** The user id of a message's or reaction's `user` (an id or a user object) or `user_id`. */
function authorOf(line: ImportLine): string {
  const user = line.item.user;
  const id = isObject(user) ? user.id : (user ?? line.item.user_id);
  if (typeof id !== 'string' || !id) throw bad(line, 'user is required');
  return id;
}

function channelOf(line: ImportLine): { type: string; id: string } {
  const cid = text(line, 'cid', false);
  if (cid && !line.item.channel_type) {
    const [type, ...rest] = cid.split(':');
    if (!type || !rest.length) throw bad(line, 'cid must be type:id');
    return { type, id: rest.join(':') };
  }
  return { type: text(line, 'channel_type') as string, id: text(line, 'channel_id') as string };
}

function checkShape(line: ImportLine): void {
  if (!KINDS.has(line.type)) throw bad(line, `unknown type; expected one of ${[...KINDS].join(', ')}`);
  const { item } = line;
  switch (line.type as Kind) {
    case 'user':
      try {
        validUserId(item.id, 'id');
        userPatch(item.id as string, item as JsonObject, { allowRole: true });
      } catch (error) {
        throw error instanceof ApiError ? bad(line, error.message) : error;
      }
      break;
    case 'channel':
      text(line, 'type');
      text(line, 'id');
      text(line, 'created_by', !item.created_by_id);
      if (item.name !== undefined && item.name !== null && typeof item.name !== 'string') throw bad(line, 'name must be a string');
      date(line, 'created_at');
      break;
    case 'member':
      channelOf(line);
      text(line, 'user_id');
      text(line, 'channel_role', false);
      date(line, 'created_at');
      break;
    case 'message':
      text(line, 'id');
      channelOf(line);
      authorOf(line);
      if (item.text !== undefined && typeof item.text !== 'string') throw bad(line, 'text must be a string');
      if (item.attachments !== undefined && !Array.isArray(item.attachments)) throw bad(line, 'attachments must be a list');
      text(line, 'parent_id', false);
      text(line, 'quoted_message_id', false);
      date(line, 'created_at');
      date(line, 'deleted_at');
      break;
    case 'reaction':
      text(line, 'message_id');
      authorOf(line);
      text(line, 'type');
      if (item.score !== undefined && (typeof item.score !== 'number' || !Number.isInteger(item.score))) throw bad(line, 'score must be an integer');
      date(line, 'created_at');
      break;
  }
}

/** Applies one checked item; false when `insert` mode found it existing and left it. */
function apply(ctx: ServerContext, line: ImportLine, mode: ImportMode): boolean {
  const { store } = ctx;
  const { item } = line;
  const now = new Date().toISOString();
  const requireUser = (id: string) => {
    if (!store.users.get(id)) throw bad(line, `user ${id} does not exist: import it before what refers to it`);
  };
  switch (line.type as Kind) {
    case 'user': {
      const id = item.id as string;
      if (mode === 'insert' && store.users.get(id)) return false;
      store.users.upsert(userPatch(id, item as JsonObject, { allowRole: true }));
      return true;
    }
    case 'channel': {
      const type = text(line, 'type') as string;
      const id = text(line, 'id') as string;
      if (!store.channelTypes.get(type)) throw bad(line, `channel type ${type} does not exist`);
      const creator = (text(line, 'created_by', false) ?? text(line, 'created_by_id')) as string;
      requireUser(creator);
      const existing = store.channels.get(`${type}:${id}`);
      if (existing) {
        if (mode === 'insert') return false;
        const name = typeof item.name === 'string' ? item.name : null;
        store.imports.updateChannel(existing.cid, name, withoutKeys(item as JsonObject, CHANNEL_FIELDS), now);
        return true;
      }
      // Members come as items of their own, and nobody is told (see above).
      createChannel(ctx, {
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
      return true;
    }
    case 'member': {
      const { type, id } = channelOf(line);
      const channel = store.channels.get(`${type}:${id}`);
      if (!channel) throw bad(line, `channel ${type}:${id} does not exist: import it before its members`);
      const userId = text(line, 'user_id') as string;
      requireUser(userId);
      const channelRole = text(line, 'channel_role', false);
      const existing = store.channels.member(channel.cid, userId);
      if (existing && mode === 'insert') return false;
      const role = userId === channel.created_by_id ? 'owner' : 'member';
      if (!existing) store.channels.addMembers(channel.cid, [userId], role, date(line, 'created_at') ?? now);
      if (channelRole) store.imports.setMemberRole(channel.cid, userId, role, channelRole, now);
      return true;
    }
    case 'message':
      return applyMessage(ctx, line, mode, now, requireUser);
    case 'reaction': {
      const messageId = text(line, 'message_id') as string;
      if (!store.messages.get(messageId)) throw bad(line, `message ${messageId} does not exist: import it before its reactions`);
      const userId = authorOf(line);
      requireUser(userId);
      const type = text(line, 'type') as string;
      if (mode === 'insert' && store.reactions.get(messageId, userId, type)) return false;
      const score = typeof item.score === 'number' ? item.score : 1;
      store.reactions.put({ messageId, userId, type, score, custom: withoutKeys(item as JsonObject, REACTION_FIELDS), now: date(line, 'created_at') ?? now }, false);
      return true;
    }
  }
}

function applyMessage(ctx: ServerContext, line: ImportLine, mode: ImportMode, now: string, requireUser: (id: string) => void): boolean {
  const { store } = ctx;
  const { item } = line;
  const { type: channelType, id: channelId } = channelOf(line);
  const channel = store.channels.get(`${channelType}:${channelId}`);
  if (!channel) throw bad(line, `channel ${channelType}:${channelId} does not exist: import it before its messages`);
  const id = text(line, 'id') as string;
  const userId = authorOf(line);
  requireUser(userId);
  const body = typeof item.text === 'string' ? item.text : '';
  const attachments = Array.isArray(item.attachments) ? item.attachments : [];
  const custom = withoutKeys(item as JsonObject, MESSAGE_FIELDS);
  const deletedAt = date(line, 'deleted_at') ?? null;
  const existing = store.messages.get(id);
  if (existing) {
    if (existing.cid !== channel.cid) throw bad(line, `message ${id} exists in another channel`);
    if (mode === 'insert') return false;
    store.imports.updateMessage(id, body, attachments, custom, date(line, 'updated_at') ?? now, deletedAt);
    return true;
  }
  const parentId = text(line, 'parent_id', false) ?? null;
  const parent = parentId ? store.messages.get(parentId) : undefined;
  if (parentId && parent?.cid !== channel.cid) throw bad(line, `parent message ${parentId} does not exist in ${channel.cid}: import it before its replies`);
  const quotedId = text(line, 'quoted_message_id', false) ?? null;
  const mentioned = Array.isArray(item.mentioned_users_ids) ? item.mentioned_users_ids.filter((v): v is string => typeof v === 'string') : [];
  const known = store.users.getMany(mentioned);
  const createdAt = date(line, 'created_at') ?? now;
  const type = typeof item.type === 'string' && item.type ? item.type : parentId ? 'reply' : 'regular';
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
  });
  if (deletedAt) store.imports.setDeleted(id, deletedAt);
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
