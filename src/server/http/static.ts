// Static files for development and the demo: `demo/` at `/` and `dist/` at `/dist/`.
// Demo HTML pages get `__CHAT_WIDGET_API_KEY__` replaced by the configured key, so the pages
// keep working when the key changes. Anything not found falls through to the 404 handler.
import { readFile, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { MiddlewareHandler } from 'hono';
import { requestHeader } from './node-exchange';
import type { AppEnv, ServerConfig } from './context';

const API_KEY_PLACEHOLDER = '__CHAT_WIDGET_API_KEY__';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

export function serveStatic(config: ServerConfig): MiddlewareHandler<AppEnv> {
  const root = config.staticRoot ? resolve(config.staticRoot) : undefined;
  return async (c, next) => {
    const file = root ? await findFile(root, c.req.path) : undefined;
    if (!file) return next();
    const type = CONTENT_TYPES[extname(file.path).toLowerCase()] ?? 'application/octet-stream';
    // Revalidated on every use (a rebuilt bundle shows at once), but a file the browser holds
    // (the loader's idle prefetch, a returning visitor) comes back as a 304 without its body.
    // Demo pages carry the configured key, so they are never stored.
    const keyed = file.demo && type.startsWith('text/html');
    const etag = keyed ? undefined : `W/"${file.size.toString(36)}-${Math.round(file.mtimeMs).toString(36)}"`;
    const headers: Record<string, string> = { 'content-type': type, ...(etag ? { 'cache-control': 'no-cache', etag } : { 'cache-control': 'no-store' }) };
    if (etag && requestHeader(c, 'if-none-match')?.split(/\s*,\s*/).includes(etag)) return new Response(null, { status: 304, headers });
    const bytes = await readFile(file.path);
    const body =
      keyed
        ? bytes.toString('utf8').replaceAll(API_KEY_PLACEHOLDER, config.apiKey)
        : new Uint8Array(bytes);
    return new Response(body, { headers });
  };
}

/** Maps a URL path to a file under demo/ or dist/, refusing anything outside them. */
async function findFile(root: string, urlPath: string): Promise<{ path: string; demo: boolean; size: number; mtimeMs: number } | undefined> {
  let path: string;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (path.includes('\0')) return undefined;
  const inDist = path === '/dist' || path.startsWith('/dist/');
  const base = join(root, inDist ? 'dist' : 'demo');
  const candidate = resolve(base, '.' + (inDist ? path.slice('/dist'.length) : path));
  const rel = relative(base, candidate);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  for (const option of [candidate, join(candidate, 'index.html')]) {
    const info = await stat(option).catch(() => undefined);
    if (info?.isFile()) return { path: option, demo: !inDist, size: info.size, mtimeMs: info.mtimeMs };
  }
  return undefined;
}
