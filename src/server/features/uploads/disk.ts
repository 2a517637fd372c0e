// Upload bytes on disk, one folder per upload: `<dir>/<id>/<safe name>`. The id is 128 random
// bits, so a URL cannot be guessed from another one, and the folder keeps the original name
// (made safe) for the download.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

const ID = /^[0-9a-f]{32}$/;
const URL_PATH = /^\/uploads\/([0-9a-f]{32})\/[^/]+$/;

export function newUploadId(): string {
  return randomBytes(16).toString('hex');
}

export function isUploadId(id: string): boolean {
  return ID.test(id);
}

/** The name without any path, control or shell-special characters; at most 100 characters. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f"*:<>?|%#&;`$]/g, '')
    .replace(/\s+/g, '_')
    .replace(/^\.+/, '');
  if (!cleaned) return 'file';
  if (cleaned.length <= 100) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const ext = dot > 0 && cleaned.length - dot <= 10 ? cleaned.slice(dot) : '';
  return cleaned.slice(0, 100 - ext.length) + ext;
}

export function uploadPath(dir: string, id: string, name: string): string {
  return join(dir, id, name);
}

export async function removeUpload(dir: string, id: string): Promise<void> {
  if (isUploadId(id)) await rm(join(dir, id), { recursive: true, force: true });
}

export function uploadUrl(origin: string, id: string, name: string): string {
  return `${origin}/uploads/${id}/${encodeURIComponent(name)}`;
}

/** The upload id of one of our URLs (any origin: the page may reach us under another host name). */
export function uploadIdOf(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    return URL_PATH.exec(new URL(url).pathname)?.[1];
  } catch {
    return undefined;
  }
}
