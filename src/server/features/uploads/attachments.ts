// Attachments as a message (or draft) carries them: at most 10 (the spec's limit, which the
// composer also enforces), each an object, free-form beyond the fields the SDK types, with at
// most 5KB of the rest in each. A voice recording's waveform counts too, though typed: its ~100
// amplitudes fit (unrounded, as stream-chat-react sends them, about 2KB), and an absurd waveform
// is refused (413) instead of being stored and sent to every watcher.
//
// Images uploaded here get their stored size: the SDK builds the attachment from
// `{file, thumb_url}` alone (attachmentManager.ts), dropping the upload response's
// original_width/original_height, so the backend fills them in, letting a message list size
// images before they load.
import { ApiError } from '../../http/errors';
import { isObject, type JsonObject } from '../../http/input';
import type { Store } from '../../store/store';
import { uploadIdOf } from './disk';

export const MAX_ATTACHMENTS = 10;
/** The provider's bound on an attachment's custom data. */
export const MAX_CUSTOM_BYTES = 5 * 1024;

/** The attachment fields the SDK types (its Attachment), bar the waveform; the rest is custom data. */
const TYPED_FIELDS = new Set([
  'type', 'title', 'title_link', 'text', 'pretext', 'fallback', 'color', 'author_name', 'author_link',
  'author_icon', 'image_url', 'thumb_url', 'asset_url', 'og_scrape_url', 'footer', 'footer_icon', 'fields',
  'actions', 'giphy', 'original_width', 'original_height', 'duration', 'file_size', 'mime_type', 'latitude', 'longitude',
]);

export function attachmentList(value: unknown, name: string): JsonObject[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every(isObject)) throw ApiError.input(`${name} must be a list of objects`);
  if (value.length > MAX_ATTACHMENTS) {
    throw ApiError.input(`a message can have at most ${MAX_ATTACHMENTS} attachments, not ${value.length}`);
  }
  for (const attachment of value) {
    let custom = 0;
    for (const [key, field] of Object.entries(attachment)) {
      if (TYPED_FIELDS.has(key) || field === undefined) continue;
      custom += Buffer.byteLength(key) + jsonBytes(field);
      if (custom > MAX_CUSTOM_BYTES) throw ApiError.tooBig(`${name}: custom data of an attachment is larger than 5KB`);
    }
  }
  return value;
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}

export function withUploadDimensions(store: Store, attachments: JsonObject[]): JsonObject[] {
  return attachments.map((attachment) => {
    if (attachment.original_width !== undefined && attachment.original_height !== undefined) return attachment;
    const id = uploadIdOf(attachment.image_url) ?? uploadIdOf(attachment.thumb_url);
    const file = id ? store.files.get(id) : undefined;
    if (!file || file.width === null || file.height === null) return attachment;
    return { ...attachment, original_width: file.width, original_height: file.height };
  });
}
