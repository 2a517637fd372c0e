// Moving to Stream's hosted chat: the whole app exported in the provider's import format, as a
// task (`POST /export/app`) and from the command line (`--export-stream <file>`). A backend is
// populated through the real SDK (users, a group channel and a distinct one with members, a
// moderator, messages, a thread with a reply shown in the channel, a quote, a mention, a pin, a
// deleted message, reactions, a read position, a push device, a deactivated user); the file is
// checked against the rules the provider's import checks, uploaded to a fresh backend with the
// SDK's import calls, and the conversations read the same there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { StreamChat, type ChannelResponse, type MessageResponse } from 'stream-chat';
import { API_KEY, API_SECRET, startHarness, taskEnded, type Harness } from '../../helpers';
import { sleep } from '../../scenes';

const run = promisify(execFile);
const COMMAND = resolve('src/server/bin/chat-widget-server.mjs');

type Item = { type: string; item: Record<string, any> };

let source: Harness;
let target: Harness;

beforeAll(async () => {
  [source, target] = await Promise.all([startHarness(), startHarness()]);
});

afterAll(async () => {
  await Promise.all([source?.close(), target?.close()]);
});


/** The app export as a task: the task's result and the file it points to. */
async function exportApp(admin: StreamChat) {
  const { task_id } = await admin.post<{ task_id: string }>(`${admin.baseURL}/export/app`, {});
  const task = await taskEnded(admin, task_id);
  expect(task.status).toBe('completed');
  const { url, stats } = task.result as { url: string; stats: Record<string, number> };
  const response = await fetch(url);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return { url, stats, items: (await response.json()) as Item[] };
}

/** Uploads the file as the provider's CLI does (PUT to the upload URL) and imports it. */
async function importFile(harness: Harness, content: string) {
  const { path, upload_url } = await harness.admin._createImportURL('chat-import.json');
  expect((await fetch(upload_url, { method: 'PUT', body: content })).status).toBe(200);
  const { import_task } = await harness.admin._createImport(path);
  for (let i = 0; i < 250; i++) {
    const { import_task: now } = await harness.admin._getImport(import_task.id);
    if (now.state === 'completed' || now.state === 'failed') return now;
    await sleep(20);
  }
  throw new Error(`import ${import_task.id} did not finish`);
}

/**
 * What the provider's import checks of a file before it takes it (its CLI's validator): every
 * reference in the file, ids of the allowed characters, a creator for each channel, a channel
 * named by id or by its members, the message types, one level of threads, reactions with a
 * date, attachments with a type, and none of the reserved fields.
 */
function providerFaults(items: Item[]): string[] {
  const faults: string[] = [];
  const users = new Set(items.filter((i) => i.type === 'user').map((i) => i.item.id as string));
  const channelKey = (type: string, id?: string, members?: string[]) => `${type}:${id ?? [...(members ?? [])].sort().join(',')}`;
  const channels = new Set(items.filter((i) => i.type === 'channel').map((i) => channelKey(i.item.type, i.item.id, i.item.member_ids)));
  const messages = new Map(items.filter((i) => i.type === 'message').map((i) => [i.item.id as string, i.item]));
  const reserved: Record<string, string[]> = {
    user: ['app_pk', 'online', 'pk', 'user_pk', 'last_active'],
    channel: ['last_message_at', 'cid', 'created_by_pk', 'members', 'config', 'app_pk', 'pk'],
    message: ['tmp_id', 'app_pk', 'latest_reactions', 'own_reactions', 'reactions_count', 'reply_count', 'command', 'pk', 'quoted_message', 'pinned_by'],
    reaction: ['app_pk', 'pk', 'user', 'user_pk'],
  };
  items.forEach(({ type, item }, n) => {
    const fault = (why: string) => faults.push(`item ${n + 1} (${type}): ${why}`);
    for (const field of reserved[type] ?? []) if (field in item) fault(`reserved field ${field}`);
    const channelOf = () => channelKey(item.channel_type, item.channel_id, item.channel_member_ids);
    switch (type) {
      case 'user':
        if (!/^[@\w-]+$/.test(item.id)) fault('user id');
        break;
      case 'channel':
        if ((item.id === undefined) === (item.member_ids === undefined)) fault('either id or member_ids');
        if (item.id !== undefined && !/^[\w-]{1,64}$/.test(item.id)) fault(`channel id ${item.id}`);
        if (!users.has(item.created_by)) fault('created_by');
        break;
      case 'member':
        if (!channels.has(channelOf())) fault('channel');
        if (!users.has(item.user_id)) fault('user');
        break;
      case 'message':
        if (!channels.has(channelOf())) fault('channel');
        if (!users.has(item.user)) fault('user');
        if (!['regular', 'deleted', 'system', 'reply'].includes(item.type)) fault(`type ${item.type}`);
        if ((item.type === 'deleted') !== Boolean(item.deleted_at)) fault('deleted_at goes with type deleted');
        if (item.parent_id && (!messages.has(item.parent_id) || messages.get(item.parent_id)?.parent_id)) fault('parent');
        if ((item.pinned_at === undefined) !== (item.pinned_by_id === undefined)) fault('pin');
        for (const id of item.mentioned_users_ids ?? []) if (!users.has(id)) fault(`mentioned ${id}`);
        for (const attachment of item.attachments ?? []) if (!attachment.type) fault('attachment type');
        break;
      case 'reaction':
        if (!messages.has(item.message_id)) fault('message');
        if (!users.has(item.user_id)) fault('user');
        if (!item.created_at || !/^[\w-+:.]{1,30}$/.test(item.type)) fault('created_at or type');
        break;
      case 'device':
        if (!users.has(item.user_id) || !item.created_at || !['apn', 'firebase', 'huawei', 'xiaomi'].includes(item.push_provider_type)) fault('device');
        break;
      default:
        fault('unknown type');
    }
  });
  return faults;
}

/** A channel as one of its members sees it: the channel, members, messages, threads and read state. */
async function conversation(harness: Harness, userId: string, type: string, idOrMembers: string | string[]) {
  const client = await harness.connect(userId);
  const channel = typeof idOrMembers === 'string' ? client.channel(type, idOrMembers) : client.channel(type, { members: idOrMembers });
  const state = await channel.watch({ messages: { limit: 50 }, members: { limit: 50 } });
  const shown = (m: MessageResponse) => ({
    id: m.id,
    type: m.type,
    text: m.text,
    user: m.user?.id,
    created_at: m.created_at,
    reply_count: m.reply_count ?? 0,
    show_in_channel: m.show_in_channel ?? false,
    quoted: m.quoted_message_id ?? null,
    mentioned: (m.mentioned_users ?? []).map((u) => u.id),
    pinned: m.pinned ? m.pinned_by?.id : null,
    reactions: (m.latest_reactions ?? []).map((r) => `${r.type}:${r.user_id ?? r.user?.id}`).sort(),
    groups: Object.fromEntries(Object.entries(m.reaction_groups ?? {}).map(([kind, g]) => [kind, g.count])),
  });
  const threads = await Promise.all(
    state.messages.filter((m) => (m.reply_count ?? 0) > 0).map(async (m) => ({
      parent: m.id,
      replies: (await channel.getReplies(m.id, { limit: 50 })).messages.map(shown),
    })),
  );
  const byUser = (a: { user: string }, b: { user: string }) => a.user.localeCompare(b.user);
  const result = {
    cid: state.channel.cid,
    name: (state.channel as ChannelResponse & { name?: string }).name,
    created_by: state.channel.created_by?.id,
    topic: (state.channel as ChannelResponse & { topic?: string }).topic,
    members: state.members.map((m) => ({ user: m.user_id as string, channel_role: m.channel_role })).sort(byUser),
    read: (state.read ?? []).map((r) => ({ user: r.user.id, last_read: r.last_read, unread: r.unread_messages })).sort(byUser),
    messages: state.messages.map(shown),
    threads,
  };
  await client.disconnectUser();
  return result;
}

describe('moving to Stream', () => {
  it('exports the whole app in the provider’s import format, and a fresh backend that imports it holds the same conversations', async () => {
    const { admin } = source;
    await admin.upsertUsers([
      { id: 'ana', name: 'Ana', favourite: 'tea' } as never,
      { id: 'ben', name: 'Ben' },
      { id: 'cy', name: 'Cy' },
      { id: 'dee', name: 'Dee' },
      { id: 'eve', name: 'Eve' },
    ]);
    await admin.deactivateUser('eve');
    await admin.addDevice('ana-phone-token', 'firebase', 'ana');

    const trip = admin.channel('messaging', 'trip', { members: ['ana', 'ben', 'cy'], created_by_id: 'ana', name: 'Trip', topic: 'travel' } as never);
    await trip.create();
    await trip.addModerators(['ben']);
    const { message: hello } = await trip.sendMessage({ text: 'hello there', user_id: 'ana' });
    const { message: hi } = await trip.sendMessage({ text: 'hi @ana', mentioned_users: ['ana'], user_id: 'ben' });
    const { message: reply } = await trip.sendMessage({ text: 'a reply in the thread', parent_id: hello.id, user_id: 'ben' });
    await trip.sendMessage({ text: 'and one shown in the channel', parent_id: hello.id, show_in_channel: true, user_id: 'cy' });
    const { message: oops } = await trip.sendMessage({ text: 'oops, wrong channel', user_id: 'cy' });
    await admin.deleteMessage(oops.id);
    // Ben reads up to here; what comes after is unread for him.
    const ben = await source.connect('ben');
    const bensTrip = ben.channel('messaging', 'trip');
    await bensTrip.watch();
    await bensTrip.markRead();
    await ben.disconnectUser();
    await sleep(5);
    const { message: quoting } = await trip.sendMessage({ text: 'are you there?', quoted_message_id: hi.id, user_id: 'ana' });
    await admin.pinMessage(quoting.id, null, 'ana');
    await trip.sendReaction(hello.id, { type: 'love', user_id: 'ben' });
    await trip.sendReaction(reply.id, { type: 'like', user_id: 'cy' });
    await trip.sendReaction(hi.id, { type: 'haha', user_id: 'ana' });

    // A distinct channel (made by its members, no id of its own).
    const pair = admin.channel('messaging', { members: ['ana', 'dee'], created_by_id: 'ana' } as never);
    await pair.create();
    expect(pair.id).toMatch(/^!members-/);
    await pair.sendMessage({ text: 'hey Ana', user_id: 'dee' });
    await pair.sendMessage({ text: 'hey Dee', user_id: 'ana' });

    const { url, stats, items } = await exportApp(admin);
    expect(new URL(url).pathname).toMatch(/^\/exports\/app\/[0-9a-f]{32}\/chat-import\.json$/);
    expect(stats).toEqual({ user: 5, device: 1, channel: 2, member: 5, message: 8, reaction: 3 });
    expect(providerFaults(items)).toEqual([]);
    // Users first, each channel then its members, messages and reactions; the distinct channel
    // by its members, as the provider's ids cannot hold "!".
    expect(items.map((i) => i.type).slice(0, 6)).toEqual(['user', 'user', 'user', 'user', 'user', 'device']);
    const channelItems = items.filter((i) => i.type === 'channel').map((i) => i.item);
    expect(channelItems).toEqual([
      expect.objectContaining({ type: 'messaging', member_ids: ['ana', 'dee'], created_by: 'ana' }),
      expect.objectContaining({ type: 'messaging', id: 'trip', created_by: 'ana', name: 'Trip', topic: 'travel' }),
    ]);
    const item = (id: string) => items.find((i) => i.type === 'message' && i.item.id === id)?.item;
    expect(item(oops.id)).toMatchObject({ type: 'deleted', deleted_at: expect.any(String) });
    expect(item(reply.id)).toMatchObject({ type: 'reply', parent_id: hello.id, show_in_channel: false });
    expect(item(quoting.id)).toMatchObject({ quoted_message_id: hi.id, pinned_by_id: 'ana', pinned_at: expect.any(String) });
    expect(items.find((i) => i.type === 'member' && i.item.user_id === 'ben')?.item).toMatchObject({
      channel_id: 'trip', channel_role: 'channel_moderator', is_moderator: true, last_read: expect.any(String),
    });
    expect(items.find((i) => i.type === 'user' && i.item.id === 'eve')?.item).toMatchObject({ deactivated_at: expect.any(String) });

    const done = await importFile(target, JSON.stringify(items, null, 1));
    expect(done.state).toBe('completed');
    expect(done.result).toMatchObject({ stats: { users: 5, devices: 1, channels: 2, members: 5, messages: 8, reactions: 3, skipped: 0 } });

    // The same conversations, seen by each member.
    for (const member of ['ana', 'ben', 'cy']) {
      expect(await conversation(target, member, 'messaging', 'trip')).toEqual(await conversation(source, member, 'messaging', 'trip'));
    }
    const before = await conversation(source, 'dee', 'messaging', ['ana', 'dee']);
    expect(await conversation(target, 'dee', 'messaging', ['ana', 'dee'])).toEqual(before);
    expect(before.cid).toBe(pair.cid);
    const trips = await conversation(target, 'ben', 'messaging', 'trip');
    expect(trips.read.find((r) => r.user === 'ben')?.unread).toBe(1);
    expect(trips.threads[0]?.replies.map((r) => r.text)).toEqual(['a reply in the thread', 'and one shown in the channel']);
    expect(trips.messages.find((m) => m.id === quoting.id)).toMatchObject({ quoted: hi.id, pinned: 'ana' });

    // The users, their standing and their devices.
    const users = async (harness: Harness) =>
      (await harness.admin.queryUsers({ id: { $in: ['ana', 'ben', 'cy', 'dee', 'eve'] } }, { id: 1 }, { include_deactivated_users: true })).users.map(
        (u) => ({ id: u.id, name: u.name, role: u.role, favourite: (u as { favourite?: string }).favourite, deactivated: Boolean(u.deactivated_at) }),
      );
    expect(await users(target)).toEqual(await users(source));
    expect((await target.admin.getDevices('ana')).devices?.map((d) => [d.id, d.push_provider])).toEqual([['ana-phone-token', 'firebase']]);

    // Imported again, nothing is counted twice and nothing changes.
    const again = await importFile(target, JSON.stringify(items));
    expect(again.state).toBe('completed');
    expect(await conversation(target, 'ben', 'messaging', 'trip')).toEqual(trips);
  });

  it('refuses a file the provider would refuse, before importing any of it', async () => {
    const base = [
      { type: 'user', item: { id: 'fay' } },
      { type: 'channel', item: { type: 'messaging', id: 'fay-only', created_by: 'fay' } },
    ];
    const message = (extra: object) => ({ type: 'message', item: { id: 'm1', channel_type: 'messaging', channel_id: 'fay-only', user: 'fay', text: 'x', ...extra } });
    for (const [broken, why] of [
      [message({ type: 'deleted' }), /deleted_at/],
      [message({ deleted_at: '2024-01-01T00:00:00Z' }), /deleted_at/],
      [message({ type: 'ephemeral' }), /type must be one of/],
      [message({ pinned_at: '2024-01-01T00:00:00Z' }), /pinned_by_id/],
      [{ type: 'channel', item: { type: 'messaging', id: 'x', member_ids: ['fay'], created_by: 'fay' } }, /either id or member_ids/],
      [{ type: 'device', item: { id: 'd', user_id: 'fay', push_provider_type: 'pigeon', created_at: '2024-01-01T00:00:00Z' } }, /push_provider_type/],
      [{ type: 'device', item: { id: 'd', user_id: 'fay', push_provider_type: 'apn' } }, /created_at is required/],
    ] as const) {
      const done = await importFile(target, JSON.stringify([...base, broken]));
      expect(done.state).toBe('failed');
      expect(JSON.stringify(done.result)).toMatch(why);
    }
    expect((await target.admin.queryUsers({ id: 'fay' })).users).toEqual([]);
  });

  it('writes the same file from the command line, from the data folder of a stopped server', { timeout: 60_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'export-stream-'));
    try {
      const harness = await startHarness({ dbPath: join(dataDir, 'chat.db'), uploadsDir: join(dataDir, 'uploads') });
      let fromTask: Item[];
      try {
        await harness.admin.upsertUsers([{ id: 'gil', name: 'Gil' }, { id: 'hua', name: 'Hua' }]);
        const desk = harness.admin.channel('messaging', 'desk', { members: ['gil', 'hua'], created_by_id: 'gil' } as never);
        await desk.create();
        const { message } = await desk.sendMessage({ text: 'can I help?', user_id: 'gil' });
        await desk.sendMessage({ text: 'yes please', parent_id: message.id, user_id: 'hua' });
        await desk.sendReaction(message.id, { type: 'like', user_id: 'hua' });
        fromTask = (await exportApp(harness.admin)).items;
      } finally {
        await harness.close();
      }

      const file = join(dataDir, 'for-stream.json');
      const { stdout } = await run(process.execPath, [COMMAND, '--data-dir', dataDir, '--export-stream', file], {
        env: { ...process.env, STREAM_API_KEY: API_KEY, STREAM_API_SECRET: API_SECRET },
      });
      expect(stdout).toContain('Wrote 2 users, 1 channel, 2 members, 2 messages, 1 reaction');
      const written = await readFile(file, 'utf8');
      expect(JSON.parse(written)).toEqual(fromTask);
      expect(providerFaults(JSON.parse(written) as Item[])).toEqual([]);

      // What the command writes imports as it is.
      const done = await importFile(target, written);
      expect(done.state).toBe('completed');
      expect((await target.admin.getMessage(fromTask.find((i) => i.type === 'message')?.item.id)).message.text).toBe('can I help?');

      const help = await run(process.execPath, [COMMAND, '--help']);
      expect(help.stdout).toContain('--export-stream <file>');
      const nowhere = run(process.execPath, [COMMAND, '--data-dir', join(dataDir, 'none'), '--export-stream', file]);
      await expect(nowhere).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('no database at') });
      const unwritable = run(process.execPath, [COMMAND, '--data-dir', dataDir, '--export-stream', join(dataDir, 'no-such-folder', 'x.json')]);
      await expect(unwritable).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('could not write') });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
