// `POST /channels/{type}/{id}` (channel.update, addMembers, removeMembers, inviteMembers,
// acceptInvite, rejectInvite, addModerators, demoteModerators, assignRoles): one request may
// carry several changes; each is checked against the policy before any is made, then all are
// made in one transaction and announced.
import type { ChannelMemberResponse, MessageResponse } from 'stream-chat';
import type { Actor } from '../../auth/actor';
import { requireUser } from '../../auth/actor';
import { accessTo, assertCanRead, assertCapability, type ChannelAccess } from '../../auth/channel-access';
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { isObject, objectField, optionalBoolean, optionalString, type JsonObject } from '../../http/input';
import { Presenter } from '../../present/presenter';
import { notifyChannelUpdated, notifyInvitation, notifyOwnCapabilities } from '../../events/channel-events';
import { notifyMemberUpdated, notifyMembersAdded, notifyMembersRemoved } from '../../events/member-events';
import type { ChannelRow, MemberRow } from '../../store/channels';
import { sendMessage } from '../messages/send-message';
import { channelDataChange, withFilterTags, type DataChange, type OverridesCheck } from './channel-data';
import { overridesCheck } from './config-overrides';

const UPDATE_KEYS = new Set([
  'data', 'message', 'add_members', 'remove_members', 'invites', 'accept_invite', 'reject_invite',
  'add_moderators', 'demote_moderators', 'assign_roles', 'hide_history', 'hide_history_before',
  'skip_push', 'user_id', 'user', 'add_filter_tags', 'remove_filter_tags',
]);

/** A member to add: an id, or `{user_id, channel_role}` (NewMemberPayload). */
type NewMember = { userId: string; channelRole?: string };

export type ChannelUpdateResult = {
  channel: ChannelRow;
  members: ChannelMemberResponse[];
  message?: MessageResponse;
};

export function updateChannel(ctx: ServerContext, row: ChannelRow, actor: Actor, body: JsonObject): ChannelUpdateResult {
  const unsupported = Object.keys(body).filter((key) => !UPDATE_KEYS.has(key));
  if (unsupported.length) throw ApiError.input(`channel update with ${unsupported.join(', ')} is not supported`);
  const access = accessTo(ctx, row, actor);
  assertCanRead(row, actor, access);
  const request = parseRequest(ctx, row, body, overridesCheck(ctx, actor));
  const { adding, removing, inviting, moderators, demoting, roles, answer } = request;
  if (!request.data && !adding.length && !removing.length && !inviting.length && !moderators.length
      && !demoting.length && !roles.length && answer === undefined && !request.message) {
    throw ApiError.input('the update changes nothing: give data, members, invites, roles or a message');
  }

  if (request.data) {
    assertCapability(row, actor, access, 'update-channel');
    if (request.data.frozenChanged) assertCapability(row, actor, access, 'freeze-channel');
    if (request.data.cooldownChanged) assertCapability(row, actor, access, 'set-channel-cooldown');
  }
  const leavingOnly = !adding.length && removing.length === 1 && removing[0] === actor.id;
  if (adding.length || inviting.length || moderators.length || demoting.length || roles.length || (removing.length && !leavingOnly)) {
    assertCapability(row, actor, access, 'update-channel-members');
  }
  if (leavingOnly) assertCapability(row, actor, access, 'leave-channel');
  if (answer !== undefined) assertInvited(actor, access);
  // Checked before anything changes, so a refusal changes nothing.
  const sender = request.message ? requireUser(actor, 'send the update message') : undefined;

  const now = new Date().toISOString();
  const { store } = ctx;
  const changed = store.transaction(() => {
    const result = { added: [] as MemberRow[], removed: [] as MemberRow[], updated: [] as MemberRow[], invited: [] as MemberRow[], answered: undefined as MemberRow | undefined };
    if (request.data) store.channelAdmin.setData(row.cid, request.data.data, now);
    result.removed = removing.flatMap((id) => store.channels.member(row.cid, id) ?? []);
    store.memberships.remove(row.cid, removing);
    const addedIds = store.channels.addMembers(row.cid, adding.map((m) => m.userId), 'member', now);
    // New members start with everything so far read, like members added at creation.
    store.reads.start(row.cid, addedIds, now);
    for (const member of adding) {
      if (member.channelRole && addedIds.includes(member.userId)) {
        store.channelAdmin.setRole(row.cid, member.userId, roleFor(member.channelRole), member.channelRole, now);
      }
    }
    // hide_history: the new members start with an empty history (or one from hide_history_before).
    if (request.hideHistoryBefore) store.channelAdmin.hideHistoryBefore(row.cid, addedIds, request.hideHistoryBefore === 'now' ? now : request.hideHistoryBefore);
    result.added = addedIds.flatMap((id) => store.channels.member(row.cid, id) ?? []);
    const invitedIds = store.channelAdmin.invite(row.cid, inviting, now);
    result.invited = invitedIds.flatMap((id) => store.channels.member(row.cid, id) ?? []);
    const roleChanges: [string, string][] = [
      ...moderators.map((id): [string, string] => [id, 'channel_moderator']),
      ...demoting.map((id): [string, string] => [id, 'channel_member']),
      ...roles.map((r): [string, string] => [r.userId, r.channelRole ?? 'channel_member']),
    ];
    for (const [userId, channelRole] of roleChanges) {
      const current = store.channels.member(row.cid, userId);
      if (!current) throw ApiError.input(`${userId} is not a member of ${row.cid}`);
      // The creator stays the owner whatever channel role they get.
      const role = current.role === 'owner' ? 'owner' : roleFor(channelRole);
      const updated = store.channelAdmin.setRole(row.cid, userId, role, channelRole, now);
      if (updated) result.updated.push(updated);
    }
    // Answering again as before changes nothing: the first answer's time stands, and nobody hears it twice.
    const sameAnswer = answer ? Boolean(access.member?.invite_accepted_at) : Boolean(access.member?.invite_rejected_at);
    if (answer !== undefined && actor.id !== null && !sameAnswer) {
      result.answered = store.channelAdmin.answerInvite(row.cid, actor.id, answer, now);
      if (answer) store.reads.start(row.cid, [actor.id], now);
    }
    return result;
  });

  let channel = store.channels.get(row.cid) ?? row;
  if (changed.added.length) notifyMembersAdded(ctx, channel, changed.added);
  if (changed.removed.length) notifyMembersRemoved(ctx, channel, changed.removed.filter((m) => !adding.some((a) => a.userId === m.user_id)));
  for (const member of changed.invited) notifyInvitation(ctx, channel, 'notification.invited', member);
  for (const member of changed.updated) {
    notifyMemberUpdated(ctx, channel, member);
    notifyOwnCapabilities(ctx, channel, member.user_id);
  }
  if (changed.answered) {
    notifyInvitation(ctx, channel, answer ? 'notification.invite_accepted' : 'notification.invite_rejected', changed.answered);
  }
  if (request.data) notifyChannelUpdated(ctx, channel, actor.id);
  // The changes are made and announced; the accompanying message follows them.
  const skipPush = body.skip_push === true;
  const message = sender && request.message ? sendMessage(ctx, channel, sender, request.message, { skipPush }) : undefined;
  channel = store.channels.get(row.cid) ?? channel;

  const presenter = new Presenter(ctx);
  const memberRows = store.channels.members(row.cid, 100, 0);
  presenter.preloadUsers(memberRows.map((m) => m.user_id));
  return { channel, members: memberRows.map((m) => presenter.member(m)), ...(message ? { message } : {}) };
}

function parseRequest(ctx: ServerContext, row: ChannelRow, body: JsonObject, checkOverrides: OverridesCheck) {
  const adding = memberList(body.add_members, 'add_members');
  const removing = ids(body.remove_members, 'remove_members');
  const inviting = memberList(body.invites, 'invites').map((m) => m.userId);
  const moderators = ids(body.add_moderators, 'add_moderators');
  const demoting = ids(body.demote_moderators, 'demote_moderators');
  const roles = memberList(body.assign_roles, 'assign_roles');
  for (const role of roles) {
    if (!role.channelRole) throw ApiError.input('assign_roles needs a channel_role for every user');
    assertChannelRole(ctx, role.channelRole);
  }
  for (const member of adding) if (member.channelRole) assertChannelRole(ctx, member.channelRole);
  const unknown = [...adding.map((m) => m.userId), ...inviting].filter((id) => !ctx.store.users.get(id));
  if (unknown.length) throw ApiError.input(`The following users don't exist: [${[...new Set(unknown)].join(', ')}]`);
  const accept = optionalBoolean(body.accept_invite, 'accept_invite');
  const reject = optionalBoolean(body.reject_invite, 'reject_invite');
  if (accept && reject) throw ApiError.input('accept_invite and reject_invite cannot both be set');
  const answer = accept ? true : reject ? false : undefined;
  let data: DataChange | undefined = body.data === undefined ? undefined : channelDataChange(row, { replace: objectField(body.data, 'data') }, checkOverrides);
  const addTags = tagList(body.add_filter_tags, 'add_filter_tags');
  const removeTags = tagList(body.remove_filter_tags, 'remove_filter_tags');
  if (addTags.length || removeTags.length) data = withFilterTags(data ?? channelDataChange(row, { set: {}, unset: undefined }), addTags, removeTags);
  if (body.message !== undefined && body.message !== null && !isObject(body.message)) throw ApiError.input('message must be an object');
  const message = isObject(body.message) ? body.message : undefined;
  return { adding, removing, inviting, moderators, demoting, roles, answer, data, message, hideHistoryBefore: hiddenHistory(body) };
}

function assertInvited(actor: Actor, access: ChannelAccess): void {
  if (!access.member?.invited) throw ApiError.input(`user '${actor.id ?? ''}' has no invitation to answer in this channel`);
}

function assertChannelRole(ctx: ServerContext, channelRole: string): void {
  const known = ['channel_member', 'channel_moderator', ...ctx.store.accessControl.roles().map((r) => r.name)];
  if (!known.includes(channelRole)) throw ApiError.input(`channel_role "${channelRole}" does not exist; create it with POST /roles`);
}

/** The member's `role` field beside its channel role, as the provider reports it. */
function roleFor(channelRole: string): string {
  return channelRole === 'channel_moderator' ? 'moderator' : 'member';
}

function tagList(value: unknown, name: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((tag) => typeof tag !== 'string' || !tag || tag.length > 255)) {
    throw ApiError.input(`${name} must be a list of tags (strings of 1 to 255 characters)`);
  }
  return [...new Set(value as string[])];
}

function ids(value: unknown, name: string): string[] {
  return [...new Set(memberList(value, name).map((m) => m.userId))];
}

function memberList(value: unknown, name: string): NewMember[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw ApiError.input(`${name} must be a list`);
  return value.map((item, index) => {
    if (typeof item === 'string' && item) return { userId: item };
    if (isObject(item) && typeof item.user_id === 'string' && item.user_id) {
      if (item.channel_role !== undefined && typeof item.channel_role !== 'string') {
        throw ApiError.input(`${name}[${index}].channel_role must be a string`);
      }
      return { userId: item.user_id, ...(item.channel_role ? { channelRole: item.channel_role as string } : {}) };
    }
    throw ApiError.input(`${name}[${index}] must be a user id or {user_id, channel_role}`);
  });
}

/** `hide_history` (everything so far) or `hide_history_before` (a date): 'now', a date, or undefined. */
function hiddenHistory(body: JsonObject): string | undefined {
  const before = optionalString(body.hide_history_before, 'hide_history_before');
  if (before !== undefined) {
    if (Number.isNaN(Date.parse(before))) throw ApiError.input('hide_history_before must be a date');
    return new Date(before).toISOString();
  }
  return optionalBoolean(body.hide_history, 'hide_history') ? 'now' : undefined;
}
