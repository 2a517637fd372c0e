// Upload settings: the app's upload checks (served in `GET /app` for the SDK's attachment
// manager, and enforced again on every upload) and the folder the files are kept in.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FileUploadConfig } from 'stream-chat';

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
