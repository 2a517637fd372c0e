// Exports of a few channels or users as tasks: `POST /export_channels` and `POST /export/users`
// answer with a `task_id`, the work runs after the request, and the task's result carries the URL
// of the file (export-file.ts: `/exports/channels/…/channels.jsonl`, `/exports/users/…/users.jsonl`).
//
// The file is in the provider's import format, one `{"type", "item"}` per line (JSON Lines,
// import-items.ts), so an export imports as it is into another backend: the users first (members,
// authors, reactors and those mentioned), then each channel as channel-items.ts walks it.
// Messages are read a page at a time, so memory holds a page, whatever the channel's size.
import type { ServerContext } from '../../http/context';
import { startTask } from '../../infra/run-task';
import { channelItems, creatorOf, messagePages, type ChannelRange } from './channel-items';
import { openExport } from './export-file';
import { userItem } from './import-items';

const PAGE = 500;

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

export function startChannelExport(ctx: ServerContext, origin: string, channels: ChannelExport[], options: ChannelExportOptions): string {
  const { store } = ctx;
  return startTask(ctx, 'export_channels', async (breathe) => {
    const { writer, url } = await openExport(ctx, origin, 'channels', 'channels.jsonl', 'lines');
    const range = (only: ChannelExport): ChannelRange => ({
      includeTruncated: options.includeTruncated,
      ...(only.since ? { since: only.since } : {}),
      ...(only.until ? { until: only.until } : {}),
    });
    try {
      if (options.exportUsers) {
        const userIds = new Set<string>();
        for (const only of channels) {
          const channel = store.channels.get(only.cid);
          if (!channel) continue;
          const creator = creatorOf(store, channel);
          if (creator) userIds.add(creator);
          for (const member of store.imports.membersIn(channel.cid)) userIds.add(member.user_id);
          for await (const page of messagePages(store, channel, range(only), breathe)) {
            for (const row of page) {
              userIds.add(row.user_id);
              for (const mentioned of JSON.parse(row.mentioned_user_ids) as string[]) userIds.add(mentioned);
            }
            for (const reaction of store.imports.reactionsOn(page.map((row) => row.id))) userIds.add(reaction.user_id);
          }
        }
        const ids = [...userIds];
        for (let i = 0; i < ids.length; i += PAGE) {
          for (const row of store.users.getMany(ids.slice(i, i + PAGE)).values()) await writer.write(userItem(row));
          await breathe();
        }
      }

      const userExists = (id: string) => store.users.get(id) !== undefined;
      for (const only of channels) {
        const channel = store.channels.get(only.cid);
        if (!channel) continue;
        const walk = { ...range(only), clearDeletedText: options.clearDeletedText, userExists, breathe };
        for await (const item of channelItems(store, channel, walk)) await writer.write(item);
      }
    } catch (error) {
      writer.abandon();
      throw error;
    }
    await writer.close();
    return { url };
  });
}

export function startUserExport(ctx: ServerContext, origin: string, userIds: string[]): string {
  return startTask(ctx, 'export_users', async (breathe) => {
    const { writer, url } = await openExport(ctx, origin, 'users', 'users.jsonl', 'lines');
    try {
      for (let i = 0; i < userIds.length; i += PAGE) {
        const found = ctx.store.users.getMany(userIds.slice(i, i + PAGE));
        for (const id of userIds.slice(i, i + PAGE)) {
          const row = found.get(id);
          if (row) await writer.write(userItem(row));
        }
        await breathe();
      }
    } catch (error) {
      writer.abandon();
      throw error;
    }
    await writer.close();
    return { url };
  });
}
