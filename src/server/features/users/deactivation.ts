// Deactivating a user (`POST /users/{id}/deactivate`, or many as a task) shuts them out: they can
// neither connect nor call anything (auth/authenticate.ts) until reactivated, and their open
// sockets close. With mark_messages_deleted their messages are soft-deleted with the
// deactivation's own timestamp, which is how reactivating with restore_messages finds exactly
// those again (and not the ones they had deleted themselves).
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { Presenter } from '../../present/presenter';
import { announceUserMessagesDeleted, announceUserStanding, disconnectUser } from '../../events/user-events';
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
