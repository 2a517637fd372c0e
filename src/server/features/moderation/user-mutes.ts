// Muting users, whoever asks for it (`POST /moderation/mute` / `unmute`, the `/mute` and `/unmute`
// slash commands): who may mute, and the mute itself. A mute is the muter's own list; the
// muter's connections learn it from notification.mutes_updated, and a mute with an end is
// lifted by the expiry timer.
import type { Actor } from '../../auth/actor';
import { allowedInApp, assertAppPermission } from '../../auth/policy';
import { appSettings } from '../../infra/app-settings';
import type { ServerContext } from '../../http/context';
import { scheduleMuteExpiry } from '../../events/expiry';
import { notifyMutesUpdated } from '../../events/user-notifications';
import type { UserMuteRow } from '../../store/mutes';

export function mayMuteUsers(ctx: ServerContext, actor: Actor): boolean {
  return allowedInApp(actor, appSettings(ctx), 'mute-user');
}

/** The provider's 403 (code 17) unless the actor may mute users. */
export function assertMayMuteUsers(ctx: ServerContext, actor: Actor): void {
  assertAppPermission(actor, appSettings(ctx), 'mute-user');
}

/**
 * Mutes each target for `muterId`, for `minutes` (0: until unmuted); muting again replaces the
 * mute's end. The targets are known users other than the muter (the caller checked). Returns the
 * mutes, in the targets' order.
 */
export function muteUsers(ctx: ServerContext, muterId: string, targetIds: string[], minutes: number): UserMuteRow[] {
  const now = new Date();
  const expires = minutes ? new Date(now.getTime() + minutes * 60_000).toISOString() : null;
  const rows = ctx.store.transaction(() => targetIds.map((targetId) => ctx.store.mutes.muteUser(muterId, targetId, expires, now.toISOString())));
  scheduleMuteExpiry(ctx);
  notifyMutesUpdated(ctx, muterId, 'user');
  return rows;
}

/** Lifts `muterId`'s mutes of the targets; lifting one that is not there is no error. */
export function unmuteUsers(ctx: ServerContext, muterId: string, targetIds: string[]): void {
  ctx.store.transaction(() => targetIds.forEach((targetId) => ctx.store.mutes.unmuteUser(muterId, targetId)));
  scheduleMuteExpiry(ctx);
  notifyMutesUpdated(ctx, muterId, 'user');
}
