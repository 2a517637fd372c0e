// Users as the SDK reads them, and the per-response cache every presenter shares: a page of
// 25 messages by 3 authors costs one user query, not 25. The lowest layer of present/: the
// helpers that only need users (reactions, polls, mutes, channels) depend on this class, not on
// the full Presenter, so the presenters import no one in a circle.
import type { CommandResponse, UserResponse } from 'stream-chat';
import { channelCommands } from './commands';
import type { ServerContext } from '../http/context';
import type { BanRow } from '../store/bans';
import type { UserRow } from '../store/users';

export class UserPresenter {
  constructor(
    protected readonly ctx: ServerContext,
    protected readonly users = new Map<string, UserResponse>(),
  ) {}

  private commandList?: CommandResponse[];

  /** The slash commands channels offer (`config.commands`), read once per presenter. */
  commands(): CommandResponse[] {
    this.commandList ??= channelCommands(this.ctx.store);
    return this.commandList;
  }

  /** Loads, in one query (and one for their bans), every user not cached yet. */
  preloadUsers(ids: Iterable<string>): void {
    const missing = [...new Set(ids)].filter((id) => !this.users.has(id));
    if (!missing.length) return;
    const rows = this.ctx.store.users.getMany(missing);
    const bans = this.ctx.store.bans.globalOf(missing);
    for (const id of missing) {
      const row = rows.get(id);
      this.users.set(id, row ? this.fromRow(row, bans.get(id) ?? null) : { id });
    }
  }

  user(id: string): UserResponse {
    this.preloadUsers([id]);
    return this.users.get(id) ?? { id };
  }

  /** `ban`: the app-wide ban in force, when already looked up (null: none); otherwise asked here. */
  fromRow(row: UserRow, ban?: BanRow | null): UserResponse {
    const inForce = ban === undefined ? this.ctx.store.bans.global(row.id) : ban;
    return userResponse(row, this.ctx.hub.registry.isOnline(row.id), inForce?.shadow === 0);
  }
}

/** `banned`: an app-wide ban (not a shadow one) is in force. */
export function userResponse(row: UserRow, online: boolean, banned = false): UserResponse {
  const custom = JSON.parse(row.custom) as Record<string, unknown>;
  return {
    ...custom,
    id: row.id,
    role: row.role,
    ...(row.name !== null ? { name: row.name } : {}),
    ...(row.image !== null ? { image: row.image } : {}),
    banned,
    online,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.last_active ? { last_active: row.last_active } : {}),
    ...(row.deactivated_at ? { deactivated_at: row.deactivated_at } : {}),
    ...(row.deleted_at ? { deleted_at: row.deleted_at } : {}),
    ...(row.revoke_tokens_issued_before ? { revoke_tokens_issued_before: row.revoke_tokens_issued_before } : {}),
  };
}
