// A channel's own fields as the SDK reads them (`channel`, with config and own_capabilities).
import type { ChannelResponse } from 'stream-chat';
import type { ChannelAccess } from '../auth/channel-access';
import { typeCommands } from '../auth/channel-types';
import type { ChannelRow } from '../store/channels';
import type { UserPresenter } from './users';

export function presentChannel(
  presenter: UserPresenter,
  row: ChannelRow,
  access: ChannelAccess,
): ChannelResponse {
  const custom = JSON.parse(row.custom) as Record<string, unknown>;
  return {
    ...custom,
    id: row.id,
    type: row.type,
    cid: row.cid,
    ...(row.name !== null ? { name: row.name } : {}),
    created_by: row.created_by_id ? presenter.user(row.created_by_id) : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.last_message_at ? { last_message_at: row.last_message_at } : {}),
    member_count: row.member_count,
    frozen: row.frozen === 1,
    disabled: row.disabled === 1,
    hidden: access.member?.hidden === 1,
    ...(row.cooldown ? { cooldown: row.cooldown } : {}),
    ...(row.truncated_at ? { truncated_at: row.truncated_at } : {}),
    ...(row.deleted_at ? { deleted_at: row.deleted_at } : {}),
    config: { ...access.type.config, commands: typeCommands(access.type.config, presenter.commands()) },
    own_capabilities: access.capabilities,
  };
}

