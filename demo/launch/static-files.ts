import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * Serves the built page from `root`: `/` is `index.html`, anything else must be a file under
 * `root` (a path that climbs out of it is a 404, like a missing file). GET and HEAD only.
 */
export async function serveStatic(root: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
  const relative = normalize(pathname === '/' ? 'index.html' : pathname.slice(1));
  const file = join(root, relative);
  if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD' }).end();
  const info = relative.startsWith('..') || !file.startsWith(root + sep) ? undefined : await stat(file).catch(() => undefined);
  if (!info?.isFile()) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': info.size,
    // Rebuilt pages must show up on reload.
    'cache-control': 'no-cache',
  });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file).on('error', () => res.destroy()).pipe(res);
}
