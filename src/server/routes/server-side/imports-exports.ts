// Imports and exports, server-side calls:
// - `POST /import_urls` {filename} (_createImportURL): `{path, upload_url}`; the upload URL is on
//   this backend, `PUT /import_uploads/{id}/{name}` with the file as the body, streamed to disk
//   under the data folder. Like the provider's signed URL it needs no signature of its own: the
//   128-bit id is the key, and each URL takes one file.
// - `POST /imports` {path, mode} (_createImport; mode `upsert` by default, or `insert`),
//   `GET /imports` {limit, offset} (_listImports), `GET /imports/{id}` (_getImport): the import
//   runs as a task (features/import-export).
// - `POST /export_channels` {channels, …options} (exportChannels), `GET /export_channels/{id}`
//   (getExportChannelStatus) and `POST /export/users` {user_ids} (exportUsers): tasks whose
//   result is `{url}`, also read with `GET /tasks/{id}`; `GET /exports/{kind}/{id}/{name}` serves
//   the file (features/import-export).
// - `POST /export/app` (no call of its own in the SDK: `client.post(baseURL + '/export/app')`):
//   the whole app in the provider's import format, for moving to Stream's hosted chat; a task
//   whose result is `{url, stats}`.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import type { APIResponse, ImportTask, TaskStatus } from 'stream-chat';
import { startAppExport } from '../../features/import-export/app-export';
import { EXPORT_PATH, exportFile, type ExportKind } from '../../features/import-export/export-file';
import { startChannelExport, startUserExport, type ChannelExport } from '../../features/import-export/run-export';
import { startImport, type ImportMode } from '../../features/import-export/run-import';
import { isUploadId, newUploadId, safeFileName } from '../../features/uploads/disk';
import { bodyChunks, declaredLength } from '../../http/body';
import type { AppEnv, ServerContext } from '../../http/context';
import { ApiError } from '../../http/errors';
import { boundedInt, isObject, optionalBoolean, optionalString, type JsonObject } from '../../http/input';
import { existingTask } from '../../infra/run-task';
import { presentTask } from '../../present/task';
import { elapsed, readJson, readPayload, requireServerSide, sendJson } from '../request';
import type { ImportHistory, ImportRow } from '../../store/imports';

/** The provider's limit on an import file. */
export const MAX_IMPORT_BYTES = 300 * 1024 * 1024;
/** Channels per export and users per user export, as the provider allows. */
const MAX_EXPORT_CHANNELS = 25;
const MAX_EXPORT_USERS = 25;
const IMPORT_PATH = /^imports\/([0-9a-f]{32})\/([^/]+)$/;

export function importExportRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const server = requireServerSide(ctx);
  const importsDir = join(ctx.config.uploads.dir, 'imports');
  const origin = (c: Context<AppEnv>) => new URL(c.req.url).origin;

  routes.post('/import_urls', server, async (c) => {
    const body = await readJson(c);
    const filename = optionalString(body.filename, 'filename');
    if (!filename) throw ApiError.input('filename is required');
    const id = newUploadId();
    const name = safeFileName(filename);
    await mkdir(join(importsDir, id), { recursive: true });
    return sendJson({
      path: `imports/${id}/${name}`,
      upload_url: `${origin(c)}/import_uploads/${id}/${encodeURIComponent(name)}`,
      duration: elapsed(c),
    });
  });

  routes.put('/import_uploads/:id/:name', async (c) => {
    const id = c.req.param('id');
    const name = c.req.param('name');
    const folder = join(importsDir, id);
    if (!isUploadId(id) || safeFileName(name) !== name || !(await stat(folder).catch(() => undefined))?.isDirectory()) {
      throw ApiError.notFound('no such import upload URL: ask POST /import_urls for one');
    }
    const path = join(folder, name);
    if (await stat(path).catch(() => undefined)) throw ApiError.input('this import upload URL has been used: ask POST /import_urls for another');
    const declared = declaredLength(c);
    if (declared !== undefined && declared > MAX_IMPORT_BYTES) throw ApiError.tooBig(`an import file is at most ${MAX_IMPORT_BYTES} bytes`);
    const out = createWriteStream(path);
    let size = 0;
    try {
      for await (const chunk of bodyChunks(c)) {
        size += chunk.byteLength;
        if (size > MAX_IMPORT_BYTES) throw ApiError.tooBig(`an import file is at most ${MAX_IMPORT_BYTES} bytes`);
        if (!out.write(chunk)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
    } catch (error) {
      out.destroy();
      await rm(path, { force: true });
      throw error;
    }
    return new Response(null, { status: 200 });
  });

  routes.post('/imports', server, async (c) => {
    const body = await readJson(c);
    const path = optionalString(body.path, 'path');
    if (!path) throw ApiError.input('path is required: the path POST /import_urls answered');
    const mode = (optionalString(body.mode, 'mode') ?? 'upsert') as ImportMode;
    if (mode !== 'upsert' && mode !== 'insert') throw ApiError.input('mode must be upsert or insert');
    const match = IMPORT_PATH.exec(path);
    const file = match ? join(importsDir, match[1] as string, match[2] as string) : undefined;
    const info = file ? await stat(file).catch(() => undefined) : undefined;
    if (!file || !info?.isFile() || !isUploadId(match?.[1] as string)) {
      throw ApiError.input(`no file was uploaded to ${path}: PUT it to the upload_url POST /import_urls answered`);
    }
    const id = crypto.randomUUID();
    ctx.store.imports.create({ id, path, mode, size: info.size, now: new Date().toISOString() });
    startImport(ctx, id, file, mode);
    return sendJson({ import_task: presentImport(ctx.store.imports.get(id) as ImportRow), duration: elapsed(c) });
  });

  routes.get('/imports', server, (c) => {
    const payload = readPayload(c);
    const limit = boundedInt(c.req.query('limit') ?? payload.limit, 'limit', { fallback: 25, min: 1, max: 100 });
    const offset = boundedInt(c.req.query('offset') ?? payload.offset, 'offset', { fallback: 0, max: 1_000_000 });
    const rows = ctx.store.imports.list(limit, offset);
    return sendJson({ import_tasks: rows.map(presentImport), duration: elapsed(c) });
  });

  routes.get('/imports/:id', server, (c) => {
    const row = ctx.store.imports.get(c.req.param('id'));
    if (!row) throw ApiError.notFound(`import ${c.req.param('id')} does not exist`);
    return sendJson({ import_task: presentImport(row), duration: elapsed(c) });
  });

  routes.post('/export_channels', server, async (c) => {
    const body = await readJson(c);
    const list = body.channels;
    if (!Array.isArray(list) || !list.length) throw ApiError.input('channels must list the channels to export');
    if (list.length > MAX_EXPORT_CHANNELS) throw ApiError.input(`at most ${MAX_EXPORT_CHANNELS} channels can be exported at once`);
    const channels = list.map((entry, index) => exportEntry(ctx, entry, index));
    const task_id = startChannelExport(ctx, origin(c), channels, {
      clearDeletedText: optionalBoolean(body.clear_deleted_message_text, 'clear_deleted_message_text') ?? false,
      exportUsers: optionalBoolean(body.export_users, 'export_users') ?? true,
      includeTruncated: optionalBoolean(body.include_truncated_messages, 'include_truncated_messages') ?? false,
    });
    return sendJson({ task_id, duration: elapsed(c) });
  });

  routes.get('/export_channels/:id', server, (c) => {
    const row = existingTask(ctx, c.req.param('id'), 'export_channels');
    return sendJson({ ...presentTask(row), duration: elapsed(c) } satisfies TaskStatus & APIResponse);
  });

  routes.post('/export/users', server, async (c) => {
    const body = await readJson(c);
    const ids = body.user_ids;
    if (!Array.isArray(ids) || !ids.length || ids.some((id) => typeof id !== 'string' || !id)) {
      throw ApiError.input('user_ids must list the ids of the users to export');
    }
    if (ids.length > MAX_EXPORT_USERS) throw ApiError.input(`at most ${MAX_EXPORT_USERS} users can be exported at once`);
    const unique = [...new Set(ids as string[])];
    const found = ctx.store.users.getMany(unique);
    const missing = unique.filter((id) => !found.has(id));
    if (missing.length) throw ApiError.input(`users do not exist: ${missing.join(', ')}`);
    return sendJson({ task_id: startUserExport(ctx, origin(c), unique), duration: elapsed(c) });
  });

  routes.post('/export/app', server, (c) => {
    return sendJson({ task_id: startAppExport(ctx, origin(c)), duration: elapsed(c) });
  });

  routes.get('/exports/:kind/:id/:name', async (c) => {
    const match = EXPORT_PATH.exec(`/exports/${c.req.param('kind')}/${c.req.param('id')}/${c.req.param('name')}`);
    if (!match) throw ApiError.notFound('no such export');
    const [, kind, id, name] = match as unknown as [string, ExportKind, string, string];
    const file = exportFile(ctx, kind, id, name);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) throw ApiError.notFound('no such export');
    const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
    return new Response(body, {
      headers: {
        'content-type': name.endsWith('.jsonl') ? 'application/x-ndjson; charset=utf-8' : 'application/json; charset=utf-8',
        'content-length': String(info.size),
        'content-disposition': `attachment; filename="${name}"`,
      },
    });
  });

  return routes;
}

function exportEntry(ctx: ServerContext, entry: unknown, index: number): ChannelExport {
  if (!isObject(entry)) throw ApiError.input(`channels[${index}] must be {cid} or {type, id}`);
  const cid = optionalString(entry.cid, `channels[${index}].cid`)
    ?? `${optionalString(entry.type, `channels[${index}].type`) ?? ''}:${optionalString(entry.id, `channels[${index}].id`) ?? ''}`;
  if (!/^[^:]+:.+$/.test(cid)) throw ApiError.input(`channels[${index}] must be {cid} or {type, id}`);
  const channel = ctx.store.channels.get(cid);
  // The provider's words for a channel it does not have.
  if (!channel || channel.deleted_at) throw ApiError.input(`Can't find channel with cid ${cid}`);
  const at = (value: unknown, name: string) => {
    if (value === undefined || value === null) return undefined;
    const text = optionalString(value, name) as string;
    if (Number.isNaN(Date.parse(text))) throw ApiError.input(`${name} must be a date`);
    return new Date(text).toISOString();
  };
  const since = at(entry.messages_since, `channels[${index}].messages_since`);
  const until = at(entry.messages_until, `channels[${index}].messages_until`);
  return { cid, ...(since ? { since } : {}), ...(until ? { until } : {}) };
}

function presentImport(row: ImportRow): ImportTask & { mode: string } {
  return {
    id: row.id,
    path: row.path,
    mode: row.mode,
    state: row.state,
    ...(row.size !== null ? { size: row.size } : {}),
    history: JSON.parse(row.history) as ImportHistory[],
    ...(row.result ? { result: JSON.parse(row.result) as JsonObject } : {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
