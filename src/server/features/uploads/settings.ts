// Upload settings: the app's upload checks (served in `GET /app` for the SDK's attachment
// manager, and enforced again on every upload) and the folder the files are kept in.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FileUploadConfig } from 'stream-chat';
import { ApiError } from '../../http/errors';

/** 100 MB, the provider's default (stream-chat DEFAULT_UPLOAD_SIZE_LIMIT_BYTES). */
export const DEFAULT_SIZE_LIMIT = 104_857_600;

export function uploadConfig(overrides: Partial<FileUploadConfig> = {}): FileUploadConfig {
  return {
    allowed_file_extensions: [],
    blocked_file_extensions: [],
    allowed_mime_types: [],
    blocked_mime_types: [],
    size_limit: DEFAULT_SIZE_LIMIT,
    ...overrides,
  };
}

/**
 * The uploads folder: as given, else `uploads` beside a database file. An in-memory database
 * gets a temporary folder, removed by `cleanup()` when the server closes, so tests leave
 * nothing behind.
 */
export function uploadsFolder(dbPath: string, given?: string): { dir: string; cleanup: () => void } {
  if (given) return { dir: given, cleanup: () => {} };
  if (dbPath !== ':memory:') return { dir: join(dirname(dbPath), 'uploads'), cleanup: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'chat-widget-uploads-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const LIST_KEYS = ['allowed_file_extensions', 'blocked_file_extensions', 'allowed_mime_types', 'blocked_mime_types'] as const;

/** An upload config from `PATCH /app`, checked field by field; missing fields take the defaults. */
export function checkedUploadConfig(value: unknown, name: string): FileUploadConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw ApiError.input(`${name} must be an object`);
  const input = value as Record<string, unknown>;
  const config = uploadConfig();
  for (const key of LIST_KEYS) {
    const list = input[key];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list) || list.some((item) => typeof item !== 'string')) throw ApiError.input(`${name}.${key} must be a list of strings`);
    config[key] = list as string[];
  }
  // As the provider refuses it: an allow list and a block list of the same thing contradict.
  if (config.allowed_file_extensions?.length && config.blocked_file_extensions?.length) {
    throw ApiError.input(`${name}: Cannot specify both allowed file extensions and blocked file extensions`);
  }
  if (config.allowed_mime_types?.length && config.blocked_mime_types?.length) {
    throw ApiError.input(`${name}: Cannot specify both allowed mime types and blocked mime types`);
  }
  const size = input.size_limit;
  if (size !== undefined && size !== null && size !== 0) {
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 1) throw ApiError.input(`${name}.size_limit must be a positive number of bytes`);
    config.size_limit = size;
  }
  return config;
}
