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

/**
 * The command that opens `url`: `$BROWSER` first, as many CLIs read it (its first entry of a
 * `:`-separated list; `%s` there stands for the URL, else the URL comes last), then the system's
 * opener. Split on spaces and run without a shell, so the URL is one argument, never shell text.
 */
export function browserCommand(url: string, env: NodeJS.ProcessEnv = process.env, platform = process.platform): [string, string[]] {
  const words = (env.BROWSER ?? '').split(':')[0]!.trim().split(/\s+/).filter(Boolean);
  if (words.length > 0) {
    const [command, ...args] = words.map((word) => word.replaceAll('%s', url));
    return [command!, words.some((word) => word.includes('%s')) ? args : [...args, url]];
  }
  return platform === 'darwin' ? ['open', [url]] : platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
}

/** Opens `url` in the user's browser; a failure is reported, never fatal. */
function openBrowser(url: string, io: Io): void {
  const [command, args] = browserCommand(url);
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  child.once('error', (error) => io.stderr(`mcp-stream-lens proxy: could not open a browser (${(error as NodeJS.ErrnoException).code ?? error.message}); open the URL above`));
  child.unref();
}
