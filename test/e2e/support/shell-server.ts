import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, normalize, resolve, sep } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { build } from 'vite';
import { launchChromium } from './chromium';
import { ROOT } from './extension-build';

const TYPES: Record<string, string> = {
  '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json', '.har': 'application/json', '.json': 'application/json',
};

/** Builds the inline shell into dist/shell (what `npm run build:shell` does). */
export async function buildShell(): Promise<string> {
  await build({ configFile: resolve(ROOT, 'vite.shell.config.ts'), logLevel: 'error' });
  return resolve(ROOT, 'dist/shell');
}

/**
 * A static server on 127.0.0.1: `/shell/…` from dist/shell, `/fixtures/…` from
 * test/fixtures/har. Paths are resolved inside their folder only.
 */
export async function serveShell(shellDir: string): Promise<{ origin: string; close(): Promise<void> }> {
  const roots: Record<string, string> = { shell: shellDir, fixtures: resolve(ROOT, 'test/fixtures/har') };
  const server = createServer((req, res) => {
    const [, top = '', ...rest] = new URL(req.url ?? '/', 'http://127.0.0.1').pathname.split('/');
    const root = roots[top];
    const file = root ? normalize(resolve(root, ...rest.map(decodeURIComponent))) : '';
    if (!root || !file.startsWith(root + sep)) return void res.writeHead(404).end();
    readFile(file).then(
      (body) => res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    }),
  };
}

/** The inline shell built and served, and a Chromium (no extension) to open it in; `close` ends both. */
export async function startShell(): Promise<{ browser: Browser; origin: string; close(): Promise<void> }> {
  const [dir, chromium] = await Promise.all([buildShell(), launchChromium(null)]);
  const server = await serveShell(dir);
  return {
    browser: chromium.browser,
    origin: server.origin,
    close: async () => {
      await chromium.close();
      await server.close();
    },
  };
}
