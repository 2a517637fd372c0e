// The channel type's blocklist applied to a message's text. `config.blocklist` names the list and
// `config.blocklist_behavior` says what a match does:
// - `block`: the message is neither stored nor sent. As on the provider, the send does not fail:
//   the sender gets the message back as `type: 'error'`, "Message was blocked by moderation
//   policies", with `moderation_details` (the SDK's isBlockedMessage recognises it);
// - `flag` (the default): sent as usual and flagged for review by automatic moderation;
// - `shadow_block`: stored and flagged, but seen by its author alone (like a shadow ban).
// Matching is the provider's: whole words, case-insensitive, the text split on white space and
// hyphens ("cookie-monster" matches "monster"; "creamcheese" does not match "cream").
import type { MessageResponse } from 'stream-chat';
import type { UserActor } from '../../auth/actor';
import type { ChannelTypeConfig } from '../../auth/channel-types';
import type { JsonObject } from '../../http/input';
import type { Presenter } from '../../present/presenter';
import type { ChannelRow } from '../../store/channels';
import type { Store } from '../../store/store';
import { senderReply } from '../messages/sender-reply';

export type BlocklistBehavior = 'block' | 'flag' | 'shadow_block';
export type BlocklistVerdict = { blocklist: string; behavior: BlocklistBehavior; word: string };

export const BLOCKED_TEXT = 'Message was blocked by moderation policies';

/** What the type's blocklist says about `text`; undefined when nothing matches. */
export function blocklistVerdict(store: Store, config: ChannelTypeConfig, text: string): BlocklistVerdict | undefined {
  if (!config.blocklist || !text) return undefined;
  const listed = store.blocklists.wordSet(config.blocklist);
  if (!listed) return undefined;
  const word = wordsOf(text).find((candidate) => listed.has(candidate));
  if (!word) return undefined;
  return { blocklist: config.blocklist, behavior: behaviorOf(config), word };
}

/** What moderation stores on a message it let through (messages.moderation). */
export function moderationMark(verdict: BlocklistVerdict): string {
  return JSON.stringify({ blocklist: verdict.blocklist, action: verdict.behavior });
}

/** The sender's copy of a blocked message. */
export function blockedReply(
  presenter: Presenter,
  channel: ChannelRow,
  actor: UserActor,
  input: JsonObject,
  text: string,
): MessageResponse {
  return senderReply(presenter, channel, actor, input, {
    type: 'error',
    text: BLOCKED_TEXT,
    moderation_details: {
      action: 'MESSAGE_RESPONSE_ACTION_REMOVE',
      error_msg: BLOCKED_TEXT,
      harms: [{ name: 'blocklist', phrase_list_ids: [] }],
      original_text: text,
    },
  });
}

function behaviorOf(config: ChannelTypeConfig): BlocklistBehavior {
  const configured = config.blocklist_behavior;
  return configured === 'block' ? 'block' : configured === 'shadow_block' ? 'shadow_block' : 'flag';
}

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[\s-]+/)
    .map((token) => token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);
}
