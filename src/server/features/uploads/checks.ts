// The app's upload checks, enforced by the backend exactly as the SDK's attachment manager runs
// them before uploading (stream-chat attachmentManager.ts getUploadConfigCheck): allowed and
// blocked extensions (a suffix of the file name, any case), allowed and blocked mime types
// (exact, any case), then the size limit. The SDK only warns; this is what actually refuses.
import type { FileUploadConfig } from 'stream-chat';
import { ApiError, ErrorCode } from '../../http/errors';
import { DEFAULT_SIZE_LIMIT } from './settings';

export type IncomingFile = { name: string; mimeType: string; size: number };

export function checkUpload(config: FileUploadConfig, file: IncomingFile): void {
  if (file.size === 0) throw ApiError.input(`upload refused: ${file.name} is empty`);
  checkFileType(config, file.name, file.mimeType);
  const limit = sizeLimit(config);
  if (file.size > limit) throw tooLarge(limit);
}

/** The checks a file's name and type can answer, before any of its bytes are read. */
export function checkFileType(config: FileUploadConfig, fileName: string, mimeType: string): void {
  const name = fileName.toLowerCase();
  const mime = mimeType.toLowerCase();
  const endsWith = (ext: string) => name.endsWith(ext.toLowerCase());
  const { allowed_file_extensions, blocked_file_extensions, allowed_mime_types, blocked_mime_types } = config;

  if (allowed_file_extensions?.length && !allowed_file_extensions.some(endsWith)) {
    throw refused('allowed_file_extensions', `${fileName} does not end in ${allowed_file_extensions.join(', ')}`);
  }
  const blockedExtension = blocked_file_extensions?.find(endsWith);
  if (blockedExtension) throw refused('blocked_file_extensions', `files ending in ${blockedExtension} are not allowed`);
  if (allowed_mime_types?.length && !allowed_mime_types.some((type) => type.toLowerCase() === mime)) {
    throw refused('allowed_mime_types', `${mime} is not an allowed type (${allowed_mime_types.join(', ')})`);
  }
  if (blocked_mime_types?.some((type) => type.toLowerCase() === mime)) {
    throw refused('blocked_mime_types', `${mime} files are not allowed`);
  }
}

export function sizeLimit(config: FileUploadConfig): number {
  return config.size_limit || DEFAULT_SIZE_LIMIT;
}

/** 413 with the provider's input-error code, so the SDK shows the message like any code 4. */
export function tooLarge(limit: number): ApiError {
  return new ApiError(ErrorCode.InputError, `upload refused (size_limit): files may be at most ${limit} bytes`, 413);
}

/** The reason names are the SDK's (UploadPermissionCheckResult), so the UI can map them. */
function refused(reason: string, detail: string): ApiError {
  return ApiError.input(`upload refused (${reason}): ${detail}`);
}
