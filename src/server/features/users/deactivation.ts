// Deactivating a user (`POST /users/{id}/deactivate`, or many as a task) shuts them out: they can
// neither connect nor call anything (auth/authenticate.ts) until reactivated, and their open
// sockets close. With mark_messages_deleted their messages are soft-deleted with the
// deactivation's own timestamp, which is how reactivating with restore_messages finds exactly
// those again (and not the ones they had deleted themselves).
// Many users at once (`POST /users/deactivate`, `/users/reactivate`) run as a task, user by user,
// each as the single call would; the deactivation's result lists the users it leaves
// deactivated, each with `deactivated_at` (`result.users`), as the provider's does.
import type { UserResponse } from 'stream-chat';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { Presenter } from '../../present/presenter';
import { announceUserMessagesDeleted, announceUserStanding, disconnectUser } from '../../events/user-events';
import { startTask } from '../../infra/run-task';
import type { UserRow } from '../../store/users';
import { deleteMessagesOf, restoreMessagesOf, type Breathe } from './user-messages';

export type DeactivateOptions = { markMessagesDeleted: boolean; createdById: string | undefined };
export type ReactivateOptions = { restoreMessages: boolean; name: string | undefined; createdById: string | undefined };

export async function deactivateUser(ctx: ServerContext, row: UserRow, options: DeactivateOptions, breathe: Breathe): Promise<UserRow> {
  if (row.deleted_at) throw ApiError.input(`user ${row.id} was deleted`);
  if (row.deactivated_at) throw ApiError.input(`user ${row.id} is already deactivated`);
  const at = new Date().toISOString();
  const user = ctx.store.users.setLifecycle(row.id, { deactivated_at: at }) as UserRow;
  disconnectUser(ctx, row.id, 'user.deactivated');
  const presenter = new Presenter(ctx);
  if (options.markMessagesDeleted) {
    await deleteMessagesOf(ctx, row.id, 'soft', at, breathe);
    announceUserMessagesDeleted(ctx, presenter.fromRow(user), false);
  }
  announceUserStanding(ctx, 'user.deactivated', presenter.fromRow(user), createdBy(presenter, options.createdById));
  return user;
}

export async function reactivateUser(ctx: ServerContext, row: UserRow, options: ReactivateOptions, breathe: Breathe): Promise<UserRow> {
  if (!row.deactivated_at) throw ApiError.input(`user ${row.id} is not deactivated`);
  if (options.restoreMessages) await restoreMessagesOf(ctx, row.id, row.deactivated_at, breathe);
  if (options.name !== undefined) ctx.store.users.replace(row.id, { role: row.role, name: options.name, image: row.image, custom: JSON.parse(row.custom) });
  const user = ctx.store.users.setLifecycle(row.id, { deactivated_at: null }) as UserRow;
  const presenter = new Presenter(ctx);
  announceUserStanding(ctx, 'user.reactivated', presenter.fromRow(user), createdBy(presenter, options.createdById));
  return user;
}

function createdBy(presenter: Presenter, id: string | undefined) {
  return id ? presenter.user(id) : undefined;
}

/** `POST /users/deactivate`: the users (all found to exist) deactivated by a task. */
export function startDeactivation(ctx: ServerContext, users: UserRow[], options: DeactivateOptions): string {
  return startTask(ctx, 'deactivate-users', async (breathe) => {
    const deactivated: UserResponse[] = [];
    for (const { id } of users) {
      // As stored when the task reaches them: one deleted meanwhile is passed over, one already
      // deactivated stays as it is (the single call would refuse both).
      const row = ctx.store.users.get(id);
      if (!row || row.deleted_at) continue;
      const off = row.deactivated_at ? row : await deactivateUser(ctx, row, options, breathe).catch(passedOver);
      if (off?.deactivated_at) deactivated.push(new Presenter(ctx).fromRow(off));
    }
    return { users: deactivated };
  });
}

/** `POST /users/reactivate`: the same the other way (a batch renames no one). */
export function startReactivation(ctx: ServerContext, users: UserRow[], options: Omit<ReactivateOptions, 'name'>): string {
  return startTask(ctx, 'reactivate-users', async (breathe) => {
    for (const { id } of users) {
      const row = ctx.store.users.get(id);
      if (row) await reactivateUser(ctx, row, { ...options, name: undefined }, breathe).catch(passedOver);
    }
  });
}

/** In a batch, a user the single call would refuse is passed over; anything else fails the task. */
function passedOver(error: unknown): undefined {
  if (!(error instanceof ApiError)) throw error;
  return undefined;
}
