// The whole app as one provider import file, for a site that moves to Stream's hosted chat: every
// user (with their push devices), then every channel that is not deleted with its members, their
// read positions, its messages and threads and their reactions (channel-items.ts). Two ways in:
// - `POST /export/app` (server-side): a task whose result is `{url, stats}`, the file at
//   `/exports/app/{id}/chat-import.json`;
// - `chat-widget-server --export-stream <file>` (main.ts): the same file written from the
//   database, with the server stopped.
// The file is one JSON array, the form the provider's dashboard upload and its CLI's
// validate-import take (this backend's `/imports` reads it too). What the provider checks that
// the other exports need not:
// - a channel id may only have letters, digits, "_" and "-", so a distinct channel
//   ("!members-…") is written by its members (`member_ids`, and `channel_member_ids` on its
//   members and messages), from which the importer finds or makes the distinct channel again;
// - every reference must be in the file or the app: all users are exported, and mentions of
//   users gone since are left out.
import type { ServerContext } from '../../http/context';
import { startTask } from '../../infra/run-task';
import type { Store } from '../../store/store';
import { channelItems } from './channel-items';
import { ItemWriter, openExport, type ItemCounts } from './export-file';
import { deviceItem, userItem } from './import-items';

const PAGE = 500;
const DISTINCT = '!members-';

/** Writes every user, device and live channel to `writer` (which the caller closes). */
export async function writeAppExport(store: Store, writer: ItemWriter, breathe: () => Promise<void>): Promise<ItemCounts> {
  for (let after = ''; ; ) {
    const users = store.imports.usersAfter(after, PAGE);
    if (!users.length) break;
    for (const row of users) await writer.write(userItem(row));
    for (const row of users) for (const device of store.devices.ofUser(row.id)) await writer.write(deviceItem(device));
    after = users[users.length - 1]?.id as string;
    await breathe();
  }

  const userExists = (id: string) => store.users.get(id) !== undefined;
  // Two distinct channels can have come to the same members (one left); only the first can be
  // written by its members, the other keeps its id.
  const memberSets = new Set<string>();
  for (let after = ''; ; ) {
    const channels = store.imports.channelsAfter(after, PAGE);
    if (!channels.length) break;
    for (const channel of channels) {
      let distinctMembers: string[] | undefined;
      if (channel.id.startsWith(DISTINCT)) {
        const members = store.imports.membersIn(channel.cid).map((member) => member.user_id).sort();
        const key = `${channel.type}:${members.join(',')}`;
        if (members.length && !memberSets.has(key)) {
          memberSets.add(key);
          distinctMembers = members;
        }
      }
      const walk = { includeTruncated: false, clearDeletedText: false, userExists, breathe, ...(distinctMembers ? { distinctMembers } : {}) };
      for await (const item of channelItems(store, channel, walk)) await writer.write(item);
    }
    after = channels[channels.length - 1]?.cid as string;
    await breathe();
  }
  return writer.counts;
}

/** `POST /export/app`: the export as a task. */
export function startAppExport(ctx: ServerContext, origin: string): string {
  return startTask(ctx, 'export_app', async (breathe) => {
    const { writer, url } = await openExport(ctx, origin, 'app', 'chat-import.json', 'array');
    let stats: ItemCounts;
    try {
      stats = await writeAppExport(ctx.store, writer, breathe);
    } catch (error) {
      writer.abandon();
      throw error;
    }
    await writer.close();
    return { url, stats };
  });
}

/** The command's export: the whole app of `store` written to `path`. */
export async function exportAppToFile(store: Store, path: string): Promise<ItemCounts> {
  const writer = new ItemWriter(path, 'array');
  try {
    await writeAppExport(store, writer, () => Promise.resolve());
  } catch (error) {
    writer.abandon();
    throw error;
  }
  await writer.close();
  return writer.counts;
}
