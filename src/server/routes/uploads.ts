// Uploads: `POST /channels/{type}/{id}/file|image` (sendFile/sendImage) and the app-level
// `POST /uploads/file|image`, multipart with the field `file` and an optional `user` (JSON, for
// server-side calls). `DELETE` of the same paths with `?url=` removes a file; `GET
// /uploads/{id}/{name}` serves it back, like the provider's CDN, one byte range at a time when
// asked (an <audio> element seeking a voice message).
//
// The body streams to disk as it arrives (features/uploads/receive.ts), never held in memory:
// an upload that declares a length over the size limit is refused before a byte is read, and
// one that does not is refused as soon as it passes the limit.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import { imageSizeFromFile } from 'image-size/fromFile';
import type { APIResponse, FileUploadConfig, SendFileAPIResponse } from 'stream-chat';
import { actorFor, requireUser, type Actor } from '../auth/actor';
import { accessTo, assertCanRead, assertCapability, mayInChannel } from '../auth/channel-access';
import { appSettings } from '../infra/app-settings';
import { assertNotBanned } from '../features/moderation/bans';
import type { AppEnv, ServerContext } from '../http/context';
import { ApiError, ErrorCode, errorBody } from '../http/errors';
import { byteRange } from '../http/byte-range';
import { elapsed, requireAuth, sendJson } from './request';
import { isObject } from '../http/input';
import type { FileRow } from '../store/files';
import { checkFileType, checkUpload, sizeLimit, tooLarge } from '../features/uploads/checks';
import { isUploadId, newUploadId, removeUpload, uploadIdOf, uploadPath, uploadUrl } from '../features/uploads/disk';
import { ENVELOPE_BYTES, receiveUpload, type ReceivedUpload } from '../features/uploads/receive';
import { bodyChunks, declaredLength } from '../http/body';
import { requestHeader } from '../http/node-exchange';
import { existingChannel } from './channels';

type Kind = 'file' | 'image';

/** What an upload answers: the SDK's response plus an image's size, for attachments. */
export type UploadResponse = SendFileAPIResponse & { original_width?: number; original_height?: number };

export function uploadRoutes(ctx: ServerContext) {
  const routes = new Hono<AppEnv>();
  const auth = requireAuth(ctx);
  // The app's checks as `PATCH /app` last set them.
  const configOf = (kind: Kind): FileUploadConfig =>
    kind === 'file' ? appSettings(ctx).fileUploadConfig : appSettings(ctx).imageUploadConfig;

  /** Who may upload here: a signed-in user, and in a channel one with `upload-file`. */
  const authorize = (c: Context<AppEnv>, actor: Actor) => {
    const type = c.req.param('type');
    const id = c.req.param('id');
    if (type === undefined || id === undefined) return null;
    const row = existingChannel(ctx, type, id);
    const access = accessTo(ctx, row, actor);
    assertCanRead(row, actor, access);
    assertCapability(row, actor, access, 'upload-file');
    if (actor.id !== null && !actor.server) assertNotBanned(ctx, row, actor.id);
    return row.cid;
  };

  const upload = async (c: Context<AppEnv>) => {
    const kind = kindOf(c);
    const config = configOf(kind);
    const limit = sizeLimit(config);
    const subject = c.get('subject');
    // Refuse a user who may not upload before reading what they send; a server-side call names
    // its user inside the form, so it is checked once the form is read.
    if (subject.kind !== 'server') authorize(c, requireUser(actorFor(ctx.store, subject), 'upload files'));
    const declared = declaredLength(c);
    if (declared !== undefined && declared > limit + ENVELOPE_BYTES) throw tooLarge(limit);

    const dir = ctx.config.uploads.dir;
    const id = newUploadId();
    let file: ReceivedUpload;
    let size: { width: number; height: number } | undefined;
    let cid: string | null;
    let actor: Actor;
    try {
      file = await receiveUpload(bodyChunks(c), requestHeader(c, 'content-type'), {
        dir,
        id,
        sizeLimit: limit,
        tooLarge: () => tooLarge(limit),
        checkType: (name, type) => {
          const mimeType = normalizeMime(type);
          checkFileType(config, name, mimeType);
          if (kind === 'image' && !mimeType.startsWith('image/')) {
            throw ApiError.input(`upload refused: ${mimeType} is not an image; send it to the file endpoint`);
          }
        },
      });
      actor = requireUser(actorFor(ctx.store, subject, userIdOf(file.user)), 'upload files');
      cid = authorize(c, actor);
      checkUpload(config, { name: file.originalName, mimeType: normalizeMime(file.contentType), size: file.size });
      size = normalizeMime(file.contentType).startsWith('image/') ? await dimensions(file.path) : undefined;
      if (kind === 'image' && !size) throw ApiError.input(`upload refused: ${file.originalName} is not a readable image`);
    } catch (error) {
      await removeUpload(dir, id);
      throw error;
    }

    const row: FileRow = {
      id,
      name: file.name,
      kind,
      cid,
      user_id: actor.id,
      mime_type: normalizeMime(file.contentType),
      size: file.size,
      width: size?.width ?? null,
      height: size?.height ?? null,
      created_at: new Date().toISOString(),
    };
    ctx.store.files.add(row);
    const url = uploadUrl(new URL(c.req.url).origin, id, file.name);
    const response: UploadResponse = {
      file: url,
      ...(size ? { thumb_url: url, original_width: size.width, original_height: size.height } : {}),
      duration: elapsed(c),
    };
    return sendJson(response);
  };

  const remove = async (c: Context<AppEnv>) => {
    const actor = actorFor(ctx.store, c.get('subject'));
    if (actor.anonymous) throw ApiError.notAllowed('anonymous users cannot delete files');
    const cid = authorize(c, actor);
    const id = uploadIdOf(c.req.query('url'));
    const row = id ? ctx.store.files.get(id) : undefined;
    if (!row || row.kind !== kindOf(c) || row.cid !== cid) throw ApiError.notFound('no such uploaded file here');
    // A channel's files follow its grants (delete-attachment, or -owner for one's own); an app
    // upload (`/uploads/…`) belongs to its uploader and the site's server.
    const channel = cid ? ctx.store.channels.get(cid) : undefined;
    const own = row.user_id === actor.id;
    if (!(channel ? mayInChannel(ctx, channel, actor, 'delete-attachment', own) : own || actor.server)) {
      throw ApiError.notAllowed('only the uploader (or a moderator) can delete this file');
    }
    await removeUpload(ctx.config.uploads.dir, row.id);
    ctx.store.files.remove(row.id);
    const response: APIResponse = { duration: elapsed(c) };
    return sendJson(response);
  };

  routes.post('/channels/:type/:id/:kind{file|image}', auth, upload);
  routes.post('/uploads/:kind{file|image}', auth, upload);
  routes.delete('/channels/:type/:id/:kind{file|image}', auth, remove);
  routes.delete('/uploads/:kind{file|image}', auth, remove);

  // Public like a CDN link: the URL's random id is the secret, and it is only handed to those
  // who can read the message carrying it.
  routes.get('/uploads/:fileId/:name', async (c) => {
    const id = c.req.param('fileId');
    const row = isUploadId(id) ? ctx.store.files.get(id) : undefined;
    if (!row || c.req.param('name') !== row.name) throw ApiError.notFound('no such uploaded file');
    const path = uploadPath(ctx.config.uploads.dir, row.id, row.name);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) throw ApiError.notFound('the uploaded file is gone');
    const headers = fileHeaders(row, info.size);
    // A media element seeks (and finds a recording's duration) by range. The bytes behind a URL
    // never change, so an If-Range naming anything but its ETag asks for the whole file.
    const ifRange = requestHeader(c, 'if-range');
    const range = ifRange === undefined || ifRange === headers.get('etag') ? byteRange(requestHeader(c, 'range'), info.size) : 'whole';
    if (range === 'unsatisfiable') {
      const error = new ApiError(ErrorCode.InputError, `range not satisfiable: the file has ${info.size} bytes`, 416);
      return sendJson(errorBody(error, elapsed(c)), 416, { 'content-range': `bytes */${info.size}` });
    }
    if (range === 'whole') return new Response(Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>, { headers });
    headers.set('content-length', String(range.end - range.start + 1));
    headers.set('content-range', `bytes ${range.start}-${range.end}/${info.size}`);
    const body = Readable.toWeb(createReadStream(path, { start: range.start, end: range.end })) as ReadableStream<Uint8Array>;
    return new Response(body, { status: 206, headers });
  });

  return routes;
}

function kindOf(c: Context<AppEnv>): Kind {
  return c.req.param('kind') === 'image' ? 'image' : 'file';
}

/** The optional `user` field: `{"id": …}` as JSON (stream-chat client.sendFile). */
function userIdOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw ApiError.input('user must be a JSON object');
  }
  return isObject(parsed) && typeof parsed.id === 'string' && parsed.id ? parsed.id : undefined;
}

function normalizeMime(type: string): string {
  const bare = type.split(';')[0]?.trim().toLowerCase() ?? '';
  return /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(bare) ? bare : 'application/octet-stream';
}

/** An image's size, read from the stored file's first bytes; undefined when not an image. */
async function dimensions(path: string): Promise<{ width: number; height: number } | undefined> {
  try {
    const { width, height } = await imageSizeFromFile(path);
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Uploaded bytes are whatever a user sent: never let a browser run them on our origin. Images
 * display inline; everything else downloads under its own name.
 */
function fileHeaders(row: FileRow, size: number): Headers {
  const image = row.mime_type.startsWith('image/');
  return new Headers({
    'content-type': row.mime_type,
    'content-length': String(size),
    'content-disposition': `${image ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(row.name)}`,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    'cache-control': 'public, max-age=31536000, immutable',
    'accept-ranges': 'bytes',
    etag: `"${row.id}"`,
  });
}
