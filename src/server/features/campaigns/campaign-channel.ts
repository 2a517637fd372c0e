// The channel a campaign's message to one user goes to. Its members are the receiver, the
// sender (unless `sender_mode` is `exclude`) and the channel template's `members` and
// `members_template`. Its id is the template's `id` rendered for the receiver, or else the
// distinct channel of those members, the same one `channel('messaging', {members})` finds. A
// channel that exists gets the members it lacks; one that does not is created when
// `create_channels` says so, by the sender, as a server-side create would (no permission asked:
// campaigns act with the app's authority).
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { notifyMembersAdded } from '../../events/member-events';
// The distinct id must be the one a client's query computes, so it is that very function; the
// template's custom data is read as a client's `data` is.
import { createChannel, distinctChannelId, isChannelId } from '../channels/create-channel';
import type { ChannelRow } from '../../store/channels';
import type { UserRow } from '../../store/users';
import type { CampaignSettings } from '../../store/campaigns';
import { campaignTemplate, type Render, type TemplateContext } from './campaign-template';

export type ChannelPlan = { row: ChannelRow; created: boolean };

/** The channel template compiled once per run step. */
export type ChannelTemplates = { id?: Render; members: { render: Render; channelRole?: string }[] };

export function channelTemplates(settings: CampaignSettings): ChannelTemplates {
  const template = settings.channel_template;
  return {
    ...(template?.id ? { id: campaignTemplate(template.id, 'channel_template.id') } : {}),
    members: (template?.members_template ?? []).map((member) => ({
      render: campaignTemplate(member.user_id, 'channel_template.members_template.user_id'),
      ...(member.channel_role ? { channelRole: member.channel_role } : {}),
    })),
  };
}

/** The channel for `receiver`, or undefined when there is none and none is to be created. */
export function channelForReceiver(
  ctx: ServerContext,
  settings: CampaignSettings,
  templates: ChannelTemplates,
  sender: UserRow,
  receiver: UserRow,
  context: TemplateContext,
): ChannelPlan | undefined {
  const { store } = ctx;
  const type = settings.channel_template?.type ?? 'messaging';
  if (!store.channelTypes.get(type)) throw ApiError.input(`channel type "${type}" does not exist`);
  const roles = new Map<string, string>();
  for (const member of templates.members) {
    const userId = member.render(context).trim();
    if (userId) roles.set(userId, member.channelRole ?? 'channel_member');
  }
  const senderIn = settings.sender_mode !== 'exclude';
  const memberIds = [...new Set([receiver.id, ...(senderIn ? [sender.id] : []), ...(settings.channel_template?.members ?? []), ...roles.keys()])];
  const id = templates.id ? templates.id(context).trim() : distinctChannelId(null, memberIds);
  if (!isChannelId(id)) throw ApiError.input(`the channel id "${id}" is not one a channel can have`);
  const unknown = memberIds.filter((userId) => !store.users.get(userId));
  if (unknown.length) throw ApiError.input(`channel members ${unknown.join(', ')} do not exist`);

  const found = store.channels.get(`${type}:${id}`);
  if (found && !found.deleted_at) {
    addMissingMembers(ctx, found, memberIds);
    return { row: store.channels.get(found.cid) ?? found, created: false };
  }
  if (!settings.create_channels) return undefined;
  const custom = settings.channel_template?.custom ?? {};
  const row = createChannel(ctx, {
    type,
    id,
    creatorId: sender.id,
    creatorJoins: senderIn,
    memberIds,
    channelRoles: roles,
    // The template's custom data is not checked: a name that is not a string names nothing.
    data: typeof custom.name === 'string' ? custom : { ...custom, name: null },
    announce: true,
  });
  // A deleted channel was made anew, as a client's create would.
  return { row, created: true };
}

/** `sender_mode: include` on a channel target makes the sender a member of it. */
export function includeSender(ctx: ServerContext, settings: CampaignSettings, row: ChannelRow, sender: UserRow): void {
  if (settings.sender_mode === 'include') addMissingMembers(ctx, row, [sender.id]);
}

function addMissingMembers(ctx: ServerContext, row: ChannelRow, memberIds: string[]): void {
  const { store } = ctx;
  const now = new Date().toISOString();
  const added = store.transaction(() => {
    const ids = store.channels.addMembers(row.cid, memberIds, 'member', now);
    store.reads.start(row.cid, ids, now);
    return ids;
  });
  if (!added.length) return;
  const channel = store.channels.get(row.cid) ?? row;
  notifyMembersAdded(ctx, channel, added.flatMap((userId) => store.channels.member(row.cid, userId) ?? []));
}
