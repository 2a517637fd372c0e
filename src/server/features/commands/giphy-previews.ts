// `/giphy cats` with a Giphy API configured: the route looks the first GIF up before the
// (synchronous) send path runs (lookUpGiphy), and runCommand answers with the provider's
// preview: an `ephemeral` message only its author gets, text `/giphy cats`, command `giphy`, one
// `giphy` attachment with Send, Shuffle and Cancel actions (`image_action`). Nothing is stored
// in the database: the preview is kept here, in memory, for its actions (giphy-actions.ts) to
// find: whose it is, its channel and thread, the search and the offset Shuffle moves on. At most
// 10,000 previews a server, each for a day; a restart forgets them (their actions then answer
// that the message does not exist).
import type { Action, Attachment, MessageResponse } from 'stream-chat';
import type { UserActor } from '../../auth/actor';
import { assertMaySend } from '../messages/may-send';
import type { ServerContext } from '../../http/context';
import type { JsonObject } from '../../http/input';
import type { Presenter } from '../../present/presenter';
import type { ChannelRow } from '../../store/channels';
import { senderReply } from '../messages/sender-reply';
import { searchGif, type Gif } from './giphy-service';

export type GiphyPreview = {
  id: string;
  cid: string;
  userId: string;
  query: string;
  /** Which search result is shown: Shuffle moves on to the next. */
  offset: number;
  gif: Gif;
  parentId?: string;
  showInChannel?: boolean;
  createdAt: string;
  expiresAt: number;
};

const MAX_PREVIEWS = 10_000;
const PREVIEW_MS = 24 * 60 * 60 * 1000;

const previewsOf = new WeakMap<ServerContext, Map<string, GiphyPreview>>();

function previews(ctx: ServerContext): Map<string, GiphyPreview> {
  let map = previewsOf.get(ctx);
  if (!map) previewsOf.set(ctx, (map = new Map()));
  return map;
}

export function getPreview(ctx: ServerContext, id: string): GiphyPreview | undefined {
  const map = previews(ctx);
  const preview = map.get(id);
  if (preview && preview.expiresAt <= Date.now()) {
    map.delete(id);
    return undefined;
  }
  return preview;
}

export function keepPreview(ctx: ServerContext, preview: GiphyPreview): void {
  const map = previews(ctx);
  map.delete(preview.id);
  map.set(preview.id, preview);
  // The oldest go first (a Map iterates in insertion order).
  for (const id of map.keys()) {
    if (map.size <= MAX_PREVIEWS) break;
    map.delete(id);
  }
}

export function dropPreview(ctx: ServerContext, id: string): void {
  previews(ctx).delete(id);
}

/** What the route looked up for one send: the search and the GIF found (none: no results). */
type Lookup = { query: string; gif: Gif | undefined };
const lookups = new WeakMap<JsonObject, Lookup>();

const GIPHY_TEXT = /^\/giphy(?:\s+([\s\S]*))?$/i;

/** The words `/giphy` searches for in a message input, or undefined when it is no `/giphy`. */
function giphyQuery(input: JsonObject): string | undefined {
  const text = typeof input.text === 'string' ? input.text.trim() : '';
  const match = GIPHY_TEXT.exec(text);
  if (match) return (match[1] ?? '').trim();
  return typeof input.command === 'string' && input.command.toLowerCase() === 'giphy' ? text : undefined;
}

/**
 * The async step before sending: when `input` is a `/giphy` and a Giphy API is configured, finds
 * its first GIF (502 or 504 when the service fails) and hands it to runCommand with the input.
 */
export async function lookUpGiphy(ctx: ServerContext, channel: ChannelRow, actor: UserActor, input: JsonObject): Promise<void> {
  const settings = ctx.config.giphy;
  const query = settings ? giphyQuery(input) : undefined;
  if (!settings || !query) return;
  // Nobody who may not send here now makes the backend search (a frozen channel, slow mode, a ban…).
  assertMaySend(ctx, channel, actor);
  lookups.set(input, { query, gif: await searchGif(settings, query, 0) });
}

const ACTIONS: Action[] = [
  { name: 'image_action', text: 'Send', style: 'primary', type: 'button', value: 'send' },
  { name: 'image_action', text: 'Shuffle', style: 'default', type: 'button', value: 'shuffle' },
  { name: 'image_action', text: 'Cancel', style: 'default', type: 'button', value: 'cancel' },
];

/** The provider's `giphy` attachment; the preview's carries the actions, a sent one none. */
export function giphyAttachment(query: string, gif: Gif, withActions: boolean): Attachment {
  const shown = gif.images.fixed_height ?? gif.images.original!;
  return {
    type: 'giphy',
    title: query,
    title_link: gif.url || shown.url,
    thumb_url: shown.url,
    giphy: gif.images as Attachment['giphy'],
    ...(withActions ? { actions: ACTIONS } : {}),
  };
}

/** The preview message as its author sees it. */
export function previewMessage(presenter: Presenter, channel: ChannelRow, actor: UserActor, preview: GiphyPreview): MessageResponse {
  const input: JsonObject = { id: preview.id, ...(preview.parentId ? { parent_id: preview.parentId } : {}) };
  return senderReply(presenter, channel, actor, input, {
    type: 'ephemeral',
    text: `/giphy ${preview.query}`,
    command: 'giphy',
    attachments: [giphyAttachment(preview.query, preview.gif, true)],
    created_at: preview.createdAt,
    ...(preview.showInChannel ? { show_in_channel: true } : {}),
  });
}

/**
 * runCommand's answer to `/giphy` (`args`, the words after it): the preview of the GIF the route
 * looked up, kept for its actions; an error message when nothing was found. Undefined when no
 * Giphy API is configured.
 */
export function giphyReply(
  ctx: ServerContext,
  presenter: Presenter,
  channel: ChannelRow,
  actor: UserActor,
  input: JsonObject,
  args: string,
): MessageResponse | undefined {
  if (!ctx.config.giphy) return undefined;
  const error = (text: string) => senderReply(presenter, channel, actor, input, { type: 'error', text, command: 'giphy' });
  if (!args) return error('/giphy needs words to search for: /giphy cats');
  const found = lookups.get(input);
  if (!found) return error('GIPHY is not available for messages sent this way.');
  if (!found.gif) return error(`No GIFs found for "${found.query}".`);
  const draft = senderReply(presenter, channel, actor, input, { type: 'ephemeral', text: '' });
  const preview: GiphyPreview = {
    id: draft.id,
    cid: channel.cid,
    userId: actor.id,
    query: found.query,
    offset: 0,
    gif: found.gif,
    ...(draft.parent_id ? { parentId: draft.parent_id } : {}),
    ...(input.show_in_channel === true ? { showInChannel: true } : {}),
    createdAt: draft.created_at ?? new Date().toISOString(),
    expiresAt: Date.now() + PREVIEW_MS,
  };
  keepPreview(ctx, preview);
  return previewMessage(presenter, channel, actor, preview);
}
