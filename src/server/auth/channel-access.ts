// The actor's access to one channel, as the policy answers it: their member row, whether they
// may read it, what they may do there (`own_capabilities`), and the provider's refusals.
import type { Actor } from './actor';
import type { ChannelTypeSettings } from './channel-types';
import { allowedInChannel, channelCapabilities, hasCapability, notAllowed, type ChannelScope } from './policy';
import { appSettings } from '../infra/app-settings';
import { withOverrides } from './channel-config';
import type { ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import type { ChannelRow, MemberRow } from '../store/channels';
import type { MessageRow } from '../store/messages';
import { restrictedTo, seesRestricted, type Visibility } from '../store/visibility';

export type ChannelAccess = {
  type: ChannelTypeSettings;
  canRead: boolean;
  /** Every capability (own_capabilities), worked out on first use. */
  readonly capabilities: string[];
  /** One capability, without working out the others. */
  has(capability: string): boolean;
  member?: MemberRow | undefined;
};

export function channelType(ctx: ServerContext, name: string): ChannelTypeSettings {
  const type = ctx.store.channelTypes.get(name);
  if (!type) throw ApiError.notFound(`channel type "${name}" does not exist`);
  return type;
}

/** The settings one channel follows: its type's, with the channel's own overrides (config_overrides). */
export function channelSettings(ctx: ServerContext, row: ChannelRow): ChannelTypeSettings {
  return withOverrides(channelType(ctx, row.type), row);
}

function scopeOf(ctx: ServerContext, row: ChannelRow, actor: Actor, member: MemberRow | undefined): ChannelScope {
  // An invitation not yet accepted gives no channel role.
  const channelRole = member && !(member.invited && !member.invite_accepted_at) ? member.channel_role : undefined;
  return {
    type: channelSettings(ctx, row),
    channelRole,
    ownsChannel: actor.id !== null && row.created_by_id === actor.id,
  };
}

/** The actor's member row (if any) and what they may do in the channel. */
export function accessTo(ctx: ServerContext, row: ChannelRow, actor: Actor): ChannelAccess {
  const member = actor.id === null ? undefined : ctx.store.channels.member(row.cid, actor.id);
  const scope = scopeOf(ctx, row, actor, member);
  const settings = appSettings(ctx);
  let capabilities: string[] | undefined;
  return {
    type: scope.type,
    // Invited users see the channel they are invited to, to accept or reject it.
    canRead: allowedInChannel(actor, settings, scope, 'read-channel') || (member?.invited === 1 && !member.invite_rejected_at),
    get capabilities() {
      capabilities ??= channelCapabilities(actor, settings, scope);
      return capabilities;
    },
    has: (capability) => (capabilities ? capabilities.includes(capability) : hasCapability(actor, settings, scope, capability)),
    member,
  };
}

/** Whether the actor may use one permission (not a capability) in the channel. */
export function mayInChannel(ctx: ServerContext, row: ChannelRow, actor: Actor, permission: string, ownsResource?: boolean): boolean {
  const member = actor.id === null ? undefined : ctx.store.channels.member(row.cid, actor.id);
  const scope = scopeOf(ctx, row, actor, member);
  return allowedInChannel(actor, appSettings(ctx), scope, permission, ownsResource ?? scope.ownsChannel);
}

export function assertInChannel(ctx: ServerContext, row: ChannelRow, actor: Actor, permission: string, ownsResource?: boolean): void {
  if (!mayInChannel(ctx, row, actor, permission, ownsResource)) throw notAllowed(actor, permission, row.type);
}

export function assertMayCreateChannel(ctx: ServerContext, type: ChannelTypeSettings, actor: Actor): void {
  if (!allowedInChannel(actor, appSettings(ctx), { type, ownsChannel: true }, 'create-channel')) {
    throw notAllowed(actor, 'create-channel', type.config.name);
  }
}

/** Throws the provider's 403 (code 17) unless the actor may read the channel. */
export function assertCanRead(row: ChannelRow, actor: Actor, access: ChannelAccess): void {
  if (!access.canRead) throw notAllowed(actor, 'read-channel', row.type);
}

export function assertCapability(row: ChannelRow, actor: Actor, access: ChannelAccess, capability: string): void {
  if (!access.has(capability)) {
    throw ApiError.notAllowed(
      `User '${actor.id ?? ''}' with role '${actor.role}' is not allowed to ${capability} in channel ${row.cid}`,
    );
  }
}

/** Channel types whose channels the actor may read without being a member (livestream). */
export function openTypesFor(ctx: ServerContext, actor: Actor): string[] {
  const settings = appSettings(ctx);
  return ctx.store.channelTypes
    .all()
    .filter((type) => allowedInChannel(actor, settings, { type, ownsChannel: false }, 'read-channel'))
    .map((type) => type.config.name);
}

/** What of the channel's history the actor sees (store/visibility.ts). */
export function messageVisibility(row: ChannelRow, actor: Actor, member: MemberRow | undefined): Visibility {
  const after = [row.truncated_at, member?.history_cleared_at].filter((at): at is string => !!at).sort().pop() ?? null;
  return { viewerId: actor.anonymous ? '' : actor.id, after };
}

/**
 * The same rules as store/visibility.ts for rows already read (one message, a short list): what
 * the actor may not see of a channel's messages is left out, all of it when the channel is deleted.
 */
export function visibleMessages(ctx: ServerContext, row: ChannelRow, actor: Actor, member: MemberRow | undefined, rows: MessageRow[]): MessageRow[] {
  if (row.deleted_at) return [];
  const { viewerId, after } = messageVisibility(row, actor, member);
  if (viewerId === null) return rows.filter((message) => !after || message.created_at > after);
  const blocked = new Set(ctx.store.blocks.blockedBy(viewerId).map((block) => block.blocked_user_id));
  return rows.filter(
    (message) =>
      (!after || message.created_at > after) &&
      ((!message.shadowed && !message.pending) || message.user_id === viewerId) &&
      !blocked.has(message.user_id) &&
      seesRestricted(restrictedTo(message), message.user_id, viewerId),
  );
}
