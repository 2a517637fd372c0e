// message.flagged and user.flagged: raised once on the change feed (webhooks) and, as the provider
// does, sent to the moderators who are connected (users whose role may `read-flags`).
import type { Event, EventTypes, UserResponse } from 'stream-chat';
import { userActor } from '../../auth/actor';
import { allowedInApp } from '../../auth/policy';
import { appSettings } from '../../infra/app-settings';
import type { ServerContext } from '../../http/context';
import { Presenter } from '../../present/presenter';
import { announceToUsers } from '../../events/announce';
import { envelope } from '../../events/notify';
import type { ChannelRow } from '../../store/channels';
import type { MessageRow } from '../../store/messages';

/** `reporterId` null: flagged by automatic moderation (a blocklist). */
export function notifyMessageFlagged(ctx: ServerContext, channel: ChannelRow, message: MessageRow, reporterId: string | null): void {
  const presenter = new Presenter(ctx);
  announceToModerators(ctx, {
    // Neither flag event is in the SDK's EVENT_MAP; listeners still receive them by name.
    type: 'message.flagged' as EventTypes,
    ...envelope(channel),
    message: presenter.messages([message])[0],
    ...(reporterId ? { user: presenter.user(reporterId) } : {}),
    created_by_automod: reporterId === null,
    created_at: new Date().toISOString(),
  });
}

export function notifyUserFlagged(ctx: ServerContext, targetId: string, reporterId: string): void {
  const presenter = new Presenter(ctx);
  announceToModerators(ctx, {
    type: 'user.flagged' as EventTypes,
    user: presenter.user(reporterId),
    target_user: presenter.user(targetId),
    created_at: new Date().toISOString(),
  });
}

function announceToModerators(ctx: ServerContext, event: Event & { created_by_automod?: boolean; target_user?: UserResponse }): void {
  const settings = appSettings(ctx);
  const online = ctx.store.users.getMany(ctx.hub.registry.onlineUserIds());
  const moderators = [...online.values()].filter((user) => allowedInApp(userActor(user), settings, 'read-flags'));
  announceToUsers(ctx, moderators.map((user) => user.id), event);
}
