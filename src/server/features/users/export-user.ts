// `GET /users/{id}/export` (exportUser): everything the user wrote, as the SDK types it: the user,
// their messages (soft-deleted ones included: export is how the site owner still reaches them)
// and their reactions.
import type { MessageResponse, ReactionResponse, UserResponse } from 'stream-chat';
import type { ServerContext } from '../../http/context';
import { presentReaction } from '../../present/message-extras';
import { Presenter } from '../../present/presenter';
import type { UserRow } from '../../store/users';

export type UserExport = {
  user: UserResponse;
  messages: MessageResponse[];
  reactions: ReactionResponse[];
};

export function exportUser(ctx: ServerContext, row: UserRow): UserExport {
  const presenter = new Presenter(ctx);
  const rows = ctx.store.users.messagesOf(row.id, 0, Number.MAX_SAFE_INTEGER);
  return {
    user: presenter.fromRow(row),
    messages: presenter.messages(rows),
    reactions: ctx.store.users.reactionsOf(row.id).map((reaction) => presentReaction(presenter, reaction)),
  };
}
