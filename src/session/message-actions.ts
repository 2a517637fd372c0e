import type { Channel, LocalMessage, MessageResponse } from 'stream-chat';
import type { MessageKey } from '../i18n/en';
import { text, type Text } from '../i18n/translate';
import { why } from './session-error';
import { outboxFor } from './outbox';

// What a reader can do to one message, each as one SDK call. Which of them a reader is
// offered is decided by `availableActions` from the channel's own capabilities.

export type MessageActionId =
  | 'reply'
  | 'quote'
  | 'edit'
  | 'delete'
  | 'hard-delete'
  | 'pin'
  | 'unpin'
  | 'flag'
  | 'mute-user'
  | 'ban'
  | 'copy'
  | 'mark-unread'
  | 'remind'
  | 'translate';

/** An action's name in the catalogue (`actions.reply`, …). */
export const actionLabel = (action: MessageActionId) => `actions.${action}` as const satisfies MessageKey;

/** @param translate the visitor's language when the backend translates and this message is not yet in it */
export function availableActions(message: LocalMessage, ownUserId: string | null, capabilities: string[], translate = false): MessageActionId[] {
  const can = (capability: string) => capabilities.includes(capability);
  const own = message.user?.id === ownUserId;
  if (message.type === 'deleted' || message.status === 'sending' || message.status === 'failed') return [];
  if (message.type === 'system' || message.type === 'ephemeral' || message.type === 'error') return [];
  const actions: MessageActionId[] = [];
  if (can('send-reply') && !message.parent_id) actions.push('reply');
  if (can('quote-message')) actions.push('quote');
  if ((own && can('update-own-message')) || can('update-any-message')) actions.push('edit');
  if ((own && can('delete-own-message')) || can('delete-any-message')) actions.push('delete');
  // Moderators may also strip a message's content for good.
  if (can('delete-any-message')) actions.push('hard-delete');
  if (can('pin-message')) actions.push(message.pinned ? 'unpin' : 'pin');
  if (!own && can('flag-message')) actions.push('flag');
  if (!own) actions.push('mute-user');
  if (!own && can('ban-channel-members')) actions.push('ban');
  if (message.text) actions.push('copy');
  if (!own && message.text && translate) actions.push('translate');
  if (!own && can('read-events') && !message.parent_id) actions.push('mark-unread');
  actions.push('remind');
  return actions;
}

const HOUR_MS = 60 * 60 * 1000;

/** Runs one action; resolves to a readable result for the panel's notice line, or null. */
export async function runAction(channel: Channel, message: LocalMessage, action: MessageActionId): Promise<Text | null> {
  const client = channel.getClient();
  const composer = channel.messageComposer;
  try {
    switch (action) {
      case 'quote':
        composer.setQuotedMessage(message);
        return null;
      case 'edit':
        composer.initState({ composition: message });
        return null;
      case 'delete':
      case 'hard-delete':
        // Shown deleted at once; while the chat cannot be reached the delete waits in the outbox.
        await outboxFor(client).change(channel.cid, message, { ...message, type: 'deleted', deleted_at: new Date() }, action === 'delete' ? 'soft' : 'hard');
        return null;
      case 'pin':
        await client.pinMessage(message);
        return text('actions.pinned');
      case 'unpin':
        await client.unpinMessage(message);
        return text('actions.unpinned');
      case 'flag':
        await client.flagMessage(message.id);
        return text('actions.flagged');
      case 'mute-user':
        if (message.user?.id) await client.muteUser(message.user.id);
        return text('actions.muted', { name: message.user?.name || message.user?.id });
      case 'ban':
        if (message.user?.id) await channel.banUser(message.user.id, { reason: 'Banned by a moderator' });
        return text('actions.banned', { name: message.user?.name || message.user?.id });
      case 'copy':
        await navigator.clipboard.writeText(message.text ?? '');
        return text('actions.copied');
      case 'mark-unread':
        return null; // the channel handle marks it, and holds off marking read again
      case 'remind':
        await client.reminders.upsertReminder({ messageId: message.id, remind_at: new Date(Date.now() + HOUR_MS).toISOString() });
        return text('actions.reminded');
      case 'reply':
      case 'translate':
        return null; // the panel opens the thread view, or asks for the translation, itself
    }
  } catch (error) {
    return text('actions.failed', { action: text(actionLabel(action)), why: why(error) });
  }
}

export type GiphyActionValue = 'send' | 'shuffle' | 'cancel';

/**
 * A `/giphy` preview's button (the SDK's channel.sendAction, `image_action`). The answer is
 * applied as its event would be, for the backend's message.new or message.updated may come
 * later, and a cancel has none: the sent or shuffled message replaces the preview, a cancelled
 * one is removed.
 */
export async function runGiphyAction(channel: Channel, message: LocalMessage, value: GiphyActionValue): Promise<Text | null> {
  try {
    const answered = (await channel.sendAction(message.id, { image_action: value })).message as MessageResponse | undefined;
    channel.getClient().dispatchEvent(
      answered
        ? { type: 'message.updated', cid: channel.cid, message: answered }
        : { type: 'message.deleted', cid: channel.cid, hard_delete: true, message: { id: message.id, parent_id: message.parent_id } as MessageResponse },
    );
    return null;
  } catch (error) {
    return text('message.giphyFailed', { why: why(error) });
  }
}
