// Imports and exports with the real SDK: a channel with messages, reactions, a
// thread and members is exported (exportChannels, getExportChannelStatus, getTask → result.url),
// the file is uploaded to a second, fresh backend (_createImportURL, PUT to upload_url) and
// imported (_createImport, _getImport, _listImports), and the channel reads the same there. Import
// modes upsert and insert, exportUsers, malformed files and unknown ids (in the provider's
// words), and the refusal of every call without the secret. Moving a whole app is in
// move-to-stream.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StreamChat } from 'stream-chat';
import { importItems } from '../../../../src/server/features/import-export/import-file';
import { createImportStore } from '../../../../src/server/store/imports';
import { openStore } from '../../../../src/server/store/store';
import { failure, startHarness, taskEnded, type Harness } from '../../helpers';

let source: Harness;
let target: Harness;

beforeAll(async () => {
  [source, target] = await Promise.all([startHarness(), startHarness()]);
});

afterAll(async () => {
  await Promise.all([source?.close(), target?.close()]);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


async function importDone(admin: StreamChat, id: string) {
  for (let i = 0; i < 250; i++) {
    const { import_task } = await admin._getImport(id);
    if (import_task.state === 'completed' || import_task.state === 'failed') return import_task;
    await sleep(20);
  }
  throw new Error(`import ${id} did not finish`);
}

/** Uploads `content` the way the provider's CLI does (PUT to the upload URL) and imports it. */
async function importText(harness: Harness, content: string, mode?: 'upsert' | 'insert') {
  const { path, upload_url } = await harness.admin._createImportURL('data.jsonl');
  const put = await fetch(upload_url, { method: 'PUT', body: content });
  expect(put.status).toBe(200);
  const created = await harness.admin._createImport(path, mode ? { mode } : undefined);
  expect(created.import_task.state).toBe('uploaded');
  return importDone(harness.admin, created.import_task.id);
}

/** What a member sees of the channel: members, messages, the thread, reactions. */
async function snapshot(harness: Harness, userId: string) {
  const client = await harness.connect(userId);
  const channel = client.channel('messaging', 'round-trip');
  const state = await channel.watch({ messages: { limit: 50 }, members: { limit: 50 } });
  const reactions = (m: { latest_reactions?: { type: string; user_id?: string; user?: { id: string } | null }[] }) =>
    (m.latest_reactions ?? []).map((r) => `${r.type}:${r.user_id ?? r.user?.id}`).sort();
  const messages = state.messages.map((m) => ({
    id: m.id, type: m.type, text: m.text, user: m.user?.id, reply_count: m.reply_count ?? 0, created_at: m.created_at, reactions: reactions(m),
    groups: Object.fromEntries(Object.entries(m.reaction_groups ?? {}).map(([type, g]) => [type, g.count])),
  }));
  const threads = await Promise.all(state.messages.filter((m) => (m.reply_count ?? 0) > 0).map(async (m) => {
    const { messages: replies } = await channel.getReplies(m.id, { limit: 50 });
    return { parent: m.id, replies: replies.map((r) => ({ id: r.id, text: r.text, user: r.user?.id, parent_id: r.parent_id, reactions: reactions(r) })) };
  }));
  const members = (state.members ?? []).map((m) => ({ user: m.user_id, role: m.channel_role })).sort((a, b) => a.user!.localeCompare(b.user!));
  await client.disconnectUser();
  return { created_by: state.channel.created_by?.id, name: (state.channel as { name?: string }).name, members, messages, threads };
}

describe('imports and exports', () => {
  it('exports a channel with messages, reactions, a thread and members, and a fresh backend that imports it shows the same channel', async () => {
    const { admin } = source;
    await admin.upsertUsers([
      { id: 'ana', name: 'Ana', role: 'user', favourite: 'tea' } as never,
      { id: 'ben', name: 'Ben' },
      { id: 'cy', name: 'Cy' },
    ]);
    const channel = admin.channel('messaging', 'round-trip', { members: ['ana', 'ben', 'cy'], created_by_id: 'ana', name: 'Round trip', topic: 'travel' } as never);
    await channel.create();
    const { message: hello } = await channel.sendMessage({ text: 'hello there', user_id: 'ana' });
    const { message: hi } = await channel.sendMessage({ text: 'hi Ana', user_id: 'ben' });
    const { message: reply } = await channel.sendMessage({ text: 'a reply in the thread', parent_id: hello.id, user_id: 'ben' });
    await channel.sendMessage({ text: 'and another', parent_id: hello.id, user_id: 'cy' });
    await channel.sendReaction(hello.id, { type: 'love', user_id: 'ben' });
    await channel.sendReaction(hello.id, { type: 'like', user_id: 'cy' });
    await channel.sendReaction(reply.id, { type: 'like', user_id: 'ana' });
    await channel.sendReaction(hi.id, { type: 'haha', user_id: 'ana' });
    const { message: oops } = await channel.sendMessage({ text: 'oops, wrong channel', user_id: 'cy' });
    await admin.deleteMessage(oops.id);

    const { task_id } = await admin.exportChannels([{ type: 'messaging', id: 'round-trip' }]);
    const task = await taskEnded(admin, task_id);
    expect(task.status).toBe('completed');
    const url = (task.result as { url: string }).url;
    expect(url).toMatch(/^http:\/\/.+\/exports\/channels\/[0-9a-f]{32}\/channels\.jsonl$/);
    const status = await admin.getExportChannelStatus(task_id);
    expect(status).toMatchObject({ status: 'completed', result: { url } });

    const file = await (await fetch(url)).text();
    const lines = file.trim().split('\n').map((line) => JSON.parse(line) as { type: string });
    const counts = lines.reduce<Record<string, number>>((acc, line) => ({ ...acc, [line.type]: (acc[line.type] ?? 0) + 1 }), {});
    expect(counts).toEqual({ user: 3, channel: 1, member: 3, message: 5, reaction: 4 });

    const done = await importText(target, file);
    expect(done.state).toBe('completed');
    expect(done.result).toMatchObject({ stats: { users: 3, channels: 1, members: 3, messages: 5, reactions: 4 } });
    expect(done.history.map((h) => h.next_state)).toEqual(['analyzing', 'importing', 'completed']);

    const before = await snapshot(source, 'ana');
    const after = await snapshot(target, 'ana');
    expect(before.messages).toHaveLength(3);
    expect(after.messages[2]).toMatchObject({ id: oops.id, type: 'deleted' });
    expect(before.threads[0]?.replies).toHaveLength(2);
    expect(after).toEqual(before);
    const ana = (await target.admin.queryUsers({ id: 'ana' })).users[0];
    expect(ana).toMatchObject({ name: 'Ana', favourite: 'tea' });

    // The same file again: insert mode leaves everything as it is, upsert counts nothing twice.
    const again = await importText(target, file, 'insert');
    expect(again.result).toMatchObject({ stats: { users: 0, channels: 0, members: 0, messages: 0, reactions: 0, skipped: 16 } });
    const upserted = await importText(target, file);
    expect(upserted.result).toMatchObject({ stats: { users: 3, channels: 1, members: 3, messages: 5, reactions: 4, skipped: 0 } });
    expect(await snapshot(target, 'ana')).toEqual(before);

    const { import_tasks } = await target.admin._listImports({ limit: 10 });
    expect(import_tasks.map((t) => t.id)).toEqual([upserted.id, again.id, done.id]);
  });

  it('upserts by default and leaves existing data alone in insert mode', async () => {
    const { admin } = target;
    await admin.upsertUsers([{ id: 'dee', name: 'Dee' }]);
    const line = (item: object) => JSON.stringify({ type: 'user', item });

    const inserted = await importText(target, [line({ id: 'dee', name: 'Dee renamed' }), line({ id: 'eve', name: 'Eve' })].join('\n'), 'insert');
    expect(inserted.state).toBe('completed');
    expect(inserted.result).toMatchObject({ stats: { users: 1, skipped: 1 } });
    expect((await admin.queryUsers({ id: { $in: ['dee', 'eve'] } }, { id: 1 })).users.map((u) => u.name)).toEqual(['Dee', 'Eve']);

    // The JSON array form (stream-cli's) reads too.
    const upserted = await importText(target, `[${line({ id: 'dee', name: 'Dee renamed' })},\n${line({ id: 'eve', name: 'Eve too' })}]`);
    expect(upserted.state).toBe('completed');
    expect(upserted.result).toMatchObject({ stats: { users: 2, skipped: 0 } });
    expect((await admin.queryUsers({ id: { $in: ['dee', 'eve'] } }, { id: 1 })).users.map((u) => u.name)).toEqual(['Dee renamed', 'Eve too']);
  });

  it('reads a large file item by item across chunk boundaries, with braces, brackets and quotes inside strings', async () => {
    const { admin } = target;
    const tricky = 'a {"quoted"} [bracket] \\ back\\slash } ] { [ ,';
    const lines = [
      { type: 'user', item: { id: 'gus', name: tricky } },
      { type: 'channel', item: { type: 'messaging', id: 'big-import', created_by: 'gus', name: 'Big' } },
      { type: 'member', item: { channel_type: 'messaging', channel_id: 'big-import', user_id: 'gus' } },
    ];
    const padding = 'x'.repeat(300);
    for (let i = 0; i < 1500; i++) {
      lines.push({ type: 'message', item: { id: `big-${i}`, channel_type: 'messaging', channel_id: 'big-import', user: 'gus', text: `${i} ${tricky} ${padding}`, created_at: new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString() } } as never);
    }
    // The JSON array form, pretty-printed, so items and strings straddle the 64 KB chunks.
    const done = await importText(target, JSON.stringify(lines, null, 2));
    expect(done.state).toBe('completed');
    expect(done.result).toMatchObject({ stats: { users: 1, channels: 1, members: 1, messages: 1500 } });
    expect((await admin.queryUsers({ id: 'gus' })).users[0]?.name).toBe(tricky);
    const { results } = await admin.search({ cid: 'messaging:big-import' }, '1499', { limit: 5 });
    expect(results.map((r) => r.message.id)).toContain('big-1499');
    expect((await admin.getMessage('big-777')).message.text).toBe(`777 ${tricky} ${padding}`);

    // The same scanner in JSON Lines form, directly, and its errors.
    const dir = await mkdtemp(join(tmpdir(), 'import-file-'));
    try {
      const file = join(dir, 'items.jsonl');
      await writeFile(file, `\uFEFF${lines.slice(0, 3).map((l) => JSON.stringify(l)).join('\r\n')}\n`);
      const read = [];
      for await (const item of importItems(file)) read.push(item);
      expect(read.map((l) => [l.type, l.index])).toEqual([['user', 0], ['channel', 1], ['member', 2]]);
      for (const broken of ['[{"type":"user","item":{"id":"a"}}', '{"type":"user","item":{"id":"a"}} 7', '{"type":"user","item":"a"}', '{"type":"user","item":{"id":"a}}']) {
        await writeFile(file, broken);
        await expect((async () => { for await (const _ of importItems(file)) void _; })()).rejects.toMatchObject({ code: 4 });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('exports users', async () => {
    const { admin } = source;
    const { task_id } = await admin.exportUsers({ user_ids: ['ana', 'ben'] });
    const task = await taskEnded(admin, task_id);
    expect(task.status).toBe('completed');
    const { url } = task.result as { url: string };
    // As the provider's: the kind of export is in the URL's path.
    expect(new URL(url).pathname).toMatch(/^\/exports\/users\/[0-9a-f]{32}\/users\.jsonl$/);
    const file = await (await fetch(url)).text();
    const users = file.trim().split('\n').map((l) => JSON.parse(l) as { type: string; item: { id: string; name: string } });
    expect(users.map((u) => [u.type, u.item.id, u.item.name])).toEqual([['user', 'ana', 'Ana'], ['user', 'ben', 'Ben']]);
    await expect(admin.exportUsers({ user_ids: ['nobody-here'] })).rejects.toMatchObject({ code: 4 });
    await expect(admin.exportUsers({ user_ids: [] })).rejects.toMatchObject({ code: 4 });
  });

  it('ends a malformed import or one with unknown references as a failed import, changing nothing for a malformed file', async () => {
    const { admin } = target;
    const broken = await importText(target, '{"type":"user","item":{"id":"fay"}}\n{"type":"user","item":{"id":');
    expect(broken.state).toBe('failed');
    expect(JSON.stringify(broken.result)).toMatch(/malformed/);
    expect((await admin.queryUsers({ id: 'fay' })).users).toEqual([]);

    const unknownType = await importText(target, '{"type":"spaceship","item":{"id":"x"}}');
    expect(unknownType.state).toBe('failed');
    expect(JSON.stringify(unknownType.result)).toMatch(/unknown type/);

    const notJson = await importText(target, 'hello, not JSON');
    expect(notJson.state).toBe('failed');

    const orphan = await importText(target, JSON.stringify({ type: 'member', item: { channel_type: 'messaging', channel_id: 'nowhere', user_id: 'ana' } }));
    expect(orphan.state).toBe('failed');
    expect(JSON.stringify(orphan.result)).toMatch(/does not exist/);

    await expect(admin._createImport('imports/not-uploaded/x.jsonl')).rejects.toMatchObject({ code: 4 });
    const { path } = await admin._createImportURL('never.jsonl');
    await expect(admin._createImport(path)).rejects.toMatchObject({ code: 4 });
    await expect(admin._createImport(path, { mode: 'replace' as never })).rejects.toMatchObject({ code: 4 });
    await expect(admin._getImport('no-such-import')).rejects.toMatchObject({ code: 16 });
    // The provider's words for what it cannot find.
    expect(await failure(admin.exportChannels([{ type: 'messaging', id: 'no-such-channel' }]))).toMatchObject({
      status: 400, code: 4, message: expect.stringContaining("Can't find channel"),
    });
    expect(await failure(admin.getExportChannelStatus('no-such-task'))).toMatchObject({
      status: 404, code: 16, message: expect.stringContaining("Can't find task with id no-such-task"),
    });
    const bad = await fetch(`${target.url}/import_uploads/${'0'.repeat(32)}/x.jsonl`, { method: 'PUT', body: 'x' });
    expect(bad.status).toBe(404);
  });

  it('ends an import the server stopped during as failed when it starts again', () => {
    const store = openStore(':memory:');
    try {
      store.imports.create({ id: 'cut-short', path: 'imports/x/y', mode: 'upsert', size: 10, now: '2024-01-01T00:00:00.000Z' });
      store.imports.move('cut-short', 'analyzing', '2024-01-01T00:00:01.000Z');
      createImportStore(store.db); // what opening the database again does
      const row = store.imports.get('cut-short');
      expect(row?.state).toBe('failed');
      expect(JSON.parse(row?.history ?? '[]')).toMatchObject([
        { prev_state: 'uploaded', next_state: 'analyzing' },
        { prev_state: 'analyzing', next_state: 'failed' },
      ]);
    } finally {
      store.close();
    }
  });

  it('exports a time range of a channel, replies with their parents, and without users when asked', async () => {
    const { admin } = source;
    const channel = admin.channel('messaging', 'ranged', { members: ['ana'], created_by_id: 'ana' } as never);
    await channel.create();
    const { message: early } = await channel.sendMessage({ text: 'early', user_id: 'ana' });
    await sleep(30);
    const middle = new Date();
    await sleep(30);
    await channel.sendMessage({ text: 'late', user_id: 'ana' });
    await channel.sendMessage({ text: 'late reply to early', parent_id: early.id, user_id: 'ben' });
    const since = await admin.exportChannels([{ cid: 'messaging:ranged', messages_since: middle }], { export_users: false });
    const task = await taskEnded(admin, since.task_id);
    const items = (await (await fetch((task.result as { url: string }).url)).text()).trim().split('\n').map((l) => JSON.parse(l) as { type: string; item: { text?: string } });
    expect(items.map((l) => l.type)).toEqual(['channel', 'member', 'message']);
    expect(items[2]?.item.text).toBe('late');
  });

  it('refuses every import and export call without the secret', async () => {
    await source.admin.upsertUsers([{ id: 'visitor' }]);
    const token = source.token('visitor');
    const calls: [string, string, object?][] = [
      ['POST', '/import_urls', { filename: 'x.jsonl' }],
      ['POST', '/imports', { path: 'imports/x/y' }],
      ['GET', '/imports'],
      ['GET', '/imports/x'],
      ['POST', '/export_channels', { channels: [{ cid: 'messaging:round-trip' }] }],
      ['GET', '/export_channels/x'],
      ['POST', '/export/users', { user_ids: ['visitor'] }],
      ['POST', '/export/app', {}],
      ['GET', '/tasks/x'],
    ];
    for (const [method, path, body] of calls) {
      const response = await source.request(path, { method, token, userId: 'visitor', ...(body ? { body } : {}) });
      expect([path, response.status, (response.body as { code: number }).code]).toEqual([path, 403, 17]);
    }
  });
});
