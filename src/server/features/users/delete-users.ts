// Deleting users (`DELETE /users/{id}`, `POST /users/delete`). Each user is marked deleted at once,
// so they can no longer authenticate and their sockets close; the rest runs as a task, user by
// user: their messages, their 1:1 conversations, then the user row itself. A user restored
// (`POST /users/restore`) before the task reaches them is passed over, and one restored while
// their messages are being walked keeps their row and conversations. Restoring is here too.
//   user: soft keeps everything (restorable), pruning also blanks name, image and custom data,
//   hard removes the row and every row that names the user (which needs messages: hard).
//   messages: soft marks them deleted, pruning also strips them, hard leaves empty tombstones,
//   or, with the user hard-deleted, removes them with their threads.
//   conversations: soft or hard deletes each distinct channel of the user and one other.
// The task's result has each user's outcome under their id, as the provider's does:
// `{status: 'ok'}`, or `{status: 'error', error}` for one that failed or was restored meanwhile.
import type { UserResponse } from 'stream-chat';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { optionalString, type JsonObject } from '../../http/input';
import { onlineContactsOf } from '../../events/announce';
import { announceUserDeleted, announceUserMessagesDeleted, announceUserUpdated, disconnectUser } from '../../events/user-events';
import { Presenter } from '../../present/presenter';
import type { UserRow } from '../../store/users';
import { deleteChannel } from '../channels/channel-lifecycle';
import { itemOutcome, startTask, type ItemOutcome } from '../../infra/run-task';
import { deleteMessagesOf, type Breathe } from './user-messages';

type DeleteType = 'soft' | 'pruning' | 'hard';

export type DeletionPlan = {
  user: DeleteType;
  messages?: DeleteType;
  conversations?: 'soft' | 'hard';
  /** Who takes over the channels a hard-deleted user created (else they have no creator). */
  newChannelOwnerId: string | null;
};

const TYPES: DeleteType[] = ['soft', 'pruning', 'hard'];

function choice<T extends string>(value: unknown, name: string, allowed: readonly T[]): T | undefined {
  const text = optionalString(value, name);
  if (text === undefined || text === '') return undefined;
  if (!allowed.includes(text as T)) throw ApiError.input(`${name} must be one of [${allowed.join(' ')}]`);
  return text as T;
}

/** The options of `deleteUsers` (stream-chat DeleteUserOptions). */
export function deletionPlan(ctx: ServerContext, body: JsonObject): DeletionPlan {
  const user = choice(body.user, 'user', TYPES) ?? 'soft';
  const messages = choice(body.messages, 'messages', TYPES);
  const conversations = choice(body.conversations, 'conversations', ['soft', 'hard'] as const);
  if (user === 'hard' && messages !== 'hard') {
    throw ApiError.input('hard deleting a user requires hard deleting their messages (messages: hard)');
  }
  const newChannelOwnerId = optionalString(body.new_channel_owner_id, 'new_channel_owner_id') || null;
  if (newChannelOwnerId && !ctx.store.users.get(newChannelOwnerId)) {
    throw ApiError.input(`new_channel_owner_id: user ${newChannelOwnerId} does not exist`);
  }
  return { user, ...(messages ? { messages } : {}), ...(conversations ? { conversations } : {}), newChannelOwnerId };
}

/** The flags of `deleteUser` (DELETE /users/{id}?hard_delete=&mark_messages_deleted=&delete_conversation_channels=). */
export function singleDeletionPlan(flag: (name: string) => boolean): DeletionPlan {
  const hard = flag('hard_delete');
  const messages: DeleteType | undefined = hard ? 'hard' : flag('mark_messages_deleted') ? 'soft' : undefined;
  const conversations = flag('delete_conversation_channels') ? (hard ? 'hard' : 'soft') : undefined;
  return {
    user: hard ? 'hard' : 'soft',
    ...(messages ? { messages } : {}),
    ...(conversations ? { conversations } : {}),
    newChannelOwnerId: null,
  };
}

/** Marks the users deleted now and starts the rest as a task; returns the marked rows and the task id. */
export function startDeletion(ctx: ServerContext, users: UserRow[], plan: DeletionPlan): { marked: UserRow[]; taskId: string } {
  const at = new Date().toISOString();
  const marked = users.map((row) => ctx.store.users.setLifecycle(row.id, { deleted_at: row.deleted_at ?? at }) as UserRow);
  for (const row of marked) disconnectUser(ctx, row.id, 'user.deleted');
  const taskId = startTask(ctx, 'delete-users', async (breathe) => {
    const result: Record<string, ItemOutcome> = {};
    for (const { id } of marked) {
      result[id] = await itemOutcome(ctx, `deleting user ${id}`, async () => {
        // As stored now, not as marked: a user restored (or removed) meanwhile is left alone.
        if (!ctx.store.users.get(id)) return `user ${id} no longer exists`;
        const row = stillDeleted(ctx, id);
        const deleted = row ? await deleteUser(ctx, row, plan, breathe) : false;
        return deleted ? undefined : `user ${id} was restored before the deletion reached them`;
      });
    }
    return result;
  });
  return { marked, taskId };
}

/** `POST /users/restore`: clears the deletion mark of the soft-deleted ones and tells who may show them. */
export function restoreUsers(ctx: ServerContext, users: UserRow[]): void {
  const presenter = new Presenter(ctx);
  for (const row of users) {
    if (!row.deleted_at) continue;
    const restored = ctx.store.users.setLifecycle(row.id, { deleted_at: null }) as UserRow;
    announceUserUpdated(ctx, presenter.fromRow(restored));
  }
}

function stillDeleted(ctx: ServerContext, id: string): UserRow | undefined {
  const row = ctx.store.users.get(id);
  return row?.deleted_at ? row : undefined;
}

/** Deletes as planned; false when the user was restored while their messages were walked. */
async function deleteUser(ctx: ServerContext, row: UserRow, plan: DeletionPlan, breathe: Breathe): Promise<boolean> {
  const { store } = ctx;
  const hard = plan.user === 'hard';
  const shown = (): UserResponse => new Presenter(ctx).fromRow(store.users.get(row.id) ?? row);
  // The messages' deletion date is the user's (set by startDeletion).
  if (plan.messages) await deleteMessagesOf(ctx, row.id, hard ? 'remove' : plan.messages, row.deleted_at as string, breathe);
  // Nothing below waits, so a restore can only have come during the walk above: the messages
  // stay deleted (and are announced as such), the user and their conversations stay.
  const current = stillDeleted(ctx, row.id);
  // Who hears of it, found while the user's memberships (1:1 conversations included) still exist.
  const contacts = onlineContactsOf(ctx, row.id);
  if (plan.messages) announceUserMessagesDeleted(ctx, shown(), plan.messages === 'hard', contacts);
  if (!current) return false;
  if (plan.conversations) deleteConversations(ctx, row.id, plan.conversations);
  if (plan.user === 'pruning') store.users.replace(row.id, { role: current.role, name: null, image: null, custom: {} });
  // What user.deleted shows: the user as they are last, deletion date included.
  const user = shown();
  if (hard) store.transaction(() => store.users.removeCompletely(row.id, plan.newChannelOwnerId));
  announceUserDeleted(
    ctx,
    user,
    {
      hard_delete: hard,
      mark_messages_deleted: plan.messages !== undefined,
      delete_conversation_channels: plan.conversations !== undefined,
    },
    contacts,
  );
  return true;
}

function deleteConversations(ctx: ServerContext, userId: string, how: 'soft' | 'hard'): void {
  for (const cid of ctx.store.users.conversationsOf(userId)) {
    const channel = ctx.store.channels.get(cid);
    if (channel && !(how === 'soft' && channel.deleted_at)) deleteChannel(ctx, channel, how === 'hard', null);
  }
}
