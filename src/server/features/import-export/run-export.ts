// Exports as tasks: `POST /export_channels` and `POST /export/users` answer with a `task_id`, the
// work runs after the request, and the task's result carries the URL of the file, written under
// the data folder (`<uploads>/exports/<128 random bits>/<name>`) and served back by
// `GET /exports/{id}/{name}` like an upload (the id is the key, as the provider's signed URLs are).
//
// The file is in the provider's import format, one `{"type", "item"}` per line (JSON Lines), so
// an export imports as it is into another backend: the users first (members and authors), then
// each channel, its members, its messages oldest first (replies after their parents) and their
// reactions. Messages are read a page at a time and written with the stream's backpressure, so
// memory holds a page, whatever the channel's size.
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerContext } from '../../http/context';
import type { ChannelRow } from '../../store/channels';
import type { MessageRow } from '../../store/messages';
import type { UserRow } from '../../store/users';
import { newUploadId } from '../uploads/disk';
import { startTask } from '../../infra/run-task';

const PAGE = 500;
export const EXPORT_PATH = /^\/exports\/([0-9a-f]{32})\/([A-Za-z0-9._-]+)$/;

export type ChannelExport = {
  cid: string;
  since?: string;
  until?: string;
};
export type ChannelExportOptions = {
  clearDeletedText: boolean;
  exportUsers: boolean;
  includeTruncated: boolean;
};

export function exportsDir(ctx: ServerContext): string {
  return join(ctx.config.uploads.dir, 'exports');
}

class Writer {
  private readonly out: WriteStream;
  constructor(path: string) {
    this.out = createWriteStream(path, { encoding: 'utf8' });
  }
  async line(type: string, item: unknown): Promise<void> {
    if (!this.out.write(`${JSON.stringify({ type, item })}\n`)) await once(this.out, 'drain');
  }
  async close(): Promise<void> {
    this.out.end();
    await once(this.out, 'finish');
  }
}

async function openExport(ctx: ServerContext, origin: string, name: string) {
  const id = newUploadId();
  const dir = join(exportsDir(ctx), id);
  await mkdir(dir, { recursive: true });
  return { writer: new Writer(join(dir, name)), url: `${origin}/exports/${id}/${name}` };
}

export function userItem(row: UserRow): Record<string, unknown> {
  return {
    ...(JSON.parse(row.custom) as object),
    id: row.id,
    role: row.role,
    ...(row.name !== null ? { name: row.name } : {}),
    ...(row.image !== null ? { image: row.image } : {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function messageItem(row: MessageRow, channel: ChannelRow, clearDeletedText: boolean): Record<string, unknown> {
  return {
    ...(JSON.parse(row.custom) as object),
    id: row.id,
    channel_type: channel.type,
    channel_id: channel.id,
    user: row.user_id,
    type: row.type,
    text: row.deleted_at && clearDeletedText ? '' : row.text,
    ...(row.parent_id ? { parent_id: row.parent_id, show_in_channel: row.show_in_channel === 1 } : {}),
    ...(row.quoted_message_id ? { quoted_message_id: row.quoted_message_id } : {}),
    mentioned_users_ids: JSON.parse(row.mentioned_user_ids) as string[],
    attachments: JSON.parse(row.attachments) as unknown[],
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.deleted_at ? { deleted_at: row.deleted_at } : {}),
  };
}

export function startChannelExport(ctx: ServerContext, origin: string, channels: ChannelExport[], options: ChannelExportOptions): string {
  const { store } = ctx;
  return startTask(ctx, 'export_channels', async (breathe) => {
    const { writer, url } = await openExport(ctx, origin, 'channels.jsonl');
    try {
      /** The channel's messages in range, a page at a time, replies only with their parent in range. */
      async function* messagesOf(channel: ChannelRow, only: ChannelExport) {
        let after = 0;
        for (;;) {
          const page = store.imports.messagesAfter(channel.cid, after, PAGE);
          if (!page.length) return;
          after = (page[page.length - 1] as MessageRow).seq;
          const inRange = (row: MessageRow) =>
            (!only.since || row.created_at >= only.since) && (!only.until || row.created_at <= only.until)
            && (options.includeTruncated || !channel.truncated_at || row.created_at > channel.truncated_at);
          yield page.filter((row) => {
            if (!row.parent_id) return inRange(row);
            const parent = store.messages.get(row.parent_id);
            return parent !== undefined && inRange(parent);
          });
          await breathe();
        }
      }

      if (options.exportUsers) {
        const userIds = new Set<string>();
        for (const only of channels) {
          const channel = store.channels.get(only.cid);
          if (!channel) continue;
          if (channel.created_by_id) userIds.add(channel.created_by_id);
          for (const member of store.imports.membersIn(channel.cid)) userIds.add(member.user_id);
          for await (const page of messagesOf(channel, only)) {
            for (const row of page) userIds.add(row.user_id);
            for (const reaction of store.imports.reactionsOn(page.map((row) => row.id))) userIds.add(reaction.user_id);
          }
        }
        const ids = [...userIds];
        for (let i = 0; i < ids.length; i += PAGE) {
          for (const row of store.users.getMany(ids.slice(i, i + PAGE)).values()) await writer.line('user', userItem(row));
          await breathe();
        }
      }

      for (const only of channels) {
        const channel = store.channels.get(only.cid);
        if (!channel) continue;
        await writer.line('channel', {
          ...(JSON.parse(channel.custom) as object),
          id: channel.id,
          type: channel.type,
          created_by: channel.created_by_id,
          ...(channel.name !== null ? { name: channel.name } : {}),
          created_at: channel.created_at,
          updated_at: channel.updated_at,
        });
        for (const member of store.imports.membersIn(channel.cid)) {
          await writer.line('member', {
            channel_type: channel.type,
            channel_id: channel.id,
            user_id: member.user_id,
            channel_role: member.channel_role,
            created_at: member.created_at,
          });
        }
        for await (const page of messagesOf(channel, only)) {
          for (const row of page) await writer.line('message', messageItem(row, channel, options.clearDeletedText));
          for (const reaction of store.imports.reactionsOn(page.map((row) => row.id))) {
            await writer.line('reaction', {
              ...(JSON.parse(reaction.custom) as object),
              message_id: reaction.message_id,
              user_id: reaction.user_id,
              type: reaction.type,
              score: reaction.score,
              created_at: reaction.created_at,
              updated_at: reaction.updated_at,
            });
          }
        }
      }
    } finally {
      await writer.close();
    }
    return { url };
  });
}

export function startUserExport(ctx: ServerContext, origin: string, userIds: string[]): string {
  return startTask(ctx, 'export_users', async (breathe) => {
    const { writer, url } = await openExport(ctx, origin, 'users.jsonl');
    try {
      for (let i = 0; i < userIds.length; i += PAGE) {
        const found = ctx.store.users.getMany(userIds.slice(i, i + PAGE));
        for (const id of userIds.slice(i, i + PAGE)) {
          const row = found.get(id);
          if (row) await writer.line('user', userItem(row));
        }
        await breathe();
      }
    } finally {
      await writer.close();
    }
    return { url };
  });
}
