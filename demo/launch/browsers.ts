import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { DemoError } from './demo-error.js';
import type { Lifecycle } from './lifecycle.js';

export type BrowserKind = 'chromium' | 'firefox';

interface Candidates {
  /** An environment variable that names the executable and wins over everything else. */
  env: string;
  paths: readonly string[];
  /** Names looked up on PATH. */
  names: readonly string[];
  /** Debian's package. */
  apt: string;
  label: string;
}

const CANDIDATES: Readonly<Record<BrowserKind, Candidates>> = {
  chromium: { env: 'CHROME_PATH', paths: ['/usr/bin/chromium'], names: ['google-chrome', 'google-chrome-stable', 'chromium', 'chromium-browser'], apt: 'chromium', label: 'Chromium' },
  firefox: { env: 'FIREFOX_PATH', paths: ['/usr/bin/firefox-esr'], names: ['firefox-esr', 'firefox'], apt: 'firefox-esr', label: 'Firefox ESR' },
};

/**
 * The browser executable: `$CHROME_PATH` (or `$FIREFOX_PATH`), Debian's path, then PATH. When
 * there is none and we are root with apt-get, installs Debian's package; otherwise says how.
 */
export async function findBrowser(kind: BrowserKind, lifecycle: Lifecycle, log: (line: string) => void): Promise<string> {
  const { env, apt, label } = CANDIDATES[kind];
  const named = process.env[env];
  if (named) {
    if (await isExecutable(named)) return named;
    throw new DemoError(`${env}=${named} is not an executable file: point it at a browser, or unset it`);
  }
  const found = await lookup(CANDIDATES[kind]);
  if (found) return found;
  const root = process.getuid?.() === 0;
  const aptGet = await onPath('apt-get');
  if (!root || !aptGet) {
    throw new DemoError(`no ${label} found: install it (sudo apt-get install -y ${apt}), or set ${env} to its executable`);
  }
  log(`demo: no ${label} found; installing Debian's ${apt} with apt-get`);
  const ok = (await run(aptGet, ['update', '-q'], lifecycle)) === 0 && (await run(aptGet, ['install', '-y', '-q', apt], lifecycle)) === 0;
  const installed = ok ? await lookup(CANDIDATES[kind]) : undefined;
  if (!installed) throw new DemoError(`apt-get could not install ${apt}: install ${label} yourself, or set ${env} to its executable`);
  return installed;
}

async function lookup({ paths, names }: Candidates): Promise<string | undefined> {
  for (const path of paths) if (await isExecutable(path)) return path;
  for (const name of names) {
    const path = await onPath(name);
    if (path) return path;
  }
  return undefined;
}

/** The first executable called `name` on PATH. */
export async function onPath(name: string): Promise<string | undefined> {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && (await isExecutable(join(dir, name)))) return join(dir, name);
  }
  return undefined;
}

function isExecutable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(() => true, () => false);
}

function run(command: string, args: string[], lifecycle: Lifecycle): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 2, 2], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    lifecycle.adopt(child);
    child.once('error', () => resolve(127));
    child.once('exit', (code) => resolve(code ?? 1));
  });
}
