import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ListenAddress } from '../proxy/listen-address';
import type { RunningProxy } from '../proxy/server';
import { startViewServer } from '../proxy/view-server';
import type { Io } from './main';

export interface OpenedView {
  url: string;
  close(): Promise<void>;
}

/**
 * The shell build: beside the built CLI (dist/cli -> dist/shell), or, when the CLI runs from
 * source (tests), in the checkout's dist/.
 */
function shellDir(): string | undefined {
  const candidates = [new URL('../shell/', import.meta.url), new URL('../../dist/shell/', import.meta.url)].map((url) => fileURLToPath(url));
  return candidates.find((dir) => existsSync(join(dir, 'index.html')));
}

/**
 * Starts the live view with a fresh random token and prints its URL, as a notebook server does.
 * Without a shell build the proxy runs on and says so; a view that cannot listen stops the run
 * (undefined).
 */
export async function openView(proxy: RunningProxy, listen: ListenAddress, open: boolean, io: Io): Promise<OpenedView | 'none' | undefined> {
  const dir = shellDir();
  if (!dir) {
    io.stderr('mcp-stream-lens proxy: the live view is not built (npm run build:shell); running without it');
    return 'none';
  }
  const token = randomBytes(18).toString('base64url');
  try {
    const view = await startViewServer({ recording: proxy.recording, counters: proxy.counters, listen, shellDir: dir, token });
    io.stderr(`mcp-stream-lens proxy: live view at ${view.url}`);
    if (open) openBrowser(view.url, io);
    return view;
  } catch (error) {
    io.stderr(`mcp-stream-lens: cannot listen on ${listen.host}:${listen.port} for the live view (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    return undefined;
  }
}

/** Opens `url` in the system browser; a failure is reported, never fatal. */
function openBrowser(url: string, io: Io): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
  child.once('error', (error) => io.stderr(`mcp-stream-lens proxy: could not open a browser (${(error as NodeJS.ErrnoException).code ?? error.message}); open the URL above`));
  child.unref();
}
