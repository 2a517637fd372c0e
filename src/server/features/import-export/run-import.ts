// An import as a task: `POST /imports` records the import (state `uploaded`) and starts this off
// the request. The file is read twice, item by item (import-file.ts): first every item's shape is
// checked (`analyzing`, check-item.ts), so a malformed file changes nothing; then the items are
// applied in order (`importing`, apply-item.ts), a chunk per transaction with a breath between
// chunks, members' read positions last, and the import ends `completed` with counts or `failed`
// with the error (references to users, channels or messages that neither the file nor the
// backend has are found in this pass, and what came before them stays imported). Mode `upsert`
// (the default) updates what exists; `insert` leaves it as it is.
//
// Items are the provider's (import-items.ts lists their fields): user, channel, member, message,
// reaction and device, in a JSON array or one a line; what every export here writes.
import type { ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { startTask } from '../../infra/run-task';
import { applyItem, ReadPositions, type ImportMode } from './apply-item';
import { checkItem } from './check-item';
import { importItems, type ImportLine } from './import-file';
import type { ItemType } from './import-items';

export type { ImportMode } from './apply-item';
type Stats = Record<ItemType, number> & { skipped: number };

const CHUNK = 200;

export function startImport(ctx: ServerContext, importId: string, file: string, mode: ImportMode): string {
  return startTask(ctx, 'import', async (breathe) => {
    const now = () => new Date().toISOString();
    const reads = new ReadPositions();
    try {
      ctx.store.imports.move(importId, 'analyzing', now());
      let seen = 0;
      for await (const line of importItems(file)) {
        checkItem(line);
        if (++seen % 1000 === 0) await breathe();
      }
      ctx.store.imports.move(importId, 'importing', now());
      const stats: Stats = { user: 0, channel: 0, member: 0, message: 0, reaction: 0, device: 0, skipped: 0 };
      let chunk: ImportLine[] = [];
      const flush = () => {
        const lines = chunk;
        chunk = [];
        try {
          ctx.store.transaction(() => {
            for (const line of lines) {
              if (applyItem(ctx, line, mode, reads)) stats[line.type as ItemType]++;
              else stats.skipped++;
            }
          });
        } catch (error) {
          reads.drop();
          throw error;
        }
        reads.keep();
      };
      try {
        for await (const line of importItems(file)) {
          chunk.push(line);
          if (chunk.length >= CHUNK) {
            flush();
            await breathe();
          }
        }
        flush();
      } finally {
        // The members imported keep their read positions, whatever stopped the import after them.
        reads.apply(ctx);
      }
      const result = {
        stats: {
          users: stats.user, channels: stats.channel, members: stats.member, messages: stats.message,
          reactions: stats.reaction, devices: stats.device, skipped: stats.skipped,
        },
      };
      ctx.store.imports.move(importId, 'completed', now(), result);
      return { import_id: importId, ...result };
    } catch (error) {
      const description = error instanceof ApiError ? error.message : 'the import failed';
      ctx.store.imports.move(importId, 'failed', now(), { error: description });
      throw error;
    }
  });
}
