// Attachments as a message (or draft) carries them: at most 10 (the spec's limit, which the
// composer also enforces), each an object. Images uploaded here get their stored size: the SDK
// builds the attachment from `{file, thumb_url}` alone (attachmentManager.ts), dropping the
// upload response's original_width/original_height, so the backend fills them in, letting a
// message list size images before they load.
import { ApiError } from '../../http/errors';
import { isObject, type JsonObject } from '../../http/input';
import type { Store } from '../../store/store';
import { uploadIdOf } from './disk';

export const MAX_ATTACHMENTS = 10;

export function attachmentList(value: unknown, name: string): JsonObject[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every(isObject)) throw ApiError.input(`${name} must be a list of objects`);
  if (value.length > MAX_ATTACHMENTS) {
    throw ApiError.input(`a message can have at most ${MAX_ATTACHMENTS} attachments, not ${value.length}`);
  }
  return value;
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
