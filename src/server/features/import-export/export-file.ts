// Where exports are written and how they are served, and the writer that puts import items in a
// file. An export is `<uploads>/exports/<kind>/<128 random bits>/<name>`, served back by
// `GET /exports/{kind}/{id}/{name}` like an upload (the id is the key, as the provider's signed
// URLs are); the kind is in the URL as in the provider's (a users export's URL has
// `/exports/users/` in its path).
// The writer writes as it goes, with the stream's backpressure, so memory holds one item
// whatever the export's size, in either form the provider's import reads: one item a line (JSON
// Lines), or one JSON array (the form stream-cli's validator and the dashboard's upload take),
// written an item a line too.
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerContext } from '../../http/context';
import { newUploadId } from '../uploads/disk';
import type { ImportItem, ItemType } from './import-items';

export type ExportKind = 'users' | 'channels' | 'app';
export type FileForm = 'lines' | 'array';
export type ItemCounts = Record<ItemType, number>;

export const EXPORT_PATH = /^\/exports\/(users|channels|app)\/([0-9a-f]{32})\/([A-Za-z0-9._-]+)$/;

export function exportsDir(ctx: ServerContext): string {
  return join(ctx.config.uploads.dir, 'exports');
}

/** Where an export of this kind, id and name is on disk. */
export function exportFile(ctx: ServerContext, kind: ExportKind, id: string, name: string): string {
  return join(exportsDir(ctx), kind, id, name);
}

export class ItemWriter {
  readonly counts: ItemCounts = { user: 0, channel: 0, member: 0, message: 0, reaction: 0, device: 0 };
  private readonly out: WriteStream;
  private written = 0;
  /** The file's first error (it could not be opened, the disk is full): the next call throws it. */
  private failure: Error | undefined;

  constructor(path: string, private readonly form: FileForm) {
    this.out = createWriteStream(path, { encoding: 'utf8' });
    this.out.on('error', (error) => {
      this.failure ??= error;
    });
  }

  async write({ type, item }: ImportItem): Promise<void> {
    if (this.failure) throw this.failure;
    const line = JSON.stringify({ type, item });
    const text = this.form === 'lines' ? `${line}\n` : `${this.written ? ',\n' : '[\n'}${line}`;
    this.written++;
    this.counts[type]++;
    if (!this.out.write(text)) await once(this.out, 'drain');
  }

  async close(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.form === 'array') this.out.write(this.written ? '\n]\n' : '[]\n');
    const finished = once(this.out, 'finish');
    this.out.end();
    await finished;
  }

  /** Stops writing after a failure (what was written is left to the caller). */
  abandon(): void {
    this.out.destroy();
  }
}

/** A new export file of `kind` and its URL on this backend. */
export async function openExport(ctx: ServerContext, origin: string, kind: ExportKind, name: string, form: FileForm) {
  const id = newUploadId();
  const path = exportFile(ctx, kind, id, name);
  await mkdir(join(exportsDir(ctx), kind, id), { recursive: true });
  return { writer: new ItemWriter(path, form), url: `${origin}/exports/${kind}/${id}/${name}` };
}
