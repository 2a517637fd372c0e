// The events a webhook can select (`GET /hook/events`, `webhook_events`): every type this
// backend emits on its change feed.
import type { HookEvent } from 'stream-chat';

const CHAT = ['chat'] as HookEvent['products'];

const DESCRIPTIONS: Record<string, string> = {
  'message.new': 'A message was sent',
  'message.updated': 'A message was edited, pinned or unpinned',
  'message.deleted': 'A message was deleted',
  'message.undeleted': 'A deleted message was restored',
  'message.read': 'A user read a channel',
  'message.flagged': 'A message was flagged',
  'message.unblocked': 'A message held by moderation was released',
  'reaction.new': 'A reaction was added',
  'reaction.updated': 'A reaction replaced another (enforce unique)',
  'reaction.deleted': 'A reaction was removed',
  'member.added': 'A member joined a channel',
  'member.updated': 'A member changed (role, invitation, pinned, archived)',
  'member.removed': 'A member left or was removed',
  'channel.created': 'A channel was created',
  'channel.updated': 'A channel was updated',
  'channel.deleted': 'A channel was deleted',
  'channel.truncated': "A channel's messages were removed",
  'channel.hidden': 'A member hid a channel',
  'channel.visible': 'A hidden channel was shown again',
  'notification.invited': 'A user was invited to a channel',
  'notification.invite_accepted': 'An invitation was accepted',
  'notification.invite_rejected': 'An invitation was rejected',
  'user.updated': 'A user was updated',
  'user.deleted': 'A user was deleted',
  'user.deactivated': 'A user was deactivated',
  'user.reactivated': 'A user was reactivated',
  'user.banned': 'A user was banned, from the app or a channel',
  'user.unbanned': 'A ban was lifted',
  'user.flagged': 'A user was flagged',
  'user.messages.deleted': "A user's messages were deleted",
  'thread.updated': 'A thread was updated',
  'poll.updated': 'A poll was updated',
  'poll.closed': 'A poll was closed',
  'poll.deleted': 'A poll was deleted',
  'poll.vote_casted': 'A vote was cast',
  'poll.vote_changed': 'A vote was changed',
  'poll.vote_removed': 'A vote was removed',
};

export const HOOK_EVENTS: HookEvent[] = Object.entries(DESCRIPTIONS).map(([name, description]) => ({
  name,
  description,
  products: CHAT,
}));
