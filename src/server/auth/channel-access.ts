// The actor's access to one channel: their member row and what they may do there, and the
// provider's refusals when they may not.
import type { Actor } from './actor';
import { CHANNEL_TYPES, channelAccess, type ChannelAccess, type ChannelType } from './channel-types';
import type { ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import type { ChannelRow, MemberRow } from '../store/channels';

export function channelType(name: string): ChannelType {
  const type = CHANNEL_TYPES[name];
  if (!type) throw ApiError.notFound(`channel type "${name}" does not exist`);
  return type;
}

/** The actor's member row (if any) and what they may do in the channel. */
export function accessTo(ctx: ServerContext, row: ChannelRow, actor: Actor): ChannelAccess & { member?: MemberRow } {
  const member = actor.id === null ? undefined : ctx.store.channels.member(row.cid, actor.id);
  return { ...channelAccess(channelType(row.type), actor, member), member };
}

/** Throws the provider's 403 (code 17) unless the actor may read the channel. */
export function assertCanRead(row: ChannelRow, actor: Actor, access: ChannelAccess): void {
  if (!access.canRead) {
    throw ApiError.notAllowed(
      `User '${actor.id ?? ''}' with role '${actor.role}' is not allowed to perform action ReadChannel in scope '${row.type}'`,
    );
  }
}

export function assertCapability(row: ChannelRow, actor: Actor, access: ChannelAccess, capability: string): void {
  if (!access.capabilities.includes(capability)) {
    throw ApiError.notAllowed(
      `User '${actor.id ?? ''}' with role '${actor.role}' is not allowed to ${capability} in channel ${row.cid}`,
    );
  }
}

