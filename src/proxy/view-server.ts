import { createReadStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import type { ProxyCounters } from './caps';
import { createLiveFeed } from './feed';
import { hostPort, isLoopback, type ListenAddress } from './listen-address';
import type { Recording } from './recording';

export interface ViewOptions {
  recording: Recording;
  counters: ProxyCounters;
  listen: ListenAddress;
  /** The built inline shell (dist/shell). */
  shellDir: string;
  /** The secret the page and its feed must carry as `?token=`. */
  token: string;
}

export interface ViewServer {
  /** The page's URL, token included. */
  url: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.map': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2' };

/**
 * Headers on every answer: no caching, no framing, no sniffing, and no Referer, which would
 * carry the token to any link the page follows. The page runs only its own scripts.
 */
const SAFE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'",
};

/**
 * Serves the live view: the inline shell's files and its feed. Only requests whose `Host` names
 * this server are answered (a rebound DNS name pointing at 127.0.0.1 is not), and the page and
 * the feed need the token. Static assets need no token: they are the public build.
 */
export async function startViewServer(options: ViewOptions): Promise<ViewServer> {
  const feed = createLiveFeed(options.recording, options.counters);
  const expected = Buffer.from(options.token);
  let allowedHosts = new Set<string>();
  const server = createServer((req, res) => {
    if (!allowedHosts.has((req.headers.host ?? '').toLowerCase())) return refuse(res, 421, 'this live view answers only to its own address');
    const url = new URL(req.url ?? '/', 'http://view.invalid');
    const token = Buffer.from(url.searchParams.get('token') ?? '');
    const tokenOk = token.length === expected.length && timingSafeEqual(token, expected);
    if (req.method !== 'GET') return refuse(res, 405, 'GET only');
    if (url.pathname === '/feed') {
      if (!tokenOk) return refuse(res, 403, 'the feed needs the token printed at start');
      const lastEventId = req.headers['last-event-id'];
      if (!feed.serve(withSafeHeaders(res), typeof lastEventId === 'string' ? lastEventId : undefined)) options.counters.viewRefused += 1;
      return;
    }
    if (url.pathname === '/' || url.pathname === '/index.html') {
      return tokenOk ? sendFile(res, join(options.shellDir, 'index.html')) : refuse(res, 403, 'open the URL printed at start: it carries the token');
    }
    return serveAsset(req, res, options.shellDir);
  });
  const refuse = (res: ServerResponse, status: number, text: string) => {
    options.counters.viewRefused += 1;
    res.writeHead(status, { ...SAFE_HEADERS, 'content-type': 'text/plain' }).end(`${text}\n`);
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.listen.port, options.listen.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const hosts = isLoopback(options.listen.host) ? ['127.0.0.1', 'localhost', '::1', options.listen.host] : [options.listen.host];
  allowedHosts = new Set(hosts.map((host) => hostPort(host, port).toLowerCase()));
  return {
    url: `http://${hostPort(options.listen.host, port)}/?token=${encodeURIComponent(options.token)}`,
    async close() {
      feed.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function withSafeHeaders(res: ServerResponse): ServerResponse {
  for (const [name, value] of Object.entries(SAFE_HEADERS)) res.setHeader(name, value);
  return res;
}

/** A file of the shell build; nothing outside its folder, whatever the path says. */
function serveAsset(req: IncomingMessage, res: ServerResponse, root: string): void {
  let path: string;
  try {
    path = decodeURIComponent(new URL(req.url ?? '/', 'http://view.invalid').pathname);
  } catch {
    return void res.writeHead(400, SAFE_HEADERS).end();
  }
  const file = normalize(join(root, path));
  if (!file.startsWith(root.endsWith(sep) ? root : root + sep)) return void res.writeHead(404, SAFE_HEADERS).end();
  sendFile(res, file);
}

function sendFile(res: ServerResponse, file: string): void {
  let size: number;
  try {
    const info = statSync(file);
    if (!info.isFile()) throw new Error('not a file');
    size = info.size;
  } catch {
    return void res.writeHead(404, { ...SAFE_HEADERS, 'content-type': 'text/plain' }).end('not found\n');
  }
  res.writeHead(200, { ...SAFE_HEADERS, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': size });
  createReadStream(file).pipe(res);
}
